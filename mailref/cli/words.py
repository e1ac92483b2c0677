"""The engine's refusals are written for players, who act by mail ("send [Status] for the open
matters", "choose another with a body line `Name: ...`"). At the command line the operator acts
with commands: the same refusal, with the hint in their terms."""

from __future__ import annotations

import re
import sys

from mailref.safe import printable

_HINTS = {
    "send [Status] for the open matters": "`mailref game show SLUG` lists the open matters",
    "choose another with a body line `Name: ...`": "choose another name",
    "send [Help] for the commands of this game": "`mailref --help` lists the commands",
}
_NOT_A_COMMAND = re.compile(
    r"\[(?P<tag>[^\]]+)\] is not a command of (?P<game>.+?)(?: \((?P<title>[^()]+)\))?"
)
_CHOICE = re.compile(r"add a body line `(?P<key>Color|Tribe|Origin): (?P<value>[^`]+)`")
_STARTED = (
    "Nomic games are active from creation (the first turn opens once two players are in); "
    "only orders games (eire, orders) are started with `mailref game start`"
)


def for_operator(reason: str, hint: str) -> tuple[str, str]:
    """REASON and HINT as the CLI says them."""
    m = _NOT_A_COMMAND.fullmatch(reason)
    if m:
        tag = m["tag"].lower()
        reason = (
            f"{m['game']} is a {m['title']} game: `{tag}` does not apply to it"
            if m["title"]
            else f"`{tag}` does not apply to {m['game']}"
        )
        hint = _STARTED if tag == "start" else "`mailref --help` lists the commands"
    if hint.startswith(
        "add a body line `Name: YourName`: "
    ):  # what a name may hold, in the CLI's terms
        hint = "a name is " + hint.removeprefix("add a body line `Name: YourName`: ")
    # Eire's choices: a [Join]'s "Color: Green" body line is `player add --choice color=Green` here.
    hint = _CHOICE.sub(lambda m: f"add `--choice {m['key'].lower()}={m['value']}`", hint)
    return reason, _HINTS.get(hint, hint)


def refused(reason: str, hint: str = "") -> int:
    """Say REASON (and HINT) on standard error as a refusal; the exit code 1."""
    # One line (SPEC 1.4): the engine's hint, e.g. the known keys, follows the reason.
    print(
        f"mailref: refused: {printable(reason)}" + (f"; {printable(hint)}" if hint.strip() else ""),
        file=sys.stderr,
    )
    return 1
