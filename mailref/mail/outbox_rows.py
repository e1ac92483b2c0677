"""The outbox rows as delivery marks them: one row sent the moment the relay took it, the
lease on a batch renewed, the back-off after a failure, the claimant's name, and how one
row's delivery went (Result)."""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import cast

from sqlalchemy import Table, bindparam, text, update

from mailref.store import OutboxMessage, Store
from mailref.store.keep import sqlite_stamp, sqlite_write
from mailref.store.models import UTCDateTime

# Built once: they run for every row sent.
_outbox = cast(Table, OutboxMessage.__table__)  # a mapped class's table is a Table
# The same text on both stores, as keeping mail is (store/keep.py).
_MARK_SENT = (
    "UPDATE outbox SET status = 'sent', sent_at = :at, last_error = '', attempts = attempts + 1, "
    "claimed_by = NULL, lease_until = NULL WHERE id = :row AND status != 'sent'"
)
_CORE_MARK_SENT = text(_MARK_SENT).bindparams(bindparam("at", type_=UTCDateTime))
RENEW = (
    update(_outbox)
    .where(_outbox.c.claimed_by == bindparam("me"), _outbox.c.status == "sending")
    .values(lease_until=bindparam("until"))
)


def mark_sent(store: Store, row: int, at: datetime) -> bool:
    """Row ROW is sent (unless it was already): True when this marked it."""
    if store.engine.dialect.name != "sqlite":
        with store.autocommit.begin() as conn:
            return conn.execute(_CORE_MARK_SENT, {"row": row, "at": at}).rowcount > 0
    with sqlite_write(store) as cur:
        return cur.execute(_MARK_SENT, {"row": row, "at": sqlite_stamp(at)}).rowcount > 0


def backoff(attempts: int) -> timedelta:
    """How long a row waits after its ATTEMPTS-th failed try: 30 s, doubling to an hour."""
    return timedelta(seconds=min(30 * 2 ** max(attempts - 1, 0), 3600))


def claimant() -> str:
    """The name this process claims rows under: host and process id."""
    return f"{socket.gethostname()}:{os.getpid()}"


@dataclass
class Result:
    """How one row's delivery went."""

    error: str | None = None  # None: delivered
    permanent: bool = False  # failed for good: never retried automatically
    tried: bool = True  # False: not attempted (the connection was lost first)
    relay_down: bool = (
        False  # the relay itself failed (unreachable, login refused): said once, not per row
    )
