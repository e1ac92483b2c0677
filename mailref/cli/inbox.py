"""The inbox at the command line: every mail received, listed, shown raw, processed again."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from mailref.cli.acting import deliver
from mailref.cli.output import cut, print_json, table
from mailref.engine.context import Refused
from mailref.safe import printable
from mailref.timeutil import iso

if TYPE_CHECKING:
    from mailref.referee import Referee
    from mailref.store import InboxMessage, OutboxMessage


def newest(
    referee: Referee, model: type[InboxMessage | OutboxMessage], args: argparse.Namespace
) -> tuple[list[Any], int | None]:
    """The newest rows of the inbox or outbox table, optionally of one status, without their
    raw bytes: a listing shows none, and 50 mails of 10 MB would take it to 600 MB. With them,
    how many rows match in all when --limit left some out (else None)."""
    from sqlalchemy import func, select
    from sqlalchemy.orm import defer

    with referee.store() as s:
        q = select(model).options(defer(model.raw)).order_by(model.id.desc())
        count = select(func.count()).select_from(model)
        if args.status:
            q = q.where(model.status == args.status)
            count = count.where(model.status == args.status)
        rows = list(s.scalars(q.limit(args.limit + 1)))
        if len(rows) <= args.limit:
            return rows, None
        return rows[: args.limit], s.scalar(count)


def say_left_out(shown: int, total: int | None, args: argparse.Namespace) -> None:
    """A listing cut by --limit says so, and how to see more (on stderr beside --json)."""
    if total is None:
        return
    what = f"{args.status} " if args.status else ""
    line = (
        f"(the newest {shown} of {total} {what}rows; --limit {total} lists them all)"
        if shown
        else f"({total} {what}rows; --limit N lists N of them)"
    )
    print(line, file=sys.stderr if args.json else sys.stdout)


def cmd_mail_list(referee: Referee, args: argparse.Namespace, who: str) -> int:
    from mailref.store import InboxMessage

    found, total = newest(referee, InboxMessage, args)
    mails = [
        {
            "id": m.id,
            "status": m.status,
            "received_at": iso(m.received_at),
            "game": m.game_slug,
            "sender": m.sender or m.mail_from,
            "subject": m.subject,
            "verdict": m.verdict,
        }
        for m in found
    ]
    if args.json:
        print_json(mails)
        say_left_out(len(mails), total, args)
        return 0
    table(
        ["ID", "STATUS", "RECEIVED", "GAME", "SENDER", "SUBJECT", "VERDICT"],
        [
            [
                f"#{m['id']}",
                m["status"],
                m["received_at"],
                m["game"] or "-",
                m["sender"] or "-",
                cut(m["subject"], 50),
                cut(m["verdict"], 80),
            ]
            for m in mails
        ],
    )
    say_left_out(len(mails), total, args)
    return 0


def cmd_mail_show(referee: Referee, args: argparse.Namespace, who: str) -> int:
    from mailref.store import InboxMessage

    with referee.store() as s:
        m = s.get(InboxMessage, args.id)
        if m is None:
            raise Refused("no_message", id=args.id)
        for k in (
            "id",
            "status",
            "source",
            "message_id",
            "sender",
            "subject",
            "game_slug",
            "attempts",
            "verdict",
            "error",
        ):
            print(printable(f"{k}: {getattr(m, k)}", keep_newlines=k == "error"))
        print(f"received_at: {iso(m.received_at)}\nsize: {m.size}\n")
        print(printable(m.raw.decode("utf-8", "replace").replace("\r\n", "\n"), keep_newlines=True))
    return 0


def cmd_mail_reprocess(referee: Referee, args: argparse.Namespace, who: str) -> int:
    from mailref.store import InboxMessage

    with referee.store() as s, s.begin():
        m = s.get(InboxMessage, args.id)
        if m is None:
            raise Refused("no_message", id=args.id)
        if m.status not in ("failed", "new"):
            raise Refused("message_not_failed", id=args.id, status=m.status)
        m.status, m.error = "new", ""
    status = referee.process([args.id])[args.id]
    print(f"message #{args.id}: {status}")
    deliver(referee, args)
    return 0 if status != "failed" else 1
