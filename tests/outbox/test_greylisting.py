"""A greylisted mail finally delivered says so in the log."""

from __future__ import annotations

import pytest

from support.helpers import mail
from support.outside_smtp import ALICE, NOMES, Greylisting

pytestmark = pytest.mark.spec("4.3")


def test_a_greylisted_mail_finally_delivered_says_so_in_the_log(referee, clock, caplog):
    """An operator reading "not delivered (attempt 1): ... 451 ... Greylisted" wants the matching
    end: one INFO line "delivered after 2 tries" when the relay takes it; a mail taken at once
    has no such line."""
    import logging

    from aiosmtpd.controller import Controller

    from mailref.config import SmtpOut
    from support.delivery import Deliverer
    from support.dovecot import free_port

    referee.create_game("nomes", "sidekick", NOMES, name="Nomes")
    referee.accept(mail(ALICE, NOMES, "[Help]"), "smtp")
    relay = Greylisting()
    ctl = Controller(relay, hostname="127.0.0.1", port=free_port())
    ctl.start()
    try:
        d = Deliverer(
            referee.store,
            "referee@ref.example",
            SmtpOut(host="127.0.0.1", port=ctl.port),
            "unused",
            "gm@ref.example",
        )
        with caplog.at_level(logging.INFO, logger="mailref.outbox"):
            assert d.deliver(clock()) == (0, 1)
            clock.advance(minutes=1)
            assert d.deliver(clock()) == (1, 0)
            referee.accept(
                mail(ALICE, NOMES, "[Status]"), "smtp"
            )  # the relay knows Alice now: taken at once
            assert d.deliver(clock()) == (1, 0)
    finally:
        ctl.stop()
    assert relay.got == [[ALICE], [ALICE]]
    lines = [r.getMessage() for r in caplog.records if r.name == "mailref.outbox"]
    deferred = [ln for ln in lines if "not delivered (attempt 1)" in ln]
    assert len(deferred) == 1 and "Greylisted" in deferred[0], lines
    row = deferred[0].split()[1]  # "#1"
    assert [ln for ln in lines if "delivered after" in ln] == [
        f"outbox {row} to {ALICE} delivered after 2 tries"
    ], lines
    assert [r.levelname for r in caplog.records if "delivered after" in r.getMessage()] == ["INFO"]
