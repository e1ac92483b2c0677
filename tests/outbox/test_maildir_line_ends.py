"""SPEC §4.3: the outbox Maildir holds files with LF line endings, as Maildir readers (mutt)
expect; the relay path keeps the wire's CRLF."""

from __future__ import annotations

import pytest

from mailref.store import OutboxMessage
from support.delivery import Deliverer
from support.helpers import mail
from support.joining import confirm_waiting

pytestmark = pytest.mark.spec("4.3")

G = "nomes@ref.example"


def test_the_outbox_maildir_holds_no_cr(referee, clock, tmp_path):
    referee.create_game("nomes", "sidekick", G, name="Nomes")
    referee.accept(mail("alice@x.org", G, "[Join]", "Name: Alice"))
    confirm_waiting(referee)
    referee.accept(mail("bob@x.org", G, "[Join]", "Name: Bob"))
    confirm_waiting(referee)
    with referee.store() as s:
        queued = [bytes(r.raw) for r in s.query(OutboxMessage)]
    assert queued and all(b"\r\n" in raw for raw in queued)  # the wire form, for a relay
    d = Deliverer(referee.store, "referee@ref.example", None, tmp_path / "outbox", "gm@ref.example")
    assert d.deliver(clock())[0] == len(queued)
    files = [p for p in (tmp_path / "outbox" / "new").iterdir()]
    assert len(files) == len(queued)
    for p in files:
        raw = p.read_bytes()
        assert b"\r" not in raw and b"\nX-Mailref-Kind: " in raw
