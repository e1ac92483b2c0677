"""A reply with no readable vote is told until when votes are taken; a reminder says how to answer
it."""

from __future__ import annotations

import pytest

from support import clients
from support.client_play import last, play, sidekick
from support.helpers import Outbox
from support.play import addr

pytestmark = pytest.mark.spec("2.6")


def test_a_reply_with_no_readable_vote_is_told_until_when_votes_are_taken(referee, outbox, clock):
    """Carol answered the reminder from her iPhone with "Against, naps are for cats." (prose, SPEC
    §3.2): the error said how to write a vote but not until when one counts, with the deadline
    a few hours off. It now says until when votes on it are taken."""
    mover, (voter, _) = sidekick(referee)
    clock.advance(days=4, hours=1)
    referee.tick()
    reminder = last(outbox, voter, "reminder", "[Proposal 1]")
    play(referee, clients.iphone(reminder, addr(voter), voter, "Against, tea is for cats."))
    text = Outbox.body(last(outbox, voter, "error"))
    assert (
        "No vote found for proposal 1 in your own words (quoted text does not count); votes on it "
        "are taken "
        "until Sun 6 Dec 2026 10:00 UTC."
    ) in text, text
    assert 'Not read as a ballot: "Against, tea is for cats."' in text


def test_a_reminder_says_how_to_answer_it(referee, outbox, clock):
    """ "A reminder …: your vote on proposal 1 "Tea" is due by …" said nothing of how to vote;
    the announcement it follows may be long gone from a phone's screen. Each reminder now says
    what a Reply to it should hold."""
    mover, (voter, _) = sidekick(referee)
    clock.advance(days=4, hours=1)
    referee.tick()
    assert "To vote, reply to this mail with FOR, AGAINST or ABSTAIN." in Outbox.body(
        last(outbox, voter, "reminder")
    )
    clock.advance(days=1)
    referee.tick()  # the vote closes; the next mover's turn opens
    nxt = referee.state("nomes")["turn"]["player"]
    clock.advance(days=4, hours=1)
    referee.tick()
    assert "To move, reply to this mail with your rule changes" in Outbox.body(
        last(outbox, nxt, "reminder", "[Turn 2]")
    )
