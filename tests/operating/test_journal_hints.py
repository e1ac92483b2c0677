"""The journal says what to do about a quarantined mail and a refused reply."""

from __future__ import annotations

import pytest

from support.daemon_processes import G, Refusing
from support.helpers import mail
from support.joining import confirm_waiting

pytestmark = pytest.mark.spec("4.4")


def test_the_journal_says_what_to_do_about_a_quarantined_mail_and_a_refused_reply(referee, caplog):
    """Two lines an operator meets in the journal: "message #5 failed" with a traceback (kept?
    who was told? how to retry?) and "outbox #3 to x failed for good: 550 ..." (and now?). Each
    now says what happened and the command that acts on it."""
    import logging

    from aiosmtpd.controller import Controller

    from mailref.config import SmtpOut
    from mailref.handlers import REGISTRY
    from support.delivery import Deliverer
    from support.dovecot import free_port

    referee.create_game("nomes", "sidekick", G, gm="gm@ref.example")
    referee.accept(mail("alice@x.org", G, "[Join]", "Name: Alice"))
    confirm_waiting(referee)
    route = REGISTRY["status"]
    original, route.fn = route.fn, lambda env, view: 1 / 0  # a bug in a handler
    try:
        with caplog.at_level(logging.INFO, logger="mailref"):
            stored = referee.accept(mail("alice@x.org", G, "[Status]"))
    finally:
        route.fn = original
    said = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
    assert len(said) == 1 and f"message #{stored.id} from alice@x.org quarantined" in said[0], said
    assert "ZeroDivisionError" in said[0] and f"mailref mail reprocess {stored.id}" in said[0], said

    ctl = Controller(Refusing(), hostname="127.0.0.1", port=free_port())
    ctl.start()
    caplog.clear()
    try:
        d = Deliverer(
            referee.store,
            "referee@ref.example",
            SmtpOut(host="127.0.0.1", port=ctl.port),
            "unused",
            "gm@ref.example",
        )
        with caplog.at_level(logging.INFO, logger="mailref"):
            d.deliver(referee.clock())
    finally:
        ctl.stop()
    failed = [r.getMessage() for r in caplog.records if "failed for good" in r.getMessage()]
    assert failed and all(
        "550 5.1.1" in line and "`mailref outbox retry " in line for line in failed
    ), failed
