"""Counters that several processes bump at once (SPEC §6): one atomic upsert, so two daemons
answering the same sender never collide on inserting the same row.

Written as SQL text, the same on SQLite (3.35+) and PostgreSQL: SQLAlchemy cannot cache the
dialect `insert().on_conflict_do_update()` construct, and compiling it anew cost more than
the rest of the quota check. A Core statement also skips the session's autoflush, so counting
a reply never writes the state the command is still changing."""

from __future__ import annotations

from sqlalchemy import text
from sqlalchemy.engine import Connection

_COUNT_REPLY = text(
    "INSERT INTO reply_quota (sender, day, count) VALUES (:sender, :day, 1) "
    "ON CONFLICT (sender, day) DO UPDATE SET count = reply_quota.count + 1 "
    "RETURNING count"
)


def count_reply(conn: Connection, sender: str, day: str) -> int:
    """Add one to SENDER's replies on DAY (in CONN's transaction); returns the new count."""
    return conn.execute(_COUNT_REPLY, {"sender": sender, "day": day}).scalar_one()
