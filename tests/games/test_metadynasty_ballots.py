"""BlogNomic's first dynasty is a Metadynasty: a DEFERENTIAL vote follows the Historian, of
whom there is none, and its ack said nothing of it."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, assert_replays
from support.play import addr, send
from support.play_four import BLOG, blog, last, propose_gold

pytestmark = pytest.mark.spec("5.2")


def test_a_deferential_vote_in_the_metadynasty_is_acknowledged_as_following_nobody(referee, outbox):
    blog(referee)
    propose_gold(referee)
    send(referee, "bob", "[Vote] 1", "DEF", to=BLOG)
    said = " ".join(Outbox.body(last(outbox, addr("bob"), "ack")).split())
    assert "there is no Historian (the Metadynasty): it follows nobody" in said, said
    referee.admin("blog", {"type": "office", "office": "historian", "holder": "Dan"}, "gm")
    send(referee, "carol", "[Vote] 1", "DEF", to=BLOG)
    said = " ".join(Outbox.body(last(outbox, addr("carol"), "ack")).split())
    assert "follows nobody" not in said, said  # a Historian now: the DEF follows Dan's vote
    assert_replays(referee)
