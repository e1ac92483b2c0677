"""Results say which clause made a proposal popular and whose abstentions were counted."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, assert_replays
from support.play import addr, send  # the same players' addresses, mail sent the same way
from support.play_four import BLOG, PLAYERS, blog, last, nomes

pytestmark = pytest.mark.spec("2.6")


def test_a_blognomic_result_says_which_clause_made_it_popular(referee, outbox, clock):
    """Proposal 1 is enacted after 48 hours with FOR 2, AGAINST 1, quorum 3: "ENACTED (popular)"
    beside a tally under quorum reads as a mistake. The result names the 48-hour clause; a matter
    failed by it likewise."""
    blog(referee)
    send(
        referee,
        "alice",
        "[Proposal] Gold",
        'Enact a new rule entitled "Gold" with the following text:\nEach Wizard has 3 Gold.\n',
        to=BLOG,
    )
    send(referee, "bob", "[Vote] 1", "FOR", to=BLOG)
    send(referee, "carol", "[Vote] 1", "AGAINST", to=BLOG)
    send(
        referee,
        "zoe",
        "[Proposal] Silver",
        'Enact a new rule entitled "Silver" with the following text:\nEach Wizard has 3 Silver.\n',
        to=BLOG,
    )
    clock.advance(hours=48, seconds=1)
    referee.tick()
    first = Outbox.body(last(outbox, addr("dan"), "results", "[Proposal 1]"))
    assert "ENACTED (popular)" in first and "Tally: FOR 2, AGAINST 1, quorum 3." in first
    assert "Popular: open 2d or more, with more than one vote and more FOR than AGAINST." in first
    second = Outbox.body(last(outbox, addr("dan"), "results", "[Proposal 2]"))
    assert (
        "FAILED (unpopular)" in second
        and "Unpopular: open 2d or more without being Popular." in second
    )


def test_a_result_says_whose_abstentions_the_referee_counted(referee, outbox, clock):
    """Proposal 3 passed "FOR 1, AGAINST 0, ABSTAIN 2" with "Bob Brown ABSTAIN, Zoë ABSTAIN",
    though neither had written a word: the deadline counted them (rule 11), and an away player is
    counted so too (rule 15). The result now says whose abstentions were the referee's."""
    mover = nomes(referee)
    voters = sorted(p.title() for p in PLAYERS if p.title() != mover)
    send(referee, voters[0].lower(), "[Away]")
    send(
        referee,
        mover.lower(),
        "[Proposal] Hats",
        'Enact rule 24 "Hats":\nEvery player wears a hat.\n',
    )
    send(referee, voters[1].lower(), "[Vote] 1", "FOR")
    clock.advance(days=5, seconds=1)
    referee.tick()
    results = Outbox.body(last(outbox, addr(voters[1].lower()), "results", "[Proposal 1]"))
    assert f"Counted ABSTAIN, not having voted in time (rule 11): {voters[2]}." in results
    assert f"Counted ABSTAIN, being away (rule 15): {voters[0]}." in results
    assert_replays(referee)
