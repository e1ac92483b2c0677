"""Never talk to machines (SPEC §2.2): one test per rule, and bounces recorded."""

from __future__ import annotations

import smtplib

import pytest

from mailref.store import Bounce, InboxMessage
from support.helpers import Outbox, mail
from support.joining import confirm_waiting
from support.snapshots import play_once

pytestmark = pytest.mark.spec("2.2")

G = "nomes@ref.example"


@pytest.fixture
def game(request, referee):
    def opening() -> None:
        referee.create_game("nomes", "sidekick", G)
        referee.accept(mail("alice@x.org", G, "[Join]", "Name: Alice"))
        confirm_waiting(referee)

    play_once(request, referee, opening)
    return referee


def verdict(referee, stored) -> InboxMessage:
    with referee.store() as s:
        return s.get(InboxMessage, stored.id)


@pytest.mark.parametrize(
    "headers",
    [
        {"Auto-Submitted": "auto-replied"},
        {"auto-submitted": "auto-generated"},
        {"AUTO-SUBMITTED": "auto-notified"},
        {"Precedence": "bulk"},
        {"precedence": "junk"},
        {"Precedence": "list"},
        {"Precedence": "auto_reply"},
        {"X-Auto-Response-Suppress": "All"},
        {"x-auto-response-suppress": "OOF"},
        {"Return-Path": "<>"},
        {"X-Mailref-Loop": "referee@ref.example"},
        {"x-mailref-loop": "other@else"},
    ],
)
def test_machine_headers_get_no_reply(game, headers):
    before = len(Outbox(game).all())
    st = game.accept(mail("alice@x.org", G, "[Status]", headers=headers))
    row = verdict(game, st)
    assert row.status == "ignored" and row.verdict.startswith("machine:")
    assert len(Outbox(game).all()) == before


def test_auto_submitted_no_is_a_person(game):
    before = len(Outbox(game).all())
    game.accept(mail("alice@x.org", G, "[Status]", headers={"Auto-Submitted": "no"}))
    assert len(Outbox(game).all()) == before + 1


@pytest.mark.parametrize(
    "sender", ["MAILER-DAEMON@mx.example", "postmaster@mx.example", "referee@ref.example"]
)
def test_daemon_and_own_address_get_no_reply(game, sender):
    before = len(Outbox(game).all())
    st = game.accept(mail(sender, G, "[Help]"))
    assert verdict(game, st).status == "ignored"
    assert len(Outbox(game).all()) == before


DSN = b"""From: MAILER-DAEMON@mx.example\r
To: referee@ref.example\r
Subject: Undelivered Mail Returned to Sender\r
Message-ID: <dsn1@mx.example>\r
MIME-Version: 1.0\r
Content-Type: multipart/report; report-type=delivery-status; boundary="B"\r
\r
--B\r
Content-Type: text/plain\r
\r
I'm sorry to have to inform you that your message could not be delivered.\r
--B\r
Content-Type: message/delivery-status\r
\r
Reporting-MTA: dns; mx.example\r
\r
Final-Recipient: rfc822; alice@x.org\r
Original-Recipient: rfc822; alice@x.org\r
Action: failed\r
Status: 5.1.1\r
Diagnostic-Code: smtp; 550 5.1.1 user unknown\r
--B\r
Content-Type: message/rfc822\r
\r
From: referee@ref.example\r
Subject: [Turn 1]\r
\r
hi\r
--B--\r
"""


def test_bounce_is_recorded_against_the_player_and_shown_to_the_gm(game, clock):
    st = game.accept(DSN)
    row = verdict(game, st)
    assert row.status == "ignored" and "alice@x.org" in row.verdict
    with game.store() as s:
        (b,) = s.query(Bounce).all()
    assert (b.player, b.game_slug) == ("Alice", "nomes")
    out = Outbox(game)
    before = len(out.all())
    game.admin("nomes", {"type": "digest"}, "gm")
    digest = out.all()[before:]
    assert digest[0]["X-Mailref-Kind"] == "digest" and "alice@x.org (Alice)" in Outbox.body(
        digest[0]
    )


def test_reply_cap_per_sender_per_day_with_one_notice(tmp_path, clock):
    from support.helpers import make_referee

    r = make_referee(tmp_path, clock, replies_per_day=3)
    r.create_game("nomes", "sidekick", G)
    for _ in range(6):
        r.accept(mail("bob@x.org", G, "[Help]"))
    kinds = [m["X-Mailref-Kind"] for m in Outbox(r).all()]
    assert kinds == ["help", "help", "help", "error"]
    assert "3 replies" in Outbox.body(Outbox(r).all()[-1])
    clock.advance(days=1)
    r.accept(mail("bob@x.org", G, "[Help]"))  # the day's deadlines fire first (SPEC §2.1)
    assert [m["X-Mailref-Kind"] for m in Outbox(r).to("bob@x.org")][-1] == "help"
    assert len(Outbox(r).to("bob@x.org")) == 5


def test_everything_sent_carries_auto_submitted_and_loop_header(game):
    for m in Outbox(game).all():
        assert m["Auto-Submitted"] in ("auto-replied", "auto-generated")
        assert m["X-Mailref-Loop"] == "referee@ref.example"
        assert m["Message-ID"] and m["Date"] and m["X-Mailref-Kind"]


def test_header_injection_from_player_text_is_folded(game):
    game.accept(
        mail("alice@x.org", G, "[Proposal] x").replace(
            b"Subject: [Proposal] x",
            b"Subject: =?utf-8?q?=5BHelp=5D_a=0D=0ABcc=3A_victim=40x.org?=",
        )
    )
    for m in Outbox(game).all():
        assert "victim" not in str(m.get("Bcc", ""))


RETURNED = """From: Mail Delivery System <mail@relay.example>\r
To: alice@x.org\r
Subject: {subject}\r
Message-ID: <{mid}@relay.example>\r
MIME-Version: 1.0\r
Content-Type: multipart/mixed; boundary="B"\r
\r
--B\r
Content-Type: text/plain\r
\r
Your message could not be handed on.\r
--B\r
Content-Type: message/rfc822\r
\r
From: alice@x.org\r
To: nomes@ref.example\r
Subject: [Status]\r
\r
status please\r
--B--\r
"""


@pytest.mark.parametrize(
    "subject",
    [
        "=?utf-8?q?Delivery_failure?=",
        "=?UTF-8?B?RGVsaXZlcnkgZmFpbHVyZQ==?=",
        "=?iso-8859-1?q?Undeliverable=3A_=5BStatus=5D?=",
        "=?utf-8?q?Mail_delivery_failed=3A_returning_message_to_sender?=",
    ],
)
def test_an_rfc2047_encoded_bounce_subject_is_decoded_before_matching(game, subject):
    before = len(Outbox(game).all())
    st = game.accept(
        RETURNED.format(subject=subject, mid=abs(hash(subject))).encode(),
        "smtp",
        "mail@relay.example",
    )
    row = verdict(game, st)
    assert row.status == "ignored" and row.verdict.startswith("machine: bounce")
    assert len(Outbox(game).all()) == before


@pytest.mark.parametrize(
    "frm,to",
    [
        ("referee+bounces@ref.example", G),
        ("Referee+x@REF.example", G),
        ("alice@x.org", "referee+x@ref.example"),
    ],
)
def test_the_referees_own_address_with_a_tag_is_own_mail(game, frm, to):
    before = len(Outbox(game).all())
    st = game.accept(mail(frm, to, "[Help]"), "smtp", frm, [to])
    assert verdict(game, st).status == "ignored"
    assert len(Outbox(game).all()) == before


def test_the_referees_plain_address_still_answers_a_person(game):
    before = len(Outbox(game).all())
    game.accept(
        mail("bob@x.org", "referee@ref.example", "[Help]"),
        "smtp",
        "bob@x.org",
        ["referee@ref.example"],
    )
    assert len(Outbox(game).all()) == before + 1


def test_a_null_reverse_path_at_the_listener_is_machine_mail(game):
    from support.listener import listening

    with listening(game) as port:
        before = len(Outbox(game).all())
        with smtplib.SMTP("127.0.0.1", port) as c:
            c.sendmail("", [G], mail("alice@x.org", G, "[Status]"))  # MAIL FROM:<>
            c.sendmail("alice@x.org", [G], mail("alice@x.org", G, "[Status]"))
        with game.store() as s:
            null, person = s.query(InboxMessage).order_by(InboxMessage.id).all()[-2:]
        assert (null.mail_from, null.status, null.verdict) == (
            "<>",
            "ignored",
            "machine: null reverse-path (MAIL FROM:<>)",
        )
        assert person.status == "processed"
        assert len(Outbox(game).all()) == before + 1
