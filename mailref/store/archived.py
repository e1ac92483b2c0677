"""What `mailref replay` reads through the store: a game's journal and its archived matters
(the door and the pages put them back into the hot state with engine/archive.py's merge).
Here, beside the store, so that replay reads them without loading the door's mail and
templates.

On SQLite the JSON and time columns are read as their stored text and decoded here, in one
pass: SQLAlchemy's per-value result processors were a third of a long game's replay (SPEC §8,
replay ≥ 5,000 journal entries/s). What comes back is exactly what the typed columns give."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Text, select, type_coerce
from sqlalchemy.orm import Session

from mailref.store.decode import Entry, decode_journal, decode_json
from mailref.store.models import ArchivedMatter, JournalEntry

_journal = JournalEntry.__table__
_archive = ArchivedMatter.__table__


def _as_text(session: Session) -> bool:
    return session.get_bind().dialect.name == "sqlite"


def journal(session: Session, game_id: int) -> list[Entry]:
    """A game's journal as replay takes it: (action, at, draws) in order."""
    cols = (_journal.c.action, _journal.c.at, _journal.c.draws)
    query = select(*cols).where(_journal.c.game_id == game_id).order_by(_journal.c.seq)
    if not _as_text(session):
        return [(r[0], r[1], r[2]) for r in session.execute(query)]
    query = query.with_only_columns(*(type_coerce(c, Text) for c in cols))
    return decode_journal(session.execute(query))


def archived(session: Session, game_id: int) -> list[tuple[str, dict[str, Any]]]:
    """A game's archived matters, in the order they left the hot state."""
    query = (
        select(_archive.c.collection, _archive.c.data)
        .where(_archive.c.game_id == game_id)
        .order_by(_archive.c.id)
    )
    if not _as_text(session):
        return [(c, d) for c, d in session.execute(query)]
    query = query.with_only_columns(_archive.c.collection, type_coerce(_archive.c.data, Text))
    return [(c, decode_json(d)) for c, d in session.execute(query)]
