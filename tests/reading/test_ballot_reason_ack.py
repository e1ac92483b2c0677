"""A ballot with a reason, played through a real game: the vote counts, and the ack echoes the
reason ("Vote recorded: proposal 1 — AGAINST; your reason: It breaks rule 5."); `+1`, `-1` and `0`
vote where the game has those meanings (SPEC §3.2, §2.6)."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, assert_replays, send_mail
from support.joining import confirm_waiting

pytestmark = pytest.mark.spec("3.2", "2.6")

NOMES, EMPIRE = "nomes@ref.example", "empire@ref.example"


def addr(name: str) -> str:
    return f"{name.lower()}@players.example"


def send(referee, game: str, who: str, subject: str, body: str = "") -> None:
    send_mail(referee, addr(who), game, subject, body)


def answer(outbox: Outbox, who: str):
    return [
        m for m in outbox.all() if m["To"] == addr(who) and m["X-Mailref-Kind"] in ("ack", "error")
    ][-1]


@pytest.fixture
def nomes(referee):
    """A Sidekick game with proposal 1 open, and the two players who vote on it."""
    referee.create_game("nomes", "sidekick", NOMES, gm="gm@ref.example")
    for who in ("Nora", "Oisin", "Pat"):
        send(referee, NOMES, who, "[Join]", f"Name: {who}\n")
        confirm_waiting(referee)
    mover = referee.state("nomes")["turn"]["player"]
    send(
        referee,
        NOMES,
        mover,
        "[Proposal] Loaded dice",
        'Enact rule 24 "Dice":\nEvery die shows six.\n',
    )
    yield [p for p in ("Nora", "Oisin", "Pat") if p != mover]
    assert_replays(referee)


def test_the_ack_echoes_the_reason_and_the_vote_counts(referee, outbox, nomes):
    voter = nomes[0]
    send(
        referee,
        NOMES,
        voter,
        "Re: [Proposal 1] Loaded dice",
        "AGAINST. It breaks rule 5.\n\nCheers\n",
    )
    ack = answer(outbox, voter)
    body = Outbox.body(ack)
    assert ack["X-Mailref-Kind"] == "ack"
    assert "Vote recorded: proposal 1 — AGAINST; your reason: It breaks rule 5." in body
    assert 'I read your line "AGAINST. It breaks rule 5." as a ballot.' in body
    assert referee.state("nomes")["proposals"][0]["votes"][voter] == "AGAINST"


def test_a_changed_vote_says_what_it_replaced_and_echoes_the_new_reason(referee, outbox, nomes):
    voter = nomes[0]
    send(referee, NOMES, voter, "Re: [Proposal 1] Loaded dice", "AGAINST. It breaks rule 5.\n")
    body = (
        "FOR — Pat talked me round.\n\nOn Tue, 1 Dec 2026 at 10:00, Nomes "
        "<nomes@ref.example>\nwrote:\n"
        "> AGAINST. It breaks rule 5.\n"
    )
    send(referee, NOMES, voter, "Re: [Proposal 1] Loaded dice", body)
    text = " ".join(Outbox.body(answer(outbox, voter)).split())
    assert "Vote recorded: proposal 1 — FOR (replaces AGAINST of " in text
    assert "; your reason: Pat talked me round." in text
    assert referee.state("nomes")["proposals"][0]["votes"][voter] == "FOR"


@pytest.mark.parametrize("line,vote", [("+1", "FOR"), ("-1", "AGAINST"), ("0", "ABSTAIN")])
def test_apache_style_votes_count_in_a_game_with_for_against_and_abstain(
    referee, outbox, nomes, line, vote
):
    voter = nomes[0]
    send(referee, NOMES, voter, "Re: [Proposal 1] Loaded dice", f"{line}\n")
    assert f"Vote recorded: proposal 1 — {vote}" in Outbox.body(answer(outbox, voter))
    assert referee.state("nomes")["proposals"][0]["votes"][voter] == vote


@pytest.mark.parametrize(
    "prose", ["No, wait", "No. Wait, let me think about it.", "+1 if the typo goes"]
)
def test_prose_is_asked_about_again_and_records_nothing(referee, outbox, nomes, prose):
    voter = nomes[0]
    send(referee, NOMES, voter, "Re: [Proposal 1] Loaded dice", f"{prose}\n")
    reply = answer(outbox, voter)
    assert reply["X-Mailref-Kind"] == "error" and "No vote found for proposal 1" in Outbox.body(
        reply
    )
    assert voter not in referee.state("nomes")["proposals"][0]["votes"]


@pytest.fixture
def empire(referee):
    """An Imperial game (votes YES and NO only) with proposal 1 open."""
    referee.create_game("empire", "imperial", EMPIRE)
    for who in ("Joe", "Ann", "Ben", "Cat"):
        send(referee, EMPIRE, who, "[Join]", f"Name: {who}")
        confirm_waiting(referee)
    for who in ("Ann", "Ben", "Cat"):
        send(referee, EMPIRE, who, "[Point of Order] Hello", "I am here.")
    send(referee, EMPIRE, "Ann", "[Proposal] Dragons", 'Enact rule 27 "Dragons":\nDragons exist.\n')
    yield
    assert_replays(referee)


def test_plus_one_is_yes_and_zero_is_no_ballot_where_the_game_has_no_abstain(
    referee, outbox, empire
):
    number = referee.state("empire")["proposals"][-1]["number"]
    send(referee, EMPIRE, "Ben", f"Re: [Proposal {number}] Dragons", "+1. Dragons are overdue.\n")
    assert f"Vote recorded: proposal {number} — YES; your reason: Dragons are overdue." in " ".join(
        Outbox.body(answer(outbox, "Ben")).split()
    )
    send(referee, EMPIRE, "Cat", f"Re: [Proposal {number}] Dragons", "0\n")
    reply = answer(outbox, "Cat")
    assert reply["X-Mailref-Kind"] == "error" and "No vote found" in Outbox.body(reply)
    assert "Cat" not in referee.state("empire")["proposals"][-1]["votes"]
