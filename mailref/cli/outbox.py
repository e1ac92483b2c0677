"""The outbox at the command line: every mail sent or waiting, listed, sent again now or
given up."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from mailref.cli.acting import deliver
from mailref.cli.inbox import newest, say_left_out
from mailref.cli.output import cut, print_json, table
from mailref.engine.context import Refused
from mailref.safe import printable
from mailref.timeutil import iso, utcnow

if TYPE_CHECKING:
    from datetime import datetime

    from mailref.referee import Referee
    from mailref.store import OutboxMessage


def cmd_outbox_list(referee: Referee, args: argparse.Namespace, who: str) -> int:
    from mailref.store import OutboxMessage

    found, total = newest(referee, OutboxMessage, args)
    rows = [
        {
            "id": m.id,
            "status": m.status,
            "kind": m.kind,
            "game": m.game_slug,
            "recipients": m.recipients,
            "subject": m.subject,
            "attempts": m.attempts,
            "created_at": iso(m.created_at),
            "sent_at": iso(m.sent_at) if m.sent_at else None,
            "last_error": m.last_error,
            "claimed_by": m.claimed_by,
            "dropped_by": m.dropped_by,
            "drop_reason": m.drop_reason or None,
        }
        for m in found
    ]
    if args.json:
        print_json(rows)
        say_left_out(len(rows), total, args)
        return 0
    table(
        ["ID", "STATUS", "KIND", "TO", "ATTEMPTS", "SUBJECT", "LAST ERROR"],
        [
            [
                f"#{m['id']}",
                m["status"],
                m["kind"],
                ",".join(m["recipients"]),
                m["attempts"],
                cut(m["subject"], 50),
                cut(
                    m["last_error"]
                    or (
                        f"dropped by {m['dropped_by']}: {m['drop_reason'] or ''}"
                        if m["dropped_by"]
                        else ""
                    ),
                    60,
                ),
            ]
            for m in rows
        ],
    )
    say_left_out(len(rows), total, args)
    return 0


def cmd_outbox_retry(referee: Referee, args: argparse.Namespace, who: str) -> int:
    from sqlalchemy import select

    from mailref.store import OutboxMessage

    now = utcnow()
    with referee.store() as s, s.begin():
        if args.id is not None:
            r = s.get(OutboxMessage, args.id)
            if r is None:
                raise Refused("no_outgoing", id=args.id)
            if r.status in ("sent", "dropped"):
                raise Refused("outgoing_not_resent", id=args.id, status=r.status)
            if _held(r, now):
                raise Refused("outgoing_being_sent", id=args.id, by=r.claimed_by)
            if r.status == "sending":  # claimed by a process of this host that is gone
                r.status, r.claimed_by, r.lease_until = "queued", None, None
            rows = [r]
        else:
            # Failed and waiting rows; never one another process has claimed.
            rows = list(
                s.scalars(
                    select(OutboxMessage).where(OutboxMessage.status.in_(("queued", "failed")))
                )
            )
        for r in rows:
            if r.status != "sending":
                r.status, r.next_attempt_at = "queued", now
    # A batch at a time until the relay fails or nothing is left, so the count said covers
    # every row queued, not only the first batch's.
    sent = failed = 0
    while True:
        batch_sent, batch_failed = deliver(referee, args, args.id)
        sent, failed = sent + batch_sent, failed + batch_failed
        if args.id is not None or batch_failed or not batch_sent:
            break
    said = f"{len(rows)} queued for retry; {sent} delivered now"
    if failed:
        said += f"; {failed} failed again and wait for their next attempt (with back-off)"
    if len(rows) - sent - failed > 0:
        said += f"; {len(rows) - sent - failed} left for the daemon"
    print(said)
    return 0


def cmd_outbox_drop(referee: Referee, args: argparse.Namespace, who: str) -> int:
    from mailref.store import OutboxMessage

    now = utcnow()
    with referee.store() as s, s.begin():
        r = s.get(OutboxMessage, args.id)
        if r is None:
            raise Refused("no_outgoing", id=args.id)
        if r.status in ("sent", "dropped"):
            raise Refused("outgoing_done_already", id=args.id, status=r.status)
        if _held(r, now):
            raise Refused("outgoing_being_sent_try_later", id=args.id, by=r.claimed_by)
        r.status, r.dropped_by, r.dropped_at, r.drop_reason = "dropped", who, now, args.reason or ""
        r.claimed_by = r.lease_until = None
    print(
        printable(
            f"outgoing message #{args.id} dropped by {who}"
            + (f": {args.reason}" if args.reason else "")
        )
    )
    return 0


def _held(row: OutboxMessage, now: datetime) -> bool:
    """Whether ROW is claimed by a process that may be sending it: its lease runs, and its
    claimant is not a process of this host that is gone (store/dead_claims.py)."""
    from mailref.store.dead_claims import process_gone

    return bool(
        row.status == "sending"
        and row.lease_until
        and row.lease_until > now
        and not process_gone(row.claimed_by or "")
    )
