"""What the CLI prints: tables with a header row, JSON documents and refusals, every cell and
string escaped so that mail text cannot drive the terminal."""

from __future__ import annotations

import json
import re
import sys
from typing import Any

from mailref.engine.context import Refused
from mailref.safe import printable


def print_json(doc: Any) -> None:
    """One JSON document; control characters escaped even where JSON would allow them raw."""
    text = json.dumps(doc, indent=2, ensure_ascii=False, default=str)
    print(_RAW_IN_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", text))


_RAW_IN_JSON = re.compile("[\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")


def table(headers: list[str], rows: list[list[Any]]) -> None:
    """Columns under a header row; every cell escaped, so mail text cannot drive the terminal."""
    cells = [[printable(c) for c in r] for r in rows]
    widths = [max([len(h)] + [len(r[i]) for r in cells]) for i, h in enumerate(headers)]
    for r in [headers, *cells]:
        print(
            "  ".join(c.ljust(w) for c, w in zip(r[:-1], widths[:-1], strict=True))
            + ("  " if len(r) > 1 else "")
            + r[-1]
        )


def cut(text: str, n: int) -> str:
    """TEXT cut to N characters, an ellipsis marking the cut."""
    return text if len(text) <= n else text[: n - 1] + "…"


def refused(reason: str | Refused, hint: str = "") -> int:
    """Say REASON (and HINT) on standard error as a refusal; the exit code 1. A Refused is said
    in the operator's terms, its catalogue's CLI face (`mailref game show SLUG` where a player's
    mail says "send [Status]")."""
    if isinstance(reason, Refused):
        reason, hint = reason.words("cli")
    # One line (SPEC 1.4): the engine's hint, e.g. the known keys, follows the reason.
    print(
        f"mailref: refused: {printable(reason)}" + (f"; {printable(hint)}" if hint.strip() else ""),
        file=sys.stderr,
    )
    return 1
