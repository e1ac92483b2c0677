"""The gamestate's columns: per-player values a rule declares ("Each Wizard has an amount of
Thaum, which is a nonnegative integer, tracked in the GNDT"), read from the rule text's common
sentence forms when unmistakable; each column's kind, bounds and default, and how a value
written in a mail is read and checked against them."""

from __future__ import annotations

import copy
import re
from functools import lru_cache
from typing import Any, NotRequired, TypedDict

from mailref.engine import rule_index
from mailref.engine.context import Refused


class Column(TypedDict):
    slug: str  # lower case name, how a mail names it
    name: str  # as the rule writes it: "Thaum"
    kind: str  # integer | asset | text | list | choice | player
    default: Any
    rule: str  # the rule that declares it ("2.15"), or "" when the GM declared it
    min: NotRequired[int | None]
    max: NotRequired[int | None]
    max_len: NotRequired[int | None]
    choices: NotRequired[list[str]]


KINDS = ("integer", "asset", "text", "list", "choice", "player")
NUMERIC = ("integer", "asset")  # an asset is a nonnegative integer moved by transfers
_NUMBERS = {
    w: i for i, w in enumerate("zero one two three four five six seven eight nine ten".split())
}
_OWNER = r"Each (?:[A-Z][a-z]+|player|wizard)"
# "Each Wizard has an amount of Thaum, which is a nonnegative integer, tracked in the GNDT."
_AMOUNT = re.compile(
    _OWNER + r" has an amount of (?P<name>[A-Z][\w-]*),?(?: which is an? (?P<what>[\w -]+?),)?"
    r" tracked in the GNDT"
)
# "Each Wizard has a Home, tracked in the GNDT - a Wizard's Home is a Community, defaulting to
# the Wilderness if it exists."
_ITEM = re.compile(
    _OWNER + r" has an? (?P<name>[A-Z][\w-]*),(?: which is (?P<what>[^.]+?),)? tracked in the GNDT"
)
# "the contents of each Wizard's hand are tracked as a comma-delineated list in the field "Hand""
_LIST = re.compile(
    r"tracked as a comma-delineated list in the field [\"“”](?P<name>[A-Z][\w-]*)[\"“”]"
)
# "Each Wizard has an amount of Coins, which is an asset." (a ledger's: Agora's currencies)
_ASSET = re.compile(
    _OWNER + r" has an amount of (?P<name>[A-Z][\w-]*),? which (?:is|are) an? "
    r"(?:fungible )?(?:asset|currency)\b"
)
_UP_TO = re.compile(r"may have up to (?P<n>\d+|[a-z]+) ")
_ONE_OF = re.compile(
    r"one of (?:the following: )?(?P<options>[A-Z][\w-]*(?:, [A-Z][\w-]*)*)"
    r",? (?:or|and) (?P<last>[A-Z][\w-]*)"
)


def _number(word: str) -> int | None:
    return int(word) if word.isdigit() else _NUMBERS.get(word.lower())


def _default(text: str, name: str) -> str | None:
    """ "Gold defaults to 10", "X's default is 3", or ", defaulting to the Wilderness"."""
    m = re.search(
        rf"\b{re.escape(name)}(?:'s default is| defaults to) (?:the )?(?P<v>[\w-]+)", text
    ) or re.search(rf"\b{re.escape(name)}\b[^.]*?defaulting to (?:the )?(?P<v>[\w-]+)", text)
    return m.group("v") if m else None


def _column(name: str, kind: str, rule: str, **kw: Any) -> Column:
    c: Column = {"slug": name.lower(), "name": name, "kind": kind, "default": None, "rule": rule}
    c.update(kw)  # type: ignore[typeddict-item]
    return c


def declared(number: str, text: str) -> list[Column]:
    """The columns one rule's TEXT declares, in the forms read unmistakably; none else. Each
    rule's text is read once: the gamestate is kept after every change, and a long game's
    ruleset is read again whole each time (the result is the caller's own to change)."""
    return [copy.deepcopy(c) for c in _declared(number, text)]


@lru_cache(maxsize=4096)
def _declared(number: str, text: str) -> tuple[Column, ...]:
    out: list[Column] = []
    for m in _ASSET.finditer(text):
        c = _column(m.group("name"), "asset", number, min=0, max=None)
        given = _default(text, c["name"])
        c["default"] = int(given) if given and given.isdigit() else 0
        out.append(c)
    for m in _AMOUNT.finditer(text):
        what = (m.group("what") or "nonnegative integer").lower()
        if "integer" not in what and "number" not in what:
            continue
        low = 0 if what.startswith(("nonnegative", "non-negative", "positive")) else None
        if what.startswith("positive"):
            low = 1
        c = _column(m.group("name"), "integer", number, min=low, max=None)
        given = _default(text, c["name"])
        c["default"] = int(given) if given and given.lstrip("-").isdigit() else max(low or 0, 0)
        out.append(c)
    for m in _LIST.finditer(text):
        c = _column(m.group("name"), "list", number, max_len=None, default=[])
        if (up := _UP_TO.search(text)) is not None:
            c["max_len"] = _number(up.group("n"))
        out.append(c)
    for m in _ITEM.finditer(text):
        name, what = m.group("name"), (m.group("what") or "")
        if any(c["slug"] == name.lower() for c in out):
            continue
        if (one := _ONE_OF.search(what)) is not None:
            choices = [*one.group("options").split(", "), one.group("last")]
            given = _default(text, name)
            out.append(
                _column(name, "choice", number, choices=choices, default=given or choices[0])
            )
        elif re.search(r"the name of an? ", what):
            out.append(_column(name, "player", number, default=""))
        elif not what:
            out.append(_column(name, "text", number, default=_default(text, name) or ""))
    return tuple(out)


def from_rules(rules: list[Any]) -> list[Column]:
    """Every column the ruleset declares, in rule order, the first declaration of a name kept
    (the caller's own to change). A list of rules is read once (rule_index: a change makes a
    new list), and a ruleset of the same texts read before is not read again."""
    indexed = rule_index.index(rules)
    if indexed.columns is None and indexed.columns_before is not None:
        # Rules changed by a proposal declaring no column leave the columns as they were.
        if not any(_declared(*_number_and_text(r)) for r in indexed.changed):
            indexed.columns = indexed.columns_before
    if indexed.columns is None:
        texts = tuple(map(_number_and_text, rules))
        indexed.columns = _from_texts(texts)
    return copy.deepcopy(indexed.columns)


def _number_and_text(rule: Any) -> tuple[str, str]:
    return str(rule.get("number", "")), str(rule.get("text") or "")


@lru_cache(maxsize=16)
def _from_texts(texts: tuple[tuple[str, str], ...]) -> list[Column]:
    out: list[Column] = []
    for number, text in texts:
        for c in _declared(number, text):
            if all(o["slug"] != c["slug"] for o in out):
                out.append(c)
    return out


def read_value(column: Column, written: str) -> Any:
    """A value as a mail writes it, in the column's kind: "Fox, Owl" is a list of two."""
    written = written.strip()
    if column["kind"] in NUMERIC:
        if not re.fullmatch(r"-?\d+", written):
            raise ValueError(written)
        return int(written)
    if column["kind"] == "list":
        return [x.strip() for x in written.split(",") if x.strip() and x.strip() != "-"]
    return written


def fault(column: Column, value: Any, players: list[str], line: str = "") -> Refused | None:
    """Why VALUE may not stand in COLUMN, as the refusal of the LINE that writes it, or None."""
    name = column["name"]
    if column["kind"] in NUMERIC:
        low, high = column.get("min"), column.get("max")
        if low is not None and value < low:
            return Refused("column_below", column=name, value=value, bound=low, line=line)
        if high is not None and value > high:
            return Refused("column_above", column=name, value=value, bound=high, line=line)
    elif column["kind"] == "list":
        most = column.get("max_len")
        if most is not None and len(value) > most:
            return Refused("column_too_long", column=name, count=len(value), most=most, line=line)
        if len({v.lower() for v in value}) < len(value):
            return Refused("column_repeats", column=name, line=line)
    elif column["kind"] == "choice":
        choices = column.get("choices") or []
        if value.lower() not in {c.lower() for c in choices}:
            return Refused(
                "column_not_a_choice", column=name, value=value, choices=choices, line=line
            )
    elif column["kind"] == "player" and value and value.lower() not in {p.lower() for p in players}:
        return Refused("column_not_a_player", column=name, value=value, line=line)
    return None


def shown(value: Any) -> str:
    """A value as the table and the answers write it."""
    if isinstance(value, list):
        return ", ".join(value) if value else "-"
    return "-" if value in ("", None) else str(value)
