"""Claims: several `mailref serve` processes may share one database (SPEC §6). Each stored
mail is processed by one of them and each deadline fired by one, and a process killed at any
point leaves nothing held for long.

A claim is taken inside the transaction that does the work and ends with it:
- PostgreSQL: `FOR UPDATE SKIP LOCKED`. The row lock is the claim; another daemon skips the
  row instead of waiting, and a killed daemon's locks vanish with its connection.
- SQLite: every write transaction starts with `BEGIN IMMEDIATE`, so processing transactions
  of all processes already run one at a time; the claim is a conditional UPDATE of the row's
  lease (claimed_by, lease_until) whose row count says whether we got it. A lease committed
  by a caller that claims in one transaction and works in later ones keeps other daemons
  off the mail until it runs out, then the mail is free again.

Leases run on the wall clock (they are about processes), never on the game clock."""

from __future__ import annotations

import functools
import os
import socket
from datetime import datetime, timedelta

from sqlalchemy import bindparam, or_, select, update
from sqlalchemy.orm import Session, defer

from mailref.store import Game, InboxMessage
from mailref.timeutil import utcnow

LEASE = timedelta(minutes=2)


def worker_id() -> str:
    """This process, as other processes see it in `claimed_by`."""
    return f"{socket.gethostname()}:{os.getpid()}"


def claim_mail(
    s: Session,
    who: str,
    ids: list[int] | None = None,
    limit: int | None = None,
    lease: timedelta = LEASE,
) -> list[int]:
    """Claim stored mail awaiting processing (IDS, or the oldest LIMIT) for the rest of this
    transaction; returns the ids claimed, in order. Mail another process holds is skipped."""
    now = utcnow()
    params = {"now": now, "who": who, "until": now + lease, "ids": ids, "limit": limit}
    return sorted(s.scalars(_claim(ids is not None, limit is not None), params))


@functools.cache
def _claim(by_ids: bool, limited: bool):
    """The claiming UPDATE, built once per shape: it runs for every batch."""
    free = select(InboxMessage.id).where(
        InboxMessage.status == "new",
        or_(
            InboxMessage.lease_until.is_(None),
            InboxMessage.lease_until < bindparam("now"),
            InboxMessage.claimed_by == bindparam("who"),
        ),
    )
    if by_ids:
        free = free.where(InboxMessage.id.in_(bindparam("ids", expanding=True)))
    free = free.order_by(InboxMessage.id)
    if limited:
        free = free.limit(bindparam("limit"))
    free = free.with_for_update(skip_locked=True)
    return (
        update(InboxMessage)
        .where(InboxMessage.id.in_(free.scalar_subquery()))
        .values(claimed_by=bindparam("who"), lease_until=bindparam("until"))
        .returning(InboxMessage.id)
        .execution_options(synchronize_session=False)
    )


def claim_one(s: Session, who: str, inbox_id: int) -> InboxMessage | None:
    """The stored mail INBOX_ID, claimed for this transaction, or None when it was processed
    meanwhile or another process holds it."""
    if not claim_mail(s, who, ids=[inbox_id]):
        return None
    return s.get(InboxMessage, inbox_id, populate_existing=True)


def claim_due_game(s: Session, slug: str, now: datetime) -> Game | None:
    """The game SLUG, locked for this transaction, if its deadline is due at NOW (game time);
    None when another process is firing it or already fired it (its next_wakeup moved on).
    The state change that fires the deadline also moves next_wakeup in the same transaction,
    so once committed no other process finds it due again. Its state is read when first
    used: the caller may hold it as last committed (referee/threads.py, take_held)."""
    return s.scalar(
        select(Game)
        .options(defer(Game.initial), defer(Game.state))
        .where(Game.slug == slug, Game.next_wakeup <= now)
        .with_for_update(skip_locked=True)
        .execution_options(populate_existing=True)
    )
