"""Stored text as the typed columns give it: on SQLite the JSON and time columns are read as
text and decoded here, in one pass (what `mailref replay` and store/archived.py read). Imports
no SQLAlchemy, so replay on SQLite never loads it."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

from mailref.store.fastjson import loads, loads_all

# (action, at, draws), as engine/replay.py takes them; draws NULL in rows written before them
Entry = tuple[dict[str, Any], datetime, list[int] | None]


def decode_json(value: str | None) -> Any:
    """A JSON column's stored text as the column gives it."""
    return None if value is None else loads(value)


def decode_utc(value: str | None) -> datetime | None:
    """A UTCDateTime column's stored text (SQLite) as the column gives it: aware, in UTC."""
    return None if value is None else datetime.fromisoformat(value).replace(tzinfo=UTC)


def decode_journal(rows: Iterable[Sequence[Any]]) -> list[Entry]:
    """Rows of (action, at, draws) as stored text. The actions of one moment share their time,
    decoded once; the JSON of them all is read in one go (fastjson.loads_all)."""
    rows = list(rows)
    times: dict[str, datetime] = {}
    for _, at, _ in rows:
        if at not in times:
            times[at] = datetime.fromisoformat(at).replace(tzinfo=UTC)  # never NULL
    texts = [a for a, _, _ in rows] + [d for _, _, d in rows if d is not None and d != "[]"]
    # A NULL action was not written by the store: then each is read as the column reads it.
    decoded = [decode_json(t) for t in texts] if None in texts else loads_all(texts)
    draws = iter(decoded[len(rows) :])
    return [
        (action, times[at], None if d is None else [] if d == "[]" else next(draws))
        for action, (_, at, d) in zip(decoded[: len(rows)], rows, strict=True)
    ]
