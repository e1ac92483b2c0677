"""A roll made by an earlier mail and named in an `[Update]` ("Thaum +DICE6 from roll 3",
"Hand + FRUIT from roll 4", "Thaum +roll 3"): its result stands for the value, once only, and
only for its roller (the GM may use any). Rolls are numbered in the order they were made."""

from __future__ import annotations

import re
from typing import Any

from mailref.engine.context import Refused
from mailref.engine.state import GameState, Roll

_NAMED = re.compile(r"(?i)(?:(?P<dice>[\w+-]+)\s+from\s+)?roll\s+#?(?P<n>\d{1,9})")
_DICE = re.compile(r"(?i)(\d*)\s*(?:dice|d)\s*(\d+)\s*(?:([+-])\s*(\d+))?")


def _notation(word: str) -> tuple[int, int, int] | str:
    """DICE6, d6 and 1d6 alike; 2d6+1 as (2, 6, 1); a generator by its name."""
    m = _DICE.fullmatch(word.strip())
    if m is None:
        return word.strip().upper()
    bonus = int(m.group(4) or 0) * (-1 if m.group(3) == "-" else 1)
    return (int(m.group(1) or 1), int(m.group(2)), bonus)


def result(roll: Roll) -> str:
    """What the roll gave, as a value: the total of its dice, or the generator's word."""
    values = roll["values"]
    if values and all(isinstance(v, int) for v in values):
        notation = _notation(roll["dice"])
        bonus = notation[2] if isinstance(notation, tuple) else 0
        return str(sum(values) + bonus)
    return str(values[0]) if values else ""


def named(written: str) -> int | None:
    """The number of the roll a value names ("DICE6 from roll 3": 3), or None."""
    m = _NAMED.fullmatch(written.strip())
    return int(m.group("n")) if m else None


def take(
    state: GameState, line: dict[str, Any], who: str, officer: bool, taken: set[int]
) -> dict[str, Any]:
    """LINE with the roll its value names put in its place, that roll marked TAKEN; refused
    when there is no such roll, it is another's, of other dice, or used already."""
    text = str(line.get("line") or "")
    m = _NAMED.fullmatch(str(line.get("value") or "").strip())
    assert m is not None  # only for a value `named` reads
    number = int(m.group("n"))
    rolls = state["rolls"]
    if not 1 <= number <= len(rolls):
        raise Refused("no_such_roll", number=number, count=len(rolls), line=text)
    roll = rolls[number - 1]
    if not officer and str(roll.get("player") or "").lower() != who.lower():
        raise Refused("roll_not_yours", number=number, player=roll.get("player"), line=text)
    if roll.get("used") or number in taken:
        raise Refused("roll_used", number=number, line=text)
    if m.group("dice") and _notation(m.group("dice")) != _notation(roll["dice"]):
        raise Refused(
            "roll_other_dice", number=number, dice=roll["dice"], named=m.group("dice"), line=text
        )
    taken.add(number)
    return {**line, "value": result(roll), "because": line.get("because") or f"roll {number}"}


def mark_used(state: GameState, taken: set[int], source: str) -> None:
    """The rolls an update used may not be used again: each keeps the mail that used it."""
    for number in taken:
        state["rolls"][number - 1]["used"] = source or "used"


def told(state: GameState) -> list[str]:
    """The answer to a roll in a game that keeps a gamestate: its number, and how to use it
    (with a column of the game's that such a result may go in)."""
    gs = state.get("gamestate")
    if not gs or not gs["columns"] or not state["rolls"]:
        return []
    n, dice = len(state["rolls"]), state["rolls"][-1]["dice"]
    numeric = isinstance(_notation(dice), tuple)
    fits = [c for c in gs["columns"] if (c["kind"] in ("integer", "asset")) == numeric]
    column = (fits or gs["columns"])[0]["name"]
    return [f"This is roll {n}: an [Update] may use it once, as `{column} +{dice} from roll {n}`."]
