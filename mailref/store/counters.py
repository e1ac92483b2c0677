"""Counters that several processes bump at once (SPEC §6): one atomic upsert, so two daemons
answering the same sender never collide on inserting the same row."""

from __future__ import annotations

from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from mailref.store.models import ReplyQuota


def count_reply(s: Session, sender: str, day: str) -> int:
    """Add one to SENDER's replies on DAY; returns the new count."""
    insert = postgresql.insert if s.get_bind().dialect.name == "postgresql" else sqlite.insert
    stmt = insert(ReplyQuota).values(sender=sender, day=day, count=1)
    stmt = stmt.on_conflict_do_update(index_elements=["sender", "day"],
                                      set_={"count": ReplyQuota.count + 1}).returning(ReplyQuota.count)
    return s.scalar(stmt)
