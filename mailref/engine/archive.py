"""Ended matters leave the hot state, so a mail costs the same at turn 4,000 as at turn 10.

A proposal or judgement that ended more than ARCHIVE_AFTER ago is taken out of the state's
list and handed to the door, which keeps it as an archived row. The rule is a pure function
of the state and the time, so `replay` archives exactly what the live game archived. The
pages, `game show --json`, digests and replay read the full history back with `merge`.

No rule looks further back than the 120-hour DoV cooldown (a counter of its own) or "today"
(BlogNomic's proposals per day), so eight days keeps every rule's view of ended matters."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, cast

from mailref.engine.state import GameState, Matter
from mailref.timeutil import iso

ARCHIVE_AFTER = timedelta(days=8)
COLLECTIONS = ("proposals", "judgements")


def take_cold(
    state: GameState, collections: tuple[str, ...], open_statuses: tuple[str, ...], now: datetime
) -> list[tuple[str, Matter]]:
    """Remove the matters of COLLECTIONS that ended before NOW - ARCHIVE_AFTER from STATE;
    return them as (collection, matter) in the order they stood."""
    cold: list[tuple[str, Matter]] = []
    cutoff = iso(now - ARCHIVE_AFTER)  # every stored time is iso(): the strings sort as the times
    lists = cast("dict[str, list[Matter]]", state)  # COLLECTIONS name lists of matters
    for name in collections:
        matters = lists.get(name)
        if not matters:
            continue
        keep: list[Matter] = []
        for m in matters:
            ended = m.get("closed") or m.get("decided")
            if ended and ended <= cutoff and m.get("status") not in open_statuses:
                cold.append((name, m))
            else:
                keep.append(m)
        if len(keep) != len(matters):
            lists[name] = keep
    return cold


def merge(state: GameState, archived: list[tuple[str, Matter]]) -> GameState:
    """The full state: the hot state with its archived matters back in number order."""
    if not archived:
        return state
    full: dict[str, Any] = dict(state)
    for name in COLLECTIONS:
        old = [m for c, m in archived if c == name]
        if old:
            full[name] = sorted(old + list(full.get(name, [])), key=lambda m: m["number"])
    return cast(GameState, full)
