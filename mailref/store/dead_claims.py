"""Claims of the dead (SPEC §4.3): outgoing rows and stored mail claimed by a process of this
host whose PID is gone are taken back at start, at once, instead of waiting out their lease.
A live process's claim, and another host's (its PIDs cannot be asked), wait for the lease.
Rows a dead process said it had delivered but could not mark (DELIVERED) are marked sent."""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from sqlalchemy import select, update

from mailref.store.database import Store
from mailref.store.models import InboxMessage, OutboxMessage


def process_gone(claimant: str, host: str | None = None, me: int | None = None) -> bool:
    """Whether CLAIMANT ("host:pid") names a process of this host that no longer runs. A claim
    under this process's own PID was made before it started (a container's daemon is PID 1
    each time), so it is a dead one's too."""
    where, _, pid = claimant.rpartition(":")
    if where != (host or socket.gethostname()) or not pid.isdigit():
        return False
    number = int(pid)
    if number == (me or os.getpid()):
        return True
    try:
        os.kill(number, 0)
    except ProcessLookupError:
        return True
    except OSError:  # PermissionError: another user's process runs under that PID
        return False
    try:  # killed and not yet reaped by its parent: it holds nothing any more
        return Path(f"/proc/{number}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except (OSError, IndexError):
        return False


@dataclass
class TakenBack:
    """What a start took back: claimants gone, rows queued again, mail freed, rows marked."""

    dead: list[str] = field(default_factory=list)
    outbox: int = 0
    inbox: int = 0
    marked: int = 0

    def line(self) -> str:
        """The one line a start says about it."""
        parts = []
        if self.outbox:
            parts.append(f"{self.outbox} outgoing row(s), sent now")
        if self.inbox:
            parts.append(f"{self.inbox} stored mail(s), processed now")
        if self.marked:
            parts.append(f"{self.marked} row(s) it had delivered, marked sent")
        return (
            f"took back the claims of {', '.join(self.dead)} (no such process on this host): "
            + "; ".join(parts)
        )


def take_back(
    store: Store,
    now: datetime,
    delivered: dict[str, list[int]] | None = None,
    host: str | None = None,
    me: int | None = None,
) -> TakenBack:
    """Free every claim of a dead process of this host, in one transaction. DELIVERED: per
    claimant, rows it had delivered without recording so (the outbox's note): marked sent."""
    delivered = delivered or {}
    with store() as s, s.begin():
        claimants = set(
            s.scalars(
                select(OutboxMessage.claimed_by)
                .where(OutboxMessage.status == "sending", OutboxMessage.claimed_by.is_not(None))
                .distinct()
            )
        ) | set(
            s.scalars(
                select(InboxMessage.claimed_by)
                .where(InboxMessage.status == "new", InboxMessage.lease_until.is_not(None))
                .distinct()
            )
        )
        done = TakenBack(
            dead=sorted(c for c in claimants if c is not None and process_gone(c, host, me))
        )
        if not done.dead:
            return done
        for who in done.dead:
            if delivered.get(who):
                done.marked += s.execute(
                    update(OutboxMessage)
                    .where(
                        OutboxMessage.id.in_(delivered[who]),
                        OutboxMessage.claimed_by == who,
                        OutboxMessage.status == "sending",
                    )
                    .values(
                        status="sent",
                        sent_at=now,
                        last_error="",
                        attempts=OutboxMessage.attempts + 1,
                        claimed_by=None,
                        lease_until=None,
                    )
                    .execution_options(synchronize_session=False)
                ).rowcount
        done.outbox = s.execute(
            update(OutboxMessage)
            .where(OutboxMessage.claimed_by.in_(done.dead), OutboxMessage.status == "sending")
            .values(status="queued", claimed_by=None, lease_until=None, next_attempt_at=now)
            .execution_options(synchronize_session=False)
        ).rowcount
        done.inbox = s.execute(
            update(InboxMessage)
            .where(InboxMessage.claimed_by.in_(done.dead), InboxMessage.status == "new")
            .values(claimed_by=None, lease_until=None)
            .execution_options(synchronize_session=False)
        ).rowcount
    return done
