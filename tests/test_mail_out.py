"""Outgoing mail conforms (SPEC §4.3): what compose writes passes a standard relay, and the
suite-wide relay check (tests/relay.py) catches what would not."""

from __future__ import annotations

import email
import email.policy
from datetime import UTC, datetime

from relay import conformance

from mailref.mail.compose import compose, wire

NOW = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)


def _mail(**kw) -> bytes:
    args = {"sender": "Nomes <nomes@ref.example>", "to": "alice@x.org", "subject": "[Nomes] Turn order",
            "body": "Ünïcode — and a line " + "x" * 3000 + "\n", "kind": "announcement", "game": "nomes", "now": NOW}
    return wire(compose(**{**args, **kw}))


def test_long_unicode_lines_are_quoted_printable_and_short():
    raw = _mail()
    assert conformance(raw) == []
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    assert msg["Content-Transfer-Encoding"] == "quoted-printable"
    assert msg["MIME-Version"] == "1.0" and msg["Date"] and msg["Message-ID"]
    assert "x" * 3000 in msg.get_content() and "Ünïcode" in msg.get_content()


def test_an_inline_svg_in_html_and_attachments_conform():
    svg = '<svg xmlns="http://www.w3.org/2000/svg">' + "<text>Donal</text>" * 500 + "</svg>"
    raw = _mail(html="<html><body>" + svg + "</body></html>",
                attachments=[("map.svg", "image/svg+xml", svg.encode()), ("map.png", "image/png", bytes(range(256)) * 20)])
    assert conformance(raw) == []
    assert raw.count(b"MIME-Version") == 1


def test_the_relay_check_refuses_what_a_relay_refuses(relay):
    bad = (b"From: a@x.org\r\nTo: b@x.org\r\nSubject: x\r\nDate: Tue, 1 Dec 2026 10:00:00 +0000\r\n"
           b"Message-ID: <1@x.org>\r\nMIME-Version: 1.0\r\nContent-Type: text/html\r\n\r\n" + b"<p>" * 700 + b"\r\n")
    problems = relay.check([("bad", bad)])
    assert any("line 9 is 2100 octets" in p for p in problems)
    assert any("500" in p and "Line too long" in p for p in problems)
    assert relay.check([("good", _mail())]) == []


def test_the_relay_check_refuses_8bit_without_encoding_and_missing_headers():
    raw = "From: a@x.org\r\nTo: b@x.org\r\nSubject: x\r\n\r\nGrüße\r\n".encode()
    problems = conformance(raw)
    assert any("no Date" in p for p in problems) and any("no Message-ID" in p for p in problems)
    assert any("8-bit text" in p for p in problems)
    assert any("bare LF" in p for p in conformance(raw.replace(b"\r\n", b"\n")))
