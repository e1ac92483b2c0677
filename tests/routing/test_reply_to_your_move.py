"""A reply to your move with rule changes is the move, and may name its title."""

from __future__ import annotations

import pytest

from support import clients
from support.client_play import NOMES, last, play
from support.helpers import Outbox, assert_replays
from support.joining import confirm_waiting
from support.play import addr

pytestmark = pytest.mark.spec("2.5")


def test_a_reply_to_your_move_with_rule_changes_is_the_move(referee, outbox):
    """ "[Turn 1] Your move": Alice pressed Reply and wrote her rule change, as one answers a
    mail. It was refused ("a reply to the turn mail is not a move by itself") and she had to
    write a new mail with the subject [Proposal] Title. A Reply holding rule changes is now the
    move, titled by a `Title:` line or after its first change; one without says what is missing."""
    referee.create_game("nomes", "sidekick", NOMES, gm="gm@ref.example")
    for p in ("Alice", "Bob", "Carol"):
        play(referee, clients.fresh(addr(p), p, NOMES, "[Join]", f"Name: {p}\n"))
        confirm_waiting(referee)
    mover = referee.state("nomes")["turn"]["player"]
    turn = last(outbox, mover, subject="[Turn 1] Your move")
    assert (
        'or Reply to this mail with them; a first line "Title: Your title" names it'
        in Outbox.body(turn)
    )
    play(referee, clients.thunderbird(turn, addr(mover), mover, "Here goes nothing."))
    error = Outbox.body(last(outbox, mover, "error"))
    assert (
        "a reply to the turn mail is a move only with rule changes in it, and I found none" in error
    )
    play(
        referee,
        clients.thunderbird(
            turn,
            addr(mover),
            mover,
            f'Enact rule 24 "Tea":\nEvery player shall drink tea.\n\nCheers,\n{mover}',
        ),
    )
    (prop,) = referee.state("nomes")["proposals"]
    assert (prop["title"], prop["author"], prop["changes"][0]["title"]) == ("Tea", mover, "Tea")
    other = next(p for p in ("Alice", "Bob", "Carol") if p != mover)
    assert 'Proposal 1: "Tea" by ' + mover in Outbox.body(
        last(outbox, other, "announcement", "[Proposal 1] Tea")
    )
    assert_replays(referee)


def test_a_reply_to_your_move_may_name_its_title(referee, outbox):
    referee.create_game("nomes", "sidekick", NOMES, gm="gm@ref.example")
    for p in ("Alice", "Bob"):
        play(referee, clients.fresh(addr(p), p, NOMES, "[Join]", f"Name: {p}\n"))
        confirm_waiting(referee)
    mover = referee.state("nomes")["turn"]["player"]
    turn = last(outbox, mover, subject="[Turn 1] Your move")
    play(
        referee,
        clients.gmail(
            turn,
            addr(mover),
            mover,
            'Title: Gentler failure\nIn rule 22, replace "-5 points" with "-3 points".',
        ),
    )
    (prop,) = referee.state("nomes")["proposals"]
    assert prop["title"] == "Gentler failure" and "Title:" not in prop["text"]
