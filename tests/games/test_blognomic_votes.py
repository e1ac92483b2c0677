"""BlogNomic: deferential votes do not follow an idle historian."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, assert_replays
from support.play import addr, send  # the same players' addresses, mail sent the same way
from support.play_four import BLOG, blog, last

pytestmark = pytest.mark.spec("5.2")


def test_deferential_votes_do_not_follow_an_idle_historian(referee, outbox, clock):
    """Dan, the Historian, votes FOR; Alice and Carol vote DEFERENTIAL; then Dan goes Idle. Rule
    "Votes": "A non-Wizard never has a Vote, even if they were a Wizard previously and had cast a
    valid Vote", and Idle Wizards are not counted as Wizards: the DEFs follow nothing. They used to
    go on counting as FOR, enacting the proposal on an Idle Historian's say."""
    blog(referee)
    referee.admin("blog", {"type": "office", "office": "historian", "holder": "Dan"}, "gm")
    send(
        referee,
        "bob",
        "[Proposal] Dragons",
        'Enact a new rule entitled "Dragons" with the following text:\n'
        "Each Wizard may own one dragon.\n",
        to=BLOG,
    )
    send(referee, "dan", "[Vote] 1", "FOR", to=BLOG)
    send(referee, "alice", "[Vote] 1", "DEF", to=BLOG)
    send(referee, "carol", "[Vote] 1", "DEF", to=BLOG)
    send(referee, "dan", "[Idle]", "", to=BLOG)
    clock.advance(hours=12, seconds=1)
    referee.tick()
    assert referee.state("blog")["proposals"][0]["status"] == "pending"  # FOR 1 (Bob's) of quorum 3
    clock.advance(hours=36)
    referee.tick()
    prop = referee.state("blog")["proposals"][0]
    assert (prop["status"], prop["reason"]) == ("failed", "unpopular")
    results = Outbox.body(last(outbox, addr("zoe"), "results", "[Proposal 1]"))
    assert "Tally: FOR 1, AGAINST 0, quorum 3." in results
    assert (
        "DEFERENTIAL (Alice, Carol) does not count: the Historian has no valid FOR or AGAINST vote"
        in results
    )
    assert_replays(referee)
