"""Matters an undo took away (SPEC §4.4): the replayed state no longer holds them, so the
Matters page reads them from the journal, where the entry that ordered the undo names each
("Proposal 1 "Tea" no longer exists (it was open).") beside the entries it voided."""

from __future__ import annotations

import re
from typing import Any

from mailref.engine.court import MARK

_GONE = re.compile(
    r'(?P<label>\S+) (?P<number>\d+) "(?P<title>.*)" no longer exists \(it was (?P<was>[^)]*)\)\.'
)
# Which order undid it, as the players know it: the kind of the entry that ordered the undo.
_ORDERS = {
    "undo": "the GM's undo",
    "ruling": "a ruling",
    "proclamation": "a Proclamation",
}


def order_words(row: dict[str, Any]) -> str:
    """The court order of journal ROW in words: "the ruling on judgement 1 by Ann", "the GM's
    undo"."""
    kind = str(row.get("action") or "")
    first = next((w for w in row.get("what", []) if not w.startswith(MARK)), "")
    if kind == "ruling" and (m := re.search(r"judgement (\d+)", first, re.I)):
        return f"the ruling on judgement {m.group(1)}" + (
            f" by {row['who']}" if row.get("who") else ""
        )
    said = _ORDERS.get(kind, kind.replace("_", " ") or "an order")
    return said + (f" by {row['who']}" if row.get("who") and kind != "undo" else "")


def matters(journal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each matter an undo entry of JOURNAL (rows as journal.row makes them) took away, newest
    undo first: label, number, title, what it was, the order's entry, when and by what."""
    return found_in(journal)[::-1]


def found_in(journal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The matters undo entries of JOURNAL took away, oldest undo first: the journal only grows,
    so what its older entries took away is found once."""
    out: list[dict[str, Any]] = []
    for row in journal:
        lines = row.get("what", [])
        if not any(str(w).startswith(MARK) for w in lines):
            continue
        for line in lines:
            m = _GONE.fullmatch(str(line).strip())
            if m is None:
                continue
            label = m.group("label")
            out.append(
                {
                    "id": f"undone-{label.lower()}-{m.group('number')}",
                    "label": label,
                    "number": int(m.group("number")),
                    "title": m.group("title"),
                    "was": m.group("was"),
                    "entry": row["number"],
                    "at": row["at"],
                    "by": order_words(row),
                }
            )
    return out
