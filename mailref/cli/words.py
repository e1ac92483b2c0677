"""A refusal at the command line: one line on standard error, in the operator's terms (the
catalogue's CLI face, engine/refusals/: `mailref game show SLUG` where a player's mail says
"send [Status]")."""

from __future__ import annotations

import sys

from mailref.engine.context import Refused
from mailref.safe import printable


def refused(reason: str | Refused, hint: str = "") -> int:
    """Say REASON (and HINT) on standard error as a refusal; the exit code 1. A Refused is said
    as the CLI says it."""
    if isinstance(reason, Refused):
        reason, hint = reason.words("cli")
    # One line (SPEC 1.4): the engine's hint, e.g. the known keys, follows the reason.
    print(
        f"mailref: refused: {printable(reason)}" + (f"; {printable(hint)}" if hint.strip() else ""),
        file=sys.stderr,
    )
    return 1
