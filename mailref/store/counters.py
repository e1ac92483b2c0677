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
    count: int = conn.execute(_COUNT_REPLY, {"sender": sender, "day": day}).scalar_one()
    return count


_ADD_MAILED = text(
    "INSERT INTO reply_quota (sender, day, count) VALUES (:sender, :day, 1) "
    "ON CONFLICT (sender, day) DO UPDATE SET count = reply_quota.count + 1"
)
_MAILED = text(
    "SELECT sender, count FROM reply_quota WHERE day = :day AND substr(sender, 1, :n) = :prefix"
)


def mailed_key(slug: str, address: str) -> str:
    """The counter of the mail game SLUG sends ADDRESS a day (SPEC §2.2 mails_per_player_day)."""
    return f"mailed:{slug}:{address.lower()}"


def count_mailed(conn: Connection, slug: str, addresses: list[str], day: str) -> None:
    """One more mail from game SLUG to each of ADDRESSES (one counted per mail) on DAY."""
    if addresses:
        conn.execute(_ADD_MAILED, [{"sender": mailed_key(slug, a), "day": day} for a in addresses])


def mailed_today(conn: Connection, slug: str, day: str) -> dict[str, int]:
    """Address -> the mails game SLUG has sent it on DAY."""
    prefix = mailed_key(slug, "")
    rows = conn.execute(_MAILED, {"day": day, "n": len(prefix), "prefix": prefix})
    return {sender[len(prefix) :]: count for sender, count in rows}
