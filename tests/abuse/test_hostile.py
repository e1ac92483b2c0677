"""Hostile mail through real SMTP sessions: a stranger forging From, taking over a
name, look-alike names and addresses, mail built to make the reading slow."""

from __future__ import annotations

import time

import pytest

from mailref.store import InboxMessage, OutboxMessage
from support.helpers import Outbox, mail
from support.joining import confirm_waiting, confirmation
from support.listener import listening, submit
from support.snapshots import play_once

pytestmark = pytest.mark.spec("2.2", "2.3")

G = "nomes@ref.example"
ALICE, BOB, CAROL = "alice@example.org", "bob@example.org", "carol@example.org"
MALLORY = "mallory@evil.test"


def raw(headers: list[str], body: str = "hello") -> bytes:
    """A mail exactly as written: headers are not re-encoded by any library."""
    lines = headers + [
        "To: " + G,
        "Date: Tue, 1 Dec 2026 10:00:00 +0000",
        "MIME-Version: 1.0",
        "Content-Type: text/plain; charset=utf-8",
        "Content-Transfer-Encoding: 8bit",
        "",
        body,
        "",
    ]
    return "\r\n".join(lines).encode("utf-8")


@pytest.fixture
def smtp(referee):
    with listening(referee, 10_000_000) as port:

        def send(
            message: bytes, mail_from: str = MALLORY, rcpt: str = G, utf8: bool = False
        ) -> None:
            submit(port, mail_from, [rcpt], message, mail_options=["SMTPUTF8"] if utf8 else [])

        yield send


@pytest.fixture
def game(request, referee, smtp):
    def opening() -> None:
        referee.create_game("nomes", "sidekick", G, gm="gm@ref.example")
        for name, a in (("Alice", ALICE), ("Bob", BOB), ("Carol", CAROL)):
            smtp(mail(a, G, "[Join]", f"Name: {name}"), a)
            confirm_waiting(referee)

    play_once(request, referee, opening)
    return referee


def player(referee, name: str) -> dict:
    return next(p for p in referee.state("nomes")["players"] if p["name"] == name)


def last_row(referee) -> InboxMessage:
    with referee.store() as s:
        return s.query(InboxMessage).order_by(InboxMessage.id.desc()).first()


def outgoing_count(referee) -> int:
    with referee.store() as s:
        return s.query(OutboxMessage).count()


# ---- impersonation through From ---------------------------------------------------


def test_an_encoded_address_in_the_display_name_is_only_a_name(game, smtp, outbox):
    outbox.new()
    smtp(
        raw(
            [
                "From: =?utf-8?q?alice=40example=2Eorg?= <mallory@evil.test>",
                "Subject: [Away]",
                "Message-ID: <forged1@evil.test>",
            ]
        )
    )
    assert player(game, "Alice")["status"] == "active"
    (reply,) = outbox.new()
    assert reply["To"] == MALLORY and reply["X-Mailref-Kind"] == "error"
    assert "not a player" in Outbox.body(reply)


@pytest.mark.parametrize(
    "from_lines",
    [
        ["From: <alice@example.org> <mallory@evil.test>"],
        ["From: alice@example.org, mallory@evil.test"],
        ["From: alice@example.org mallory@evil.test"],
        ["From: =?utf-8?q?Alice=0D=0ABcc=3A_victim=40else=2Eorg?= <alice@example.org>"],
        ["From: Alice <alice@example.org>", "From: Mallory <mallory@evil.test>"],
        ["From: Mallory <mallory@evil.test>", "From: Alice <alice@example.org>"],
    ],
    ids=[
        "two-angle-addrs",
        "address-list",
        "two-bare-addrs",
        "encoded-crlf",
        "two-from-alice-first",
        "two-from-mallory-first",
    ],
)
def test_a_from_that_names_no_single_sender_is_refused_without_reply(game, smtp, from_lines):
    before = outgoing_count(game)
    smtp(
        raw(
            from_lines
            + [
                "Subject: [Away]",
                f"Message-ID: <forged-{len(from_lines)}-{time.time_ns()}@evil.test>",
            ]
        )
    )
    assert player(game, "Alice")["status"] == "active"
    assert outgoing_count(game) == before  # no reply: it would go where the forger chose
    row = last_row(game)
    assert row.status == "processed" and row.verdict.startswith("error: sender refused")
    assert row.game_slug == "nomes"  # listed in the GM's digest with the other refused mail


def test_refused_senders_are_listed_in_the_gm_digest(game, smtp, outbox):
    smtp(
        raw(
            [
                "From: alice@example.org, mallory@evil.test",
                "Subject: [Away]",
                "Message-ID: <x1@evil.test>",
            ]
        )
    )
    outbox.new()
    game.admin("nomes", {"type": "digest"}, "gm")
    (digest,) = [m for m in outbox.new() if m["X-Mailref-Kind"] == "digest"]
    assert "sender refused" in Outbox.body(digest)


def test_forged_gm_results_close_no_turn(referee, smtp, outbox):
    referee.create_game("diplo", "orders", "diplo@ref.example", gm="gm@ref.example")
    for n in ("Ann", "Ben"):
        smtp(
            mail(f"{n.lower()}@x.org", "diplo@ref.example", "[Join]", f"Name: {n}"),
            f"{n.lower()}@x.org",
            "diplo@ref.example",
        )
        confirm_waiting(referee)
    referee.admin("diplo", {"type": "start"}, "gm")
    for from_line in (
        "From: =?utf-8?q?gm=40ref=2Eexample?= <mallory@evil.test>",
        "From: <gm@ref.example> <mallory@evil.test>",
    ):
        smtp(
            raw(
                [
                    from_line,
                    "Subject: [Results] Spring",
                    f"Message-ID: <r{time.time_ns()}@evil.test>",
                ],
                "Everybody lost.",
            ).replace(G.encode(), b"diplo@ref.example"),
            rcpt="diplo@ref.example",
        )
    assert referee.state("diplo")["turn"]["number"] == 1
    assert not [m for m in outbox.all() if m["X-Mailref-Kind"] == "results"]


def test_forged_emperor_proclamation_enacts_nothing(referee, smtp):
    empire = "empire@ref.example"
    referee.create_game("empire", "imperial", empire)
    smtp(mail("joe@rome.example", empire, "[Join]", "Name: Joe"), "joe@rome.example", empire)
    confirm_waiting(referee)
    rules = referee.state("empire")["rules"]
    smtp(
        raw(
            [
                "From: =?utf-8?q?joe=40rome=2Eexample?= <mallory@evil.test>",
                "Subject: [Proclamation] Mine",
                "Message-ID: <p1@evil.test>",
            ],
            "Repeal rule 1.",
        ).replace(G.encode(), empire.encode()),
        rcpt=empire,
    )
    assert referee.state("empire")["rules"] == rules


def test_reply_to_is_never_who_you_are(game, smtp, outbox):
    outbox.new()
    smtp(
        raw(
            [
                "From: Mallory <mallory@evil.test>",
                "Reply-To: =?utf-8?q?x?= <alice@example.org>",
                "Subject: [Away]",
                "Message-ID: <rt1@evil.test>",
            ]
        )
    )
    assert player(game, "Alice")["status"] == "active"


# ---- names: takeover and look-alikes ------------------------------------------------


def test_a_name_that_left_stays_its_holders(game, smtp, outbox):
    game.admin("nomes", {"type": "score", "player": "Carol", "op": "=", "amount": 42}, "gm")
    smtp(mail(CAROL, G, "[Quit]"), CAROL)
    assert player(game, "Carol")["status"] == "left"
    outbox.new()
    smtp(mail(MALLORY, G, "[Join]", "Name: Carol"))
    confirm_waiting(game)
    (reply,) = outbox.new()
    assert reply["X-Mailref-Kind"] == "error" and "belongs to Carol" in Outbox.body(reply)
    carol = player(game, "Carol")
    assert carol["addresses"] == [CAROL] and carol["score"] == 42 and carol["status"] == "left"
    smtp(
        mail(CAROL, G, "[Join]", "Name: Carol"), CAROL
    )  # Carol herself comes back (afresh: rule 19)
    confirm_waiting(game)
    carol = player(game, "Carol")
    assert carol["status"] == "active" and carol["addresses"] == [CAROL]


@pytest.mark.parametrize(
    "name",
    ["Аlice", "AIice", "Ａlice", "ALICE"],
    ids=["cyrillic-a", "capital-i", "fullwidth", "upper"],
)
def test_a_look_alike_name_cannot_join_beside_the_original(game, smtp, outbox, name):
    outbox.new()
    smtp(mail(MALLORY, G, "[Join]", f"Name: {name}"))
    confirm_waiting(game)
    (reply,) = outbox.new()
    assert reply["X-Mailref-Kind"] == "error" and "is taken" in Outbox.body(reply)
    assert [p["name"] for p in game.state("nomes")["players"]] == ["Alice", "Bob", "Carol"]


def test_a_look_alike_of_a_name_that_left_is_still_refused(game, smtp, outbox):
    smtp(mail(CAROL, G, "[Quit]"), CAROL)
    outbox.new()
    smtp(mail(MALLORY, G, "[Join]", "Name: Сarol"))  # Cyrillic С
    confirm_waiting(game)
    (reply,) = outbox.new()
    assert "belongs to Carol" in Outbox.body(reply)


def test_utf8_addresses_are_read_exactly(referee, smtp, outbox):
    referee.create_game("nomes", "sidekick", G)
    jose = "josé@exämple.org"
    smtp(
        raw(
            ["From: José <josé@exämple.org>", "Subject: [Join]", "Message-ID: <j1@exämple.org>"],
            "Name: José",
        ),
        jose,
        utf8=True,
    )
    conf = confirmation(referee, "josé@xn--exmple-cua.org")  # the domain as DNS knows it
    smtp(
        raw(
            [
                "From: José <josé@exämple.org>",
                f"Subject: Re: {conf['Subject']}",
                "Message-ID: <j0@exämple.org>",
                f"In-Reply-To: {conf['Message-ID']}",
            ],
            "Yes.",
        ),
        jose,
        utf8=True,
    )
    (p,) = referee.state("nomes")["players"]
    assert p["name"] == "José" and p["addresses"] == ["josé@xn--exmple-cua.org"]
    smtp(
        raw(["From: <josè@exämple.org>", "Subject: [Away]", "Message-ID: <j2@exämple.org>"]),
        "josè@exämple.org",
        utf8=True,
    )
    row = last_row(referee)  # (no reply: the relay path takes no non-ASCII address yet)
    assert row.sender == "josè@xn--exmple-cua.org" and "not a player" in row.verdict
    assert referee.state("nomes")["players"][0]["status"] == "active"
    smtp(
        raw(
            [
                "From: =?utf-8?q?Jos=C3=A9?= <josé@EXÄMPLE.org>",
                "Subject: [Away]",
                "Message-ID: <j3@exämple.org>",
            ]
        ),
        jose,
        utf8=True,
    )
    assert referee.state("nomes")["players"][0]["status"] == "away"


# ---- mail built to be slow ------------------------------------------------------------


def test_a_body_of_unclosed_bold_marks_is_read_at_once(referee, smtp, outbox):
    referee.create_game("diplo", "orders", "diplo@ref.example", gm="gm@ref.example")
    smtp(
        mail("ann@x.org", "diplo@ref.example", "[Join]", "Name: Ann"),
        "ann@x.org",
        "diplo@ref.example",
    )
    confirm_waiting(referee)
    referee.admin("diplo", {"type": "start"}, "gm")
    body = "**Army Paris holds.**\n" + "[b]x\n" * 16_000  # ~100 KB, what reading reads
    t = time.process_time()  # CPU time: a loaded machine's other processes do not count
    smtp(mail("ann@x.org", "diplo@ref.example", "[Orders]", body), "ann@x.org", "diplo@ref.example")
    assert (
        time.process_time() - t < 10
    )  # generous: the reading itself is checked in test_bounded.py
    assert referee.state("diplo")["orders"]["Ann"]["orders"][0]["text"] == "Army Paris holds"


def test_a_long_attribution_like_line_is_read_at_once(game, smtp, outbox):
    outbox.new()
    line = "a <@ " * 1600 + "<a@b> wrote:"  # 8 KB on one line
    t = time.process_time()
    smtp(mail(BOB, G, "[Status]", line), BOB)
    assert time.process_time() - t < 10
    assert [m["X-Mailref-Kind"] for m in outbox.new()] == ["status"]
