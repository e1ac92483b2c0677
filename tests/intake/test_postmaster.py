"""Postmaster (RFC 5321 §4.5.1): the listener takes mail to `postmaster`, with no domain or a
domain it receives for, and the admin is told who wrote and what; nothing goes back to the
sender, a machine's mail to postmaster is only kept, and a game with one address still gets
only its own mail."""

from __future__ import annotations

import smtplib

import pytest

from support.helpers import Outbox, mail
from support.listener import kept, listener_of_game

pytestmark = pytest.mark.spec("2.2")

G = "nomes@ref.example"
H = "hex@games.example"


listener = pytest.fixture(listener_of_game)


@pytest.mark.parametrize(
    "rcpt", ["postmaster", "Postmaster", "POSTMASTER@ref.example", "postmaster@REF.example"]
)
def test_postmaster_is_taken_and_the_admin_is_told_who_wrote_and_what(referee, listener, rcpt):
    raw = mail(
        "dana@isp.example",
        rcpt if "@" in rcpt else "postmaster@ref.example",
        "Your server sent me mail",
        "Hello, I never joined any game.\nPlease stop.\n\nDana",
    )
    with smtplib.SMTP("127.0.0.1", listener) as c:
        assert c.sendmail("dana@isp.example", [rcpt], raw) == {}
    (row,) = kept(referee)
    assert row.status == "processed" and row.verdict == "postmaster: passed to the admin"
    (alert,) = Outbox(referee).all()
    assert alert["To"] == "gm@ref.example" and alert["X-Mailref-Kind"] == "alert"
    assert "dana@isp.example" in alert["Subject"]
    body = Outbox.body(alert)
    assert "Your server sent me mail" in body and "I never joined any game." in body
    assert f"mailref mail show {row.id}" in body


def test_postmaster_of_a_domain_we_do_not_receive_for_is_refused(referee, listener):
    with smtplib.SMTP("127.0.0.1", listener) as c:
        refused = c.sendmail(
            "dana@isp.example",
            [G, "postmaster@elsewhere.example"],
            mail("dana@isp.example", G, "[Help]"),
        )
    assert (
        list(refused) == ["postmaster@elsewhere.example"]
        and refused["postmaster@elsewhere.example"][0] == 550
    )


def test_postmaster_of_a_games_domain_is_taken(referee, listener):
    referee.create_game("hex", "sidekick", H)
    with smtplib.SMTP("127.0.0.1", listener) as c:
        assert (
            c.sendmail(
                "dana@isp.example",
                ["postmaster@games.example"],
                mail("dana@isp.example", "postmaster@games.example", "Hello"),
            )
            == {}
        )
    assert [m["X-Mailref-Kind"] for m in Outbox(referee).all()] == ["alert"]


def test_a_bounce_to_postmaster_is_only_kept(referee, listener):
    raw = mail(
        "MAILER-DAEMON@isp.example",
        "postmaster@ref.example",
        "Undelivered Mail Returned to Sender",
        "This is the mail system at host isp.example.",
    )
    with smtplib.SMTP("127.0.0.1", listener) as c:
        c.sendmail("", ["postmaster"], raw)
    (row,) = kept(referee)
    assert row.status == "ignored" and Outbox(referee).all() == []


def test_mail_to_a_game_with_postmaster_in_copy_is_the_games(referee, listener):
    raw = mail("alice@x.org", G, "[Help]")
    with smtplib.SMTP("127.0.0.1", listener) as c:
        c.sendmail("alice@x.org", [G, "postmaster"], raw)
    assert [(m["To"], m["X-Mailref-Kind"]) for m in Outbox(referee).all()] == [
        ("alice@x.org", "help")
    ]


def test_one_sender_reaches_the_admin_only_the_days_allowance(referee, listener):
    with smtplib.SMTP("127.0.0.1", listener) as c:
        for n in range(23):
            c.sendmail(
                "spam@isp.example",
                ["postmaster"],
                mail("spam@isp.example", "postmaster", f"Offer {n}"),
            )
    assert len(Outbox(referee).all()) == 20  # replies_per_sender_per_day
    assert (
        sum(
            r.verdict == "postmaster: over the day's allowance, not passed on"
            for r in kept(referee)
        )
        == 3
    )
