"""Which game (SPEC §2.3, §2.5, §2.6) with two games on one host, through real SMTP sessions
to the listener: mail is From the game, a plain Reply reaches that game, the thread routes a
reply sent to the referee, the referee's [Help] lists the games, a misspelt tag is answered
with "did you mean", and every subject names the game and still parses in a reply."""

from __future__ import annotations

import email
import email.policy
import email.utils
import smtplib

import pytest
from aiosmtpd.controller import Controller

from mailref.read.subject import game_label, parse_subject
from support.delivery import Deliverer
from support.dovecot import free_port
from support.helpers import Outbox, mail
from support.joining import confirm_waiting
from support.listener import listening

pytestmark = pytest.mark.spec("2.3", "2.5")

NOMES, MOOT, REF = "nomes@ref.example", "moot@ref.example", "referee@ref.example"
RULE = 'Enact rule 301 "Tea":\nTea is served at every turn.\n'


@pytest.fixture
def host(referee):
    referee.create_game("nomes", "sidekick", NOMES, name="Nomes")
    referee.create_game("moot", "sidekick", MOOT, name="Moot Court")
    with listening(referee) as port:
        yield port


def smtp_send(port: int, raw: bytes, frm: str, rcpt: list[str]) -> None:
    with smtplib.SMTP("127.0.0.1", port) as c:
        c.sendmail(frm, rcpt, raw)


def plain_reply(to_msg, frm: str, body: str, to: str | None = None) -> tuple[bytes, str]:
    """What a mail client's Reply writes: To = the From of the mail, Re: its subject, threaded."""
    to = to or email.utils.parseaddr(to_msg["From"])[1]
    raw = mail(
        frm,
        to,
        "Re: " + str(to_msg["Subject"]),
        body + "\n\n> " + Outbox.body(to_msg).replace("\n", "\n> "),
        in_reply_to=to_msg["Message-ID"],
    )
    return raw, to


def join_both(referee, port: int) -> None:
    for game in (NOMES, MOOT):
        for who in ("alice", "bob"):
            smtp_send(
                port,
                mail(f"{who}@x.org", game, "[Join]", f"Name: {who.title()}"),
                f"{who}@x.org",
                [game],
            )
            confirm_waiting(referee)


def test_a_plain_reply_reaches_the_game_that_sent_the_mail(referee, host):
    join_both(referee, host)
    props = {}
    for slug, addr in (("nomes", NOMES), ("moot", MOOT)):
        mover = referee.state(slug)["turn"]["player"]
        smtp_send(
            host,
            mail(f"{mover.lower()}@x.org", addr, "[Proposal] Tea", RULE),
            f"{mover.lower()}@x.org",
            [addr],
        )
        props[slug] = mover
    box = Outbox(referee).all()
    for slug, addr, name in (("nomes", NOMES, "Nomes"), ("moot", MOOT, "Moot Court")):
        voter = "alice" if props[slug] == "Bob" else "bob"
        (ann,) = [
            m
            for m in box
            if m["X-Mailref-Game"] == slug
            and m["X-Mailref-Kind"] == "announcement"
            and m["To"] == f"{voter}@x.org"
            and "Proposal 1" in m["Subject"]
        ]
        assert email.utils.parseaddr(ann["From"]) == (name, addr)
        assert ann["Subject"] == f"[{name}] [Proposal 1] Tea"
        raw, to = plain_reply(ann, f"{voter}@x.org", "FOR")
        assert to == addr
        smtp_send(host, raw, f"{voter}@x.org", [to])
    for slug in ("nomes", "moot"):
        (p,) = referee.state(slug)["proposals"]
        assert p["status"] == "passed", (slug, p)  # each game got exactly its own ballot
    acks = [
        m
        for m in Outbox(referee).all()
        if m["X-Mailref-Kind"] == "ack" and "Vote recorded" in Outbox.body(m)
    ]
    assert sorted(m["X-Mailref-Game"] for m in acks) == ["moot", "nomes"]
    for m in acks:
        game = "Nomes" if m["X-Mailref-Game"] == "nomes" else "Moot Court"
        assert (
            m["Subject"] == f"Re: [{game}] [Proposal 1] Tea"
            and email.utils.parseaddr(m["From"])[0] == game
        )


def test_a_reply_sent_to_the_referee_follows_its_thread(referee, host):
    join_both(referee, host)
    mover = referee.state("moot")["turn"]["player"]
    turn = [
        m
        for m in Outbox(referee).all()
        if m["X-Mailref-Game"] == "moot" and m["To"] == f"{mover.lower()}@x.org"
    ][-1]
    # An old address book, a forward: the reply goes to the referee, but In-Reply-To names Moot's
    # mail.
    raw, _ = plain_reply(turn, f"{mover.lower()}@x.org", "", to=REF)
    raw = raw.replace(b"Subject: Re: ", b"Subject: [Proposal] Tea\r\nX-Old-Subject: ", 1)
    raw = raw.replace(b"\r\n\r\n", b"\r\n\r\n" + RULE.replace("\n", "\r\n").encode(), 1)
    smtp_send(host, raw, f"{mover.lower()}@x.org", [REF])
    assert [p["title"] for p in referee.state("moot")["proposals"]] == ["Tea"]
    assert referee.state("nomes")["proposals"] == []


def test_the_envelope_sender_stays_the_referee(referee, host, tmp_path):
    join_both(referee, host)
    seen = []

    class Record:
        async def handle_DATA(self, server, session, envelope):
            seen.append(
                (
                    envelope.mail_from,
                    email.message_from_bytes(envelope.content, policy=email.policy.default),
                )
            )
            return "250 OK"

    from mailref.config import SmtpOut

    port = free_port()
    relay = Controller(Record(), hostname="127.0.0.1", port=port)
    relay.start()
    try:
        sent, failed = Deliverer(
            referee.store,
            REF,
            SmtpOut(host="127.0.0.1", port=port),
            tmp_path / "md",
            "gm@ref.example",
        ).deliver(referee.clock())
    finally:
        relay.stop()
    assert sent == len(seen) > 0 and failed == 0
    assert {frm for frm, _ in seen} == {REF}
    assert {email.utils.parseaddr(m["From"])[1] for _, m in seen} == {NOMES, MOOT}
    assert all(m["X-Mailref-Loop"] == REF for _, m in seen)


def test_help_at_the_referee_lists_every_game(referee, host):
    smtp_send(host, mail("newbie@x.org", REF, "[Help]"), "newbie@x.org", [REF])
    (reply,) = Outbox(referee).all()
    assert reply["From"] == REF and reply["X-Mailref-Kind"] == "help"
    body = Outbox.body(reply)
    for text in (
        "Nomes",
        "Moot Court",
        "sidekick",
        NOMES,
        MOOT,
        f"send [Join] to {NOMES}",
        f"send [Join] to {MOOT}",
    ):
        assert text in body
    assert "Send [Help] for the commands" not in body


def test_a_misspelt_tag_gets_did_you_mean(referee, host):
    join_both(referee, host)
    Outbox(referee).new()
    box = Outbox(referee)
    box.new()
    smtp_send(host, mail("alice@x.org", NOMES, "[Propsal] Tea", RULE), "alice@x.org", [NOMES])
    (err,) = box.new()
    assert err["X-Mailref-Kind"] == "error" and err["Subject"] == "Re: [Nomes] [Propsal] Tea"
    assert "did you mean [Proposal]?" in Outbox.body(err)
    smtp_send(host, mail("alice@x.org", NOMES, "[Stauts]"), "alice@x.org", [NOMES])
    assert "did you mean [Status]?" in Outbox.body(box.new()[0])
    assert referee.state("nomes")["proposals"] == []


def test_every_subject_names_the_game_and_its_reply_parses_the_same(referee, host, clock):
    join_both(referee, host)
    for slug, addr in (("nomes", NOMES), ("moot", MOOT)):
        mover = referee.state(slug)["turn"]["player"].lower()
        smtp_send(
            host, mail(f"{mover}@x.org", addr, "[Proposal] Tea", RULE), f"{mover}@x.org", [addr]
        )
        smtp_send(
            host, mail(f"{mover}@x.org", addr, "[CfJ] Is tea a rule?"), f"{mover}@x.org", [addr]
        )
        smtp_send(host, mail(f"{mover}@x.org", addr, "[Roll] 2d6"), f"{mover}@x.org", [addr])
        smtp_send(host, mail(f"{mover}@x.org", addr, "[Status]"), f"{mover}@x.org", [addr])
    clock.advance(days=6)
    referee.tick()
    kinds = set()
    for m in Outbox(referee).all():
        slug = m["X-Mailref-Game"]
        state = referee.state(slug)
        label = game_label(state["name"], slug)
        subject = str(m["Subject"])
        assert f"[{label}]" in subject, subject
        bare = subject.replace(f"[{label}] ", "")
        want = parse_subject(bare)
        for got in (
            parse_subject("Re: " + subject),
            parse_subject("Re: " + subject, game_tags=(label, slug)),
        ):
            assert (got.tag, got.number) == (want.tag, want.number), subject
        kinds.add(m["X-Mailref-Kind"])
    assert {"ack", "announcement", "turn", "judge", "status"} <= kinds


def test_a_game_named_like_a_command_still_parses():
    subject = "Re: [Orders] [Proposal 3] Tea"
    assert parse_subject(subject, game_tags=("Orders", "orders")).tag == "proposal"
    assert parse_subject(subject, game_tags=("Orders", "orders")).number == 3
