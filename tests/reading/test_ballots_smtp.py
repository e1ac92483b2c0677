"""Ballots through real SMTP sessions to the listener (SPEC §3.2): prose is asked about again,
a ballot's ack quotes the line it read, and an Outlook Web reply's quoted `1 FOR` never counts."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.helpers import Outbox, assert_replays, mail
from support.joining import confirm_waiting
from support.listener import listening, submit

pytestmark = pytest.mark.spec("3.2")

G = "nomes@ref.example"
PLAYERS = ["alice", "bob", "carol"]
CORPUS = Path(__file__).parent / "corpus"


def addr(name: str) -> str:
    return f"{name.lower()}@players.example"


@pytest.fixture
def game(referee):
    referee.create_game("nomes", "sidekick", G, gm="gm@ref.example")
    with listening(referee) as port:

        def send(who: str, raw: bytes) -> None:
            submit(port, addr(who), [G], raw)

        for p in PLAYERS:
            send(p, mail(addr(p), G, "[Join]", f"Name: {p.title()}\n"))
            confirm_waiting(referee)
        mover = referee.state("nomes")["turn"]["player"]
        send(
            mover.lower(),
            mail(addr(mover), G, "[Proposal] Daily dice", 'Enact rule 24 "Bonus":\nRoll a die.\n'),
        )
        voters = [p for p in PLAYERS if p != mover.lower()]
        yield send, voters
    assert_replays(referee)


def reply_to(outbox: Outbox, who: str):
    return [
        m for m in outbox.all() if m["To"] == addr(who) and m["X-Mailref-Kind"] in ("ack", "error")
    ][-1]


@pytest.mark.parametrize(
    "prose",
    [
        "No strong feelings yet -- what does this mean?",
        "For what it's worth, I'm AGAINST this.",
        "Present company excepted, I vote against.",
    ],
)
def test_prose_gets_no_vote_found_and_how_to_write_one(referee, outbox, game, prose):
    send, (voter, _) = game
    send(voter, mail(addr(voter), G, "Re: [Proposal 1] Daily dice", f"{prose}\n"))
    answer = reply_to(outbox, voter)
    body = Outbox.body(answer)
    assert answer["X-Mailref-Kind"] == "error" and "No vote found for proposal 1" in body
    assert "I vote FOR" in body  # how to write one
    assert f'Not read as a ballot: "{prose}"' in body  # a line holding a vote word is named
    assert voter.title() not in referee.state("nomes")["proposals"][0]["votes"]


def test_prose_without_a_vote_word_is_discussion(referee, outbox, game):
    """No line of it looks like a ballot: the players talking, not asked about again."""
    send, (voter, _) = game
    outbox.new()
    send(
        voter, mail(addr(voter), G, "Re: [Proposal 1] Daily dice", "Pro tip: read rule 5 first.\n")
    )
    sent = outbox.new()
    assert [m["X-Mailref-Kind"] for m in sent if m["To"] == addr(voter)] == []
    assert {m["X-Mailref-Kind"] for m in sent} == {"discussion"}
    assert voter.title() not in referee.state("nomes")["proposals"][0]["votes"]


def test_the_ack_quotes_the_line_it_read(referee, outbox, game):
    send, (voter, _) = game
    send(
        voter,
        mail(
            addr(voter),
            G,
            "Re: [Proposal 1] Daily dice",
            "Hmm, tough one.\nI vote against.\nCheers\n",
        ),
    )
    ack = reply_to(outbox, voter)
    body = Outbox.body(ack)
    assert (
        ack["X-Mailref-Kind"] == "ack" and 'I read your line "I vote against." as a ballot.' in body
    )
    assert "Vote recorded: proposal 1 — AGAINST" in body


def test_outlook_web_html_only_reply_counts_the_players_line_not_the_quote(referee, outbox, game):
    send, (voter, _) = game
    raw = (
        (CORPUS / "owa_html_only_vote.eml")
        .read_bytes()
        .replace(b"nora@outlook.example", addr(voter).encode())
    )
    send(voter, raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))
    (prop,) = referee.state("nomes")["proposals"]
    assert prop["votes"][voter.title()] == "AGAINST"
    assert 'I read your line "AGAINST" as a ballot.' in Outbox.body(reply_to(outbox, voter))
