"""The journal page of a game (SPEC §4.4): every entry anchored by its number (`entry-57`, the
number undo lines name), with its time, source, who and what it did; matters and turns link to
the entries that opened and decided them. The journal only grows: a process keeps the rows it
read and reads only the newer ones."""

from __future__ import annotations

from bisect import bisect_left
from collections import OrderedDict
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from mailref.store import Game, JournalEntry

_CACHE: OrderedDict[tuple, list[dict[str, Any]]] = OrderedDict()
_CACHE_SIZE = 32
# A long game's journal in pages of this many entries counted from the first: journal-1.html
# holds entries 1 to 100 and never changes once full; journal.html the newest block.
PER_PAGE = 100


def rows(session: Session, game: Game, key: tuple) -> list[dict[str, Any]]:
    """Every journal entry of GAME, oldest first: number, at (ISO), source, who, what."""
    kept = _CACHE.pop(key, None) or []
    if kept and kept[-1]["number"] > game.version:
        kept = []
    last = kept[-1]["number"] if kept else 0
    query = (
        select(JournalEntry.seq, JournalEntry.at, JournalEntry.source, JournalEntry.action)
        .add_columns(JournalEntry.summary)
        .where(JournalEntry.game_id == game.id, JournalEntry.seq > last)
        .order_by(JournalEntry.seq)
    )
    out = kept + [row(*r) for r in session.execute(query)]
    _CACHE[key] = out
    while len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return out


def holds(session: Session, game: Game, key: tuple) -> bool:
    """Whether what is kept under KEY is still GAME's: a database made again under the same
    URL, with a game of the same slug made at the same time, is another game."""
    kept = _CACHE.get(key)
    if not kept:
        return True
    last = kept[-1]
    return last["number"] <= game.version and _still(session, game, last)


def forget(key: tuple) -> None:
    _CACHE.pop(key, None)


def _still(session: Session, game: Game, last: dict[str, Any]) -> bool:
    """Whether the store still holds the entry LAST as it was kept."""
    got = session.execute(
        select(JournalEntry.seq, JournalEntry.at, JournalEntry.source, JournalEntry.action)
        .add_columns(JournalEntry.summary)
        .where(JournalEntry.game_id == game.id, JournalEntry.seq == last["number"])
    ).first()
    return got is not None and row(*got) == last


def row(seq: int, at: Any, source: str, action: dict, summary: str) -> dict[str, Any]:
    """One journal entry as the page and `mailref journal` show it."""
    kind, _, detail = source.partition(":")
    who = action.get("player") or (detail if kind == "admin" else "") or action.get("by") or ""
    if action.get("type") == "press" and action.get("grey"):
        who = ""  # grey press: only the GM knows its sender
    what = [line for line in (summary or "").splitlines() if line.strip()]
    if not what:
        what = [f"{action.get('type')}" + (f" by {who}" if who else "")]
    return {
        "number": seq,
        "at": at.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "source": kind,
        "source_detail": detail,
        "who": str(who),
        "action": action.get("type"),
        "what": what,
    }


def link_matters(matters: list[dict[str, Any]], entries: dict[tuple[str, int], list[int]]) -> None:
    """Give each matter of the page the journal entries that opened and decided it."""
    for m in matters:
        m["entries"] = entries.get((m.get("collection", ""), m["number"]), [])


def page_of(number: int, last: int) -> str:
    """The page that shows entry NUMBER of a journal of LAST entries."""
    block, newest = (number - 1) // PER_PAGE + 1, (max(last, 1) - 1) // PER_PAGE + 1
    return "journal.html" if block >= newest else f"journal-{block}.html"


def link(number: int, last: int) -> str:
    """Where entry NUMBER is read: its page and anchor."""
    return f"{page_of(number, last)}#entry-{number}"


def pages(entries: list[dict[str, Any]]) -> list[tuple[str, list[dict[str, Any]]]]:
    """(page name, its entries newest first) for every journal page, journal.html first. The
    entries come in order, so each page is a slice of them."""
    last = entries[-1]["number"] if entries else 0
    newest = (max(last, 1) - 1) // PER_PAGE + 1
    numbers = [e["number"] for e in entries]
    out: dict[str, list[dict[str, Any]]] = {"journal.html": []}
    start = 0
    while start < len(entries):
        block = (numbers[start] - 1) // PER_PAGE + 1
        if block >= newest:
            out["journal.html"] = entries[start:]
            break
        end = bisect_left(numbers, block * PER_PAGE + 1, start)
        out[f"journal-{block}.html"] = entries[start:end]
        start = end
    return [(name, block[::-1]) for name, block in out.items()]
