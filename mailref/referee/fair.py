"""Fair time (SPEC §2.1): which stored mail is processed next, and when a deadline may fire.

A mail counts at its time of receipt (`received_at`: the listener's 250, the IMAP server's
INTERNALDATE), so mail and deadlines are taken in the order of time: a deadline fires only
once no mail received before it awaits processing, and a mail received after a deadline that
is due waits until that deadline has fired. Among the mail awaiting, each sender is served in
turn by the bytes they sent (fair queuing): a mail's place is the sum of its sender's mail up
to it, so one small mail comes before a stranger's thirtieth large one, and thirty senders of
one large mail each do not hold up a small one either (docs/decisions/fair-time.md)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, literal, or_, select
from sqlalchemy.orm import Session

from mailref.store import Game, InboxMessage, Store

# A mail's cost beyond its bytes: reading, routing and answering even a tiny one costs about
# as much as this many bytes of reading.
PER_MAIL = 16 * 1024
# A mail larger than this is processed in a batch of its own: a batch's answers go once all of
# it is done, and reading a large mail takes a while.
ALONE = 1024 * 1024


def pending(
    store: Store, who: str, now: datetime, limit: int, budget: int, skip: set[int]
) -> list[int]:
    """The next stored mails awaiting processing that no other process holds (NOW is the wall
    clock of the leases), fairly among senders: at most LIMIT of them and BUDGET bytes of raw
    mail (at least one); none of SKIP."""
    # The sender is the From and the envelope's sender together: a backlog forged From a
    # player, sent by another envelope, is a queue of its own and never puts hers last.
    sender = (
        func.coalesce(func.lower(InboxMessage.sender), literal(""))
        .concat(literal(" "))
        .concat(func.coalesce(InboxMessage.mail_from, literal("")))
    )
    queued = (
        func.sum(InboxMessage.size + PER_MAIL)
        .over(partition_by=sender, order_by=InboxMessage.id, rows=(None, 0))
        .label("queued")
    )
    waiting = select(InboxMessage.id, InboxMessage.size, queued).where(
        InboxMessage.status == "new",
        or_(
            InboxMessage.lease_until.is_(None),
            InboxMessage.lease_until < now,
            InboxMessage.claimed_by == who,
        ),
    )
    if skip:
        waiting = waiting.where(InboxMessage.id.not_in(sorted(skip)))
    fair = waiting.subquery()
    with store() as s:
        rows = s.execute(
            select(fair.c.id, fair.c.size).order_by(fair.c.queued, fair.c.id).limit(limit)
        ).all()
    ids: list[int] = []
    total, large = 0, False
    for i, size in rows:
        size = size or 0
        # A large mail is a batch of its own: no answer waits for it.
        if ids and (large or size > ALONE or total + size > budget):
            break
        ids.append(i)
        total, large = total + size, size > ALONE
    return ids


def due(s: Session, now: datetime) -> list[tuple[str, datetime]]:
    """The games whose next wakeup has come by NOW, with it, the earliest first."""
    return [
        (slug, at)
        for slug, at in s.execute(
            select(Game.slug, Game.next_wakeup)
            .where(Game.next_wakeup <= now)
            .order_by(Game.next_wakeup, Game.slug)
        ).tuples()
        if at is not None  # never: the query asks for a wakeup by now
    ]


def received(s: Session, ids: list[int]) -> dict[int, datetime]:
    """When each of the stored mails IDS was received."""
    return dict(
        s.execute(select(InboxMessage.id, InboxMessage.received_at).where(InboxMessage.id.in_(ids)))
        .tuples()
        .all()
    )


def first_waiting(s: Session) -> datetime | None:
    """When the first mail still awaiting processing was received, or None."""
    return s.scalar(select(func.min(InboxMessage.received_at)).where(InboxMessage.status == "new"))
