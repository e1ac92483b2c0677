"""SPEC §6: a daemon killed while it made the outbox Maildir (the folder made, not yet its
tmp/, new/ and cur/) leaves nothing undeliverable: the next delivery completes the Maildir."""

from __future__ import annotations

import pytest

from support.delivery import Deliverer
from support.helpers import mail
from support.joining import confirm_waiting

pytestmark = pytest.mark.spec("6")

G = "nomes@ref.example"


def test_a_maildir_left_half_made_is_completed_and_delivered_to(referee, clock, tmp_path):
    referee.create_game("nomes", "sidekick", G, name="Nomes")
    referee.accept(mail("alice@x.org", G, "[Join]", "Name: Alice"))
    confirm_waiting(referee)
    (tmp_path / "outbox").mkdir()  # as the killed process left it
    d = Deliverer(referee.store, "referee@ref.example", None, tmp_path / "outbox", "gm@ref.example")
    sent, failed = d.deliver(clock())
    assert sent and not failed
    assert len(list((tmp_path / "outbox" / "new").iterdir())) == sent
    assert {p.name for p in (tmp_path / "outbox").iterdir()} == {"tmp", "new", "cur"}
