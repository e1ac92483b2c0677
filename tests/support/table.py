"""A host with one referee: players write over real SMTP, a relay counts what each address
receives."""

from __future__ import annotations

import collections
import email
import email.policy
import smtplib
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime

from mailref.config import SmtpOut
from support.delivery import Deliverer
from support.helpers import Clock, mail, make_referee
from support.joining import confirmation
from support.listener import listening
from support.ops import CountingSink


class Table:
    """A host with one referee: players write over SMTP, the relay counts what each receives."""

    def __init__(self, referee, port: int, sink: CountingSink, tmp_path):
        self.referee, self.port, self.sink = referee, port, sink
        self.deliverer = Deliverer(
            referee.store,
            "referee@ref.example",
            SmtpOut(host="127.0.0.1", port=sink.port),
            tmp_path / "md",
            "gm@ref.example",
        )

    def send(
        self, frm: str, to: str, subject: str, body: str = "", in_reply_to: str | None = None
    ) -> dict[str, list]:
        """FRM's command (a Reply to the mail IN_REPLY_TO names, if given); returns what each
        address received for it, delivered through the relay."""
        before = len(self.sink.mails)
        with smtplib.SMTP("127.0.0.1", self.port) as c:
            c.sendmail(frm, [to], mail(frm, to, subject, body, in_reply_to=in_reply_to))
        return self.deliver(before)

    def last_to(self, who: str, game: str) -> str:
        """The Message-ID of the newest mail GAME sent WHO: a Reply to it is WHO's own (the
        GM's [Deadline], SPEC §2.2)."""
        from support.helpers import Outbox

        sent = [m for m in Outbox(self.referee).to(who) if game in str(m["From"])]
        return str(sent[-1]["Message-ID"])

    def confirm(self, frm: str) -> dict[str, list]:
        """FRM's plain Reply to its join confirmation (SPEC §2.3), over SMTP; what each address
        received for it."""
        conf = confirmation(self.referee, frm)
        assert conf is not None, f"no confirmation was sent to {frm}"
        to = conf["From"].addresses[0].addr_spec
        reply = mail(frm, to, f"Re: {conf['Subject']}", "Yes.", in_reply_to=conf["Message-ID"])
        before = len(self.sink.mails)
        with smtplib.SMTP("127.0.0.1", self.port) as c:
            c.sendmail(frm, [to], reply)
        return self.deliver(before)

    def join(self, frm: str, to: str, body: str) -> dict[str, list]:
        """FRM's [Join] with BODY, then its Reply to the confirmation; what each address
        received for the Reply (the join's answer among it)."""
        self.send(frm, to, "[Join]", body)
        return self.confirm(frm)

    def deliver(self, before: int | None = None) -> dict[str, list]:
        before = len(self.sink.mails) if before is None else before
        while self.deliverer.deliver(self.referee.clock())[0]:
            pass
        got: dict[str, list] = collections.defaultdict(list)
        for rcpts, raw in self.sink.mails[before:]:
            for r in rcpts:
                got[r].append(email.message_from_bytes(raw, policy=email.policy.default))
        return got

    def one(self, got: dict[str, list], who: str, kind: str = "ack"):
        """WHO's only mail for the command, of KIND."""
        mails = got.get(who, [])
        assert [m["X-Mailref-Kind"] for m in mails] == [kind], [
            (m["X-Mailref-Kind"], m["Subject"]) for m in mails
        ]
        return mails[0]

    def reply(self, got: dict[str, list], who: str, kind: str = "ack"):
        """WHO's one reply to the command (SPEC §2.6), of KIND, beside any announcement."""
        replies = [m for m in got.get(who, []) if m["X-Mailref-Kind"] in _REPLIES]
        assert [m["X-Mailref-Kind"] for m in replies] == [kind], [
            (m["X-Mailref-Kind"], m["Subject"]) for m in got.get(who, [])
        ]
        return replies[0]

    @staticmethod
    def kinds(got: dict[str, list], who: str) -> list[str]:
        return sorted(m["X-Mailref-Kind"] for m in got.get(who, []))


_REPLIES = {"ack", "error", "help", "status"}


def text(msg) -> str:
    return msg.get_body(("plain",)).get_content()


@contextmanager
def table_at(
    tmp_path, url: str | None, start: datetime, kind: type[Table] = Table, **settings
) -> Iterator:
    """A Table (or KIND) whose referee runs on URL with its clock at START and SETTINGS,
    behind a real listener and a counting relay."""
    referee = make_referee(tmp_path, Clock(start), url=url, **settings)
    try:
        with listening(referee, 10_000_000) as port, CountingSink() as sink:
            yield kind(referee, port, sink, tmp_path)
    finally:
        referee.store.dispose()
