"""Mail out (SPEC §4.3): a down relay delays and never loses; nothing is sent twice."""

from __future__ import annotations

import mailbox
from datetime import timedelta

import pytest
from aiosmtpd.controller import Controller

from mailref.config import SmtpOut
from mailref.store import OutboxMessage
from support.delivery import Deliverer
from support.dovecot import free_port
from support.helpers import mail

pytestmark = pytest.mark.spec("4.3")

G = "nomes@ref.example"


class Sink:
    def __init__(self):
        self.got = []

    async def handle_DATA(self, server, session, envelope):
        self.got.append((envelope.rcpt_tos, envelope.content))
        return "250 OK"


def queued(referee):
    with referee.store() as s:
        return {r.status for r in s.query(OutboxMessage)}


def test_relay_down_retries_later_then_delivers_once(referee, clock):
    referee.create_game("nomes", "sidekick", G)
    referee.accept(mail("alice@x.org", G, "[Help]"))
    port = free_port()  # nothing listens here yet
    d = Deliverer(
        referee.store,
        "referee@ref.example",
        SmtpOut(host="127.0.0.1", port=port),
        "unused",
        "gm@ref.example",
    )
    assert d.deliver(clock()) == (0, 1)
    assert queued(referee) == {"queued"}
    assert d.deliver(clock()) == (0, 0)  # backing off: not due yet
    sink = Sink()
    ctl = Controller(sink, hostname="127.0.0.1", port=port)
    ctl.start()
    try:
        clock.advance(minutes=1)
        assert d.deliver(clock()) == (1, 0)
        assert d.deliver(clock() + timedelta(hours=1)) == (0, 0)
    finally:
        ctl.stop()
    assert len(sink.got) == 1 and sink.got[0][0] == ["alice@x.org"]
    assert queued(referee) == {"sent"}


def test_two_days_undelivered_alerts_the_gm_once(referee, clock):
    referee.create_game("nomes", "sidekick", G)
    referee.accept(mail("alice@x.org", G, "[Help]"))
    d = Deliverer(
        referee.store,
        "referee@ref.example",
        SmtpOut(host="127.0.0.1", port=free_port()),
        "x",
        "gm@ref.example",
    )
    for _ in range(3):
        clock.advance(days=1)
        d.deliver(clock())
    with referee.store() as s:
        alerts = s.query(OutboxMessage).filter_by(kind="alert").all()
    assert len(alerts) == 1 and alerts[0].recipients == ["gm@ref.example"]


def test_maildir_when_no_relay(referee, clock, tmp_path):
    referee.create_game("nomes", "sidekick", G)
    referee.accept(mail("alice@x.org", G, "[Help]"))
    d = Deliverer(referee.store, "referee@ref.example", None, tmp_path / "outbox", "gm@ref.example")
    assert d.deliver(clock()) == (1, 0)
    assert d.deliver(clock()) == (0, 0)
    msgs = list(mailbox.Maildir(str(tmp_path / "outbox")))
    assert len(msgs) == 1 and msgs[0]["X-Mailref-Kind"] == "help"
