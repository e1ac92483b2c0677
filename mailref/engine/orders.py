"""Orders from bold text (SPEC §3.3), the orders games' own notation: the Eire grammar, with
land names matched case- and accent-insensitively and close misspellings answered with "did
you mean"; and the generic reading where every bold sentence is a free-text order (the
`orders` variant)."""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass, field


@dataclass
class Order:
    kind: str  # defend | invest | attack | high-king | free
    text: str  # as written
    land: str | None = None  # canonical land name
    grain: int | None = None


@dataclass
class OrderReading:
    orders: list[Order] = field(default_factory=list)
    rejected: list[tuple[str, str]] = field(default_factory=list)  # (text, why)


def fold(name: str) -> str:
    """Case- and accent-insensitive key: 'Tír na nÓg' -> 'tir na nog'."""
    s = unicodedata.normalize("NFKD", name)
    s = "".join(ch for ch in s if not unicodedata.combining(ch))
    return " ".join(s.lower().replace("’", "'").split())


ORDER_MAX = 200  # an order is a short sentence; longer bold text is prose
_EIRE = [
    ("defend", re.compile(r"^defend\s+(?P<land>.+?)\s+with\s+(?P<n>\d+)\s+grain$", re.I)),
    ("invest", re.compile(r"^invest\s+(?P<n>\d+)\s+grain\s+in(?:to)?\s+(?P<land>.+?)$", re.I)),
    ("attack", re.compile(r"^attack\s+(?P<land>.+?)\s+with\s+(?P<n>\d+)\s+grain$", re.I)),
    ("high-king", re.compile(r"^declare\s+(?:myself\s+)?(?:the\s+)?high\s+king$", re.I)),
]


# The order's shape with a word where the number goes: "Attack Reudh with ten Grain".
_WORDY = re.compile(
    r"^(defend|attack)\s+.+?\s+with\s+(?P<n>[^\d\s]+)\s+grain$|^invest\s+(?P<m>[^\d\s]+)\s+grain\s+in",
    re.I,
)
_VERBS = {"defend": "Defend", "invest": "Invest", "attack": "Attack", "declare": "Declare"}
# Two orders written as one: "Attack Laigin with 10 Grain and Mide with 5 Grain".
_SEVERAL = re.compile(r"\s(?:and|&)\s|,|;|\bwith\s+\d+\s+grain\b", re.I)
ONE_PER_LINE = "one order per line (each in bold): several orders in one sentence are not read"


def _not_an_order(t: str) -> str:
    """Why T is no order, as near to what was meant as can be told."""
    if _WORDY.match(t):
        return "write the Grain as a number: 10 Grain, not ten Grain"
    first = t.split(" ", 1)[0].lower()
    near = difflib.get_close_matches(first, list(_VERBS), n=1, cutoff=0.7)
    if near and near[0] != first:
        return f"not an order: did you mean {_VERBS[near[0]]}?"
    return (
        "not an order: write Defend LAND with N Grain, Invest N Grain in LAND, "
        "Attack LAND with N Grain, or Declare High King"
    )


def read_eire_orders(sentences: list[str], lands: list[str]) -> OrderReading:
    """Each bold sentence against the four Eire orders and the map's LANDS."""
    by_key = {fold(n): n for n in lands}
    reading = OrderReading()
    for text in sentences:
        t = " ".join(text.split()).strip(" .;!")
        if len(t) > ORDER_MAX:
            reading.rejected.append(
                (t[:80] + "…", f"longer than {ORDER_MAX} characters: not an order")
            )
            continue
        for kind, rx in _EIRE:
            m = rx.match(t)
            if not m:
                continue
            if kind == "high-king":
                reading.orders.append(Order(kind, text))
                break
            n = int(m.group("n"))
            land = by_key.get(fold(m.group("land")))
            if land is None and _SEVERAL.search(m.group("land")):
                reading.rejected.append((text, ONE_PER_LINE))
            elif land is None:
                near = difflib.get_close_matches(
                    fold(m.group("land")), list(by_key), n=1, cutoff=0.7
                )
                why = f'there is no land "{m.group("land")}"' + (
                    f"; did you mean {by_key[near[0]]}?" if near else ""
                )
                reading.rejected.append((text, why))
            elif n <= 0:
                reading.rejected.append((text, "the Grain must be a positive number"))
            else:
                reading.orders.append(Order(kind, text, land, n))
            break
        else:
            reading.rejected.append((text, _not_an_order(t)))
    return reading


def read_free_orders(sentences: list[str]) -> OrderReading:
    """The `orders` variant: every bold sentence is an order for the GM to read."""
    return OrderReading(orders=[Order("free", " ".join(s.split())) for s in sentences if s.strip()])


_EIRE_VERB = re.compile(
    r"^(?:defend|invest|attack)\s+\S+.*\bgrain\b|^declare\s+.*high\s+king", re.I
)
# A Diplomacy-style unit order: "A Paris - Burgundy", "F Brest S A Paris", "Army Vienna holds".
_UNIT = re.compile(
    r"^(?:a|f|army|fleet)\s+[^\W\d_][\w.' -]*?\s*(?:-|–|->|→|\bto\b|\bs\b|\bh\b|\bc\b|holds?\b|"
    r"supports?\b|convoys?\b|moves?\b)",
    re.I,
)


def order_like(lines: list[str], bold: list[str], eire: bool) -> list[str]:
    """The LINES (of a mail, not in bold) that look like orders: in Eire one of its four
    orders; elsewhere a unit order or a line that begins with the first word of a BOLD order of
    the same mail. The author is told of them, since only bold text is read as an order."""
    firsts = {s.split()[0].lower() for s in bold if s.split() and s.split()[0][:1].isalpha()}
    out = []
    for line in lines:
        t = " ".join(line.split()).strip(" .;!")
        if not t or len(t) > ORDER_MAX:
            continue
        if eire:
            like = bool(_EIRE_VERB.match(t) or _WORDY.match(t))
        else:
            like = bool(_UNIT.match(t)) or t.split()[0].lower() in firsts
        if like:
            out.append(t)
    return out
