"""Every bad input is stored, gets a verdict and never stops the referee; a message whose
processing fails is quarantined, the GM alerted, and `reprocess` retries it once."""

from __future__ import annotations

import pytest

from mailref.store import InboxMessage
from support.helpers import Outbox, mail
from support.joining import confirm_waiting

pytestmark = pytest.mark.spec("2.1")

G = "nomes@ref.example"

MALFORMED = {
    "broken MIME": (
        b"From: a@x.org\r\nTo: nomes@ref.example\r\nSubject: [Help]\r\nContent-Type: "
        b'multipart/mixed; boundary="nope"\r\n\r\n--wrong\r\nhalf'
    ),
    "undecodable charset": (
        b"From: a@x.org\r\nSubject: [Help]\r\nContent-Type: text/plain; charset=x-klingon\r\n\r\n"
        b"\xff\xfe\xfa"
    ),
    "no From": b"To: nomes@ref.example\r\nSubject: [Help]\r\n\r\nhello",
    "no Message-ID": b"From: a@x.org\r\nTo: nomes@ref.example\r\nSubject: [Help]\r\n\r\nhello",
    "8-bit headers": b"From: J\xf6rg <j@x.org>\r\nSubject: [Help] \xe9\xe8\r\n\r\nhello",
    "NUL bytes": b"From: a@x.org\r\nSubject: [Vote] 1\r\n\r\nFOR\x00\x00",
    "1000+ byte lines": b"From: a@x.org\r\nSubject: [Help]\r\n\r\n" + b"x" * 5000,
    "truncated base64 part": (
        b"From: a@x.org\r\nSubject: [Help]\r\nContent-Transfer-Encoding: base64\r\n\r\nRk9"
    ),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_mail_is_kept_with_a_verdict(referee, name):
    referee.create_game("nomes", "sidekick", G)
    stored = referee.accept(MALFORMED[name], "smtp", "a@x.org", [G])
    with referee.store() as s:
        row = s.get(InboxMessage, stored.id)
        assert row.raw == MALFORMED[name]
        assert row.status in ("processed", "ignored") and row.verdict


def test_failure_is_quarantined_alerted_and_reprocessed(referee, monkeypatch):
    referee.create_game("nomes", "sidekick", G)
    referee.accept(mail("alice@x.org", G, "[Join]", "Name: Alice"))
    confirm_waiting(referee)
    from mailref.handlers import REGISTRY

    route = REGISTRY["status"]
    original = route.fn
    route.fn = lambda env, view: 1 / 0  # a bug in a handler
    try:
        stored = referee.accept(mail("alice@x.org", G, "[Status]"))
        assert stored.status == "failed"
        with referee.store() as s:
            row = s.get(InboxMessage, stored.id)
            assert row.status == "failed" and "ZeroDivisionError" in row.error
        alerts = [m for m in Outbox(referee).all() if m["X-Mailref-Kind"] == "alert"]
        assert (
            alerts
            and alerts[0]["To"] == "gm@ref.example"
            and f"reprocess {stored.id}" in Outbox.body(alerts[0])
        )
    finally:
        route.fn = original
    with referee.store() as s, s.begin():
        s.get(InboxMessage, stored.id).status = "new"  # what `mailref mail reprocess` does
    assert referee.process([stored.id]) == {stored.id: "processed"}
    assert referee.process([stored.id]) == {
        stored.id: "processed"
    }  # a second call does nothing more
    statuses = [m for m in Outbox(referee).all() if m["X-Mailref-Kind"] == "status"]
    assert len(statuses) == 1


def test_same_message_id_with_other_bytes_is_kept_not_processed(referee):
    referee.create_game("nomes", "sidekick", G)
    a = mail("alice@x.org", G, "[Help]", message_id="<same@x.org>")
    b = a.replace(b"Subject: [Help]", b"Received: by list.example\r\nSubject: [Help]")
    first, second = referee.accept(a), referee.accept(b)
    assert first.status == "processed" and second.status == "ignored"
    assert len(Outbox(referee).all()) == 1
