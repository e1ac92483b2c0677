"""A quarantined mail alerts its game's GM, naming the game."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, mail
from support.host_fixture import NOMES
from support.joining import confirm_waiting

pytestmark = pytest.mark.spec("2.1")


def test_a_quarantined_mail_alerts_its_games_gm_naming_the_game(referee, monkeypatch):
    """SPEC §2.1: a mail whose processing fails is quarantined and the GM is alerted: the GM of
    its game (not only the admin), in a subject that names the game (§2.6)."""
    from mailref.handlers import REGISTRY

    referee.create_game("nomes", "sidekick", NOMES, name="Nomes", gm="master@x.org")
    referee.accept(mail("alice@x.org", NOMES, "[Join]", "Name: Alice"), "smtp")
    confirm_waiting(referee)
    monkeypatch.setattr(REGISTRY["status"], "fn", lambda env, view: 1 / 0)  # a bug in a handler
    stored = referee.accept(mail("alice@x.org", NOMES, "[Status]"), "smtp")
    assert stored.status == "failed"
    (alert,) = [m for m in Outbox(referee).all() if m["X-Mailref-Kind"] == "alert"]
    assert alert["To"] == "master@x.org" and alert["X-Mailref-Game"] == "nomes"
    assert str(alert["Subject"]) == f"[Nomes] Alert: message #{stored.id} quarantined"
