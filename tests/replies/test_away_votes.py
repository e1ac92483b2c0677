"""An away player's vote counts, and their ack says so (SPEC §2.6, §5.1)."""

from __future__ import annotations

import pytest

from support import imperial
from support.helpers import Outbox
from support.play import PLAYERS, addr, nomes, send

pytestmark = pytest.mark.spec("2.6", "5.1")


def test_an_away_players_vote_counts_and_the_ack_says_so(referee, outbox):
    """Of the two voters one is away: both vote AGAINST, and the proposal fails on those two
    votes, not on one vote and an abstention."""
    mover = nomes(referee)
    away, other = [p for p in PLAYERS if p.title() != mover]
    send(referee, mover.lower(), "[Proposal] Q", 'Enact rule 24 "Q":\nQuiet.\n')
    send(referee, away, "[Away]")
    send(referee, away, "Re: [Proposal 1] Q", "AGAINST")
    ack = Outbox.body(outbox.to(addr(away))[-1])
    assert "Vote recorded: proposal 1 — AGAINST" in ack, ack
    assert "You are away, and your vote counts all the same" in ack, ack
    assert "in place of the ABSTAIN counted for an away player" in ack, ack
    send(referee, other, "Re: [Proposal 1] Q", "AGAINST")
    assert "You are away" not in Outbox.body(outbox.to(addr(other))[-1])
    prop = referee.state("nomes")["proposals"][0]
    assert prop["status"] == "failed" and prop["votes"][away.title()] == "AGAINST"


def test_an_away_senators_vote_counts_and_the_ack_says_so(imperial_game, outbox):
    imperial.send(imperial_game, "Ann", "[Proposal] Dragons", imperial.PROP)
    imperial.send(imperial_game, "Ben", "[Away]")
    imperial.send(imperial_game, "Ben", "Re: [Proposal 1] Dragons", "YES")
    ack = Outbox.body(outbox.to(imperial.addr("Ben"))[-1])
    assert "Vote recorded: proposal 1 — YES" in ack and "your vote counts all the same." in ack, ack
    assert imperial.prop(imperial_game, 1)["votes"]["Ben"] == "YES"
