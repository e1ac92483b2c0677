"""Hostile senders through real SMTP sessions: a sidekick game of Alice and Bob."""

from __future__ import annotations

from contextlib import contextmanager

import pytest

from support.helpers import mail
from support.joining import confirm
from support.listener import listening, submit
from support.snapshots import play_once

G = "nomes@ref.example"


ALICE, BOB = "alice@example.org", "bob@example.org"


@contextmanager
def smtp_to(referee):
    with listening(referee, 10_000_000) as port:
        yield lambda message, mail_from, rcpt=G: submit(port, mail_from, [rcpt], message)


@pytest.fixture
def game(request, referee, smtp):
    def opening() -> None:
        referee.create_game("nomes", "sidekick", G, gm="gm@ref.example")
        for name, a in (("Alice", ALICE), ("Bob", BOB)):
            smtp(mail(a, G, "[Join]", f"Name: {name}"), a)
            confirm(referee, a)

    play_once(request, referee, opening)
    return referee


def mover(referee) -> tuple[str, str]:
    name = referee.state("nomes")["turn"]["player"]
    return name, {"Alice": ALICE, "Bob": BOB}[name]


DELAYED = """From: MAILER-DAEMON@mx.example.org (Mail Delivery System)
To: referee@ref.example
Subject: Delayed Mail (still being retried)
Message-ID: <delay-{n}@mx.example.org>
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status; boundary="B"

--B
Content-Type: text/plain

This is a warning only. You do not need to resend your message.
<bob@example.org>: connect to mx.example.org: Connection timed out

--B
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.example.org

Final-Recipient: rfc822; bob@example.org
Action: {action}
Status: {status}

--B--
"""
