"""Results say whose listed votes were not counted, and a one-line result ends without a double
blank."""

from __future__ import annotations

import pytest

from support.helpers import Outbox
from support.joining import confirm_waiting
from support.long_games import BLOG, EMP, blog, last, new_rule
from support.play import addr, send  # the same players' addresses, mail sent the same way

pytestmark = pytest.mark.spec("2.6")


def test_a_blognomic_result_says_whose_listed_votes_it_did_not_count(referee, outbox, clock):
    """Alice proposed, then quit; the result read "Tally: FOR 3" above "Votes: Alice FOR, Bob
    FOR, Carol FOR, ..., Eve FOR" (four FOR): her vote was rightly left out ("A non-Wizard never
    has a Vote"), but the mail did not say so and the players counted a mistake."""
    blog(referee, ("alice", "bob", "carol", "dan", "eve", "fay"))
    send(referee, "alice", "[Proposal] Gold", new_rule("Gold", "Gold."), to=BLOG)
    for p in ("bob", "carol"):
        send(referee, p, "[Vote] 1", "FOR", to=BLOG)
    send(referee, "alice", "[Quit]", "", to=BLOG)
    clock.advance(hours=12, seconds=1)
    referee.tick()
    send(referee, "eve", "[Vote] 1", "FOR", to=BLOG)
    text = Outbox.body(last(outbox, addr("bob"), "results", "Gold"))
    assert "Tally: FOR 3, AGAINST 0, quorum 3." in text
    assert 'Not counted, having left or gone Idle ("A non-Wizard never has a Vote"): Alice.' in text


def test_a_result_of_one_line_ends_without_a_double_blank(referee, outbox, clock):
    """The Emperor's "ACCEPT" read "The Emperor has accepted proposal 1 "Taxes": Good idea."
    then two blank lines before the signature (a heading with no lines under it)."""
    referee.create_game(
        "emp", "imperial", EMP, gm="gm@ref.example", parameters={"vote_period": "1h"}
    )
    for p in ("joel", "alice", "bob", "carol"):
        send(referee, p, "[Join]", f"Name: {p.title()}\n", to=EMP)
        confirm_waiting(referee)
    send(referee, "alice", "[Proposal] Taxes", "Taxes for all.", to=EMP)
    send(referee, "bob", "[Proposal] Roads", "Roads for all.", to=EMP)
    send(referee, "bob", "[Vote] 1", "YES", to=EMP)
    clock.advance(hours=1, seconds=1)
    referee.tick()
    send(referee, "joel", "[Judge] 1", "VETO\n\nNot now.", to=EMP)
    text = Outbox.body(last(outbox, addr("carol"), "results", "VETOED"))
    assert 'The Emperor has vetoed proposal 1 "Taxes": Not now.\r\n\r\n-- \r\n' in text
