"""A passed amendment of rule 8 gives the next mover the new turn length."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, assert_replays
from support.play import addr, send  # the same players' addresses, mail sent the same way
from support.play_four import PLAYERS, nomes

pytestmark = pytest.mark.spec("5.1")


def test_a_passed_amendment_of_rule_8_gives_the_next_mover_the_new_time(referee, outbox, clock):
    """Bob's proposal amends rule 8 from five days to four and passes. The ruleset mail says
    "From now on the referee runs rule 8 as it now reads: a mover has 4d", yet the next mover's
    "Your move" (opened before the change was applied) said "in 5 days". Rule 7: the changes go
    into effect with the updated list, so the next turn is the first to run on four days."""
    mover = nomes(referee)
    body = (
        "Amend rule 8 to read:\nA move consists of emailing one proposal to the group. If, after "
        "it becomes "
        "a player's turn, that player does not move within four days, his or her turn is skipped "
        "that round.\n"
    )
    send(referee, mover.lower(), "[Proposal] Faster turns", body)
    outbox.new()
    for p in PLAYERS:
        if p.title() != mover:
            send(referee, p, "[Vote] 1", "FOR")
    state = referee.state("nomes")
    assert state["parameters"]["turn_timeout"] == "4d"
    nxt = state["turn"]["player"]
    assert (
        state["turn"]["deadline"] == "2026-12-05T10:00:00Z"
    )  # four days from the clock's 1 Dec 10:00
    new = outbox.new()
    turn = [m for m in new if m["X-Mailref-Kind"] == "turn"]
    assert [m["To"] for m in turn] == [addr(nxt)]
    assert "before Sat 5 Dec 2026 10:00 UTC, in 4 days" in Outbox.body(turn[0])
    ruleset = next(m for m in new if m["X-Mailref-Kind"] == "ruleset" and m["To"] == addr(nxt))
    text = Outbox.body(ruleset)
    assert "a mover has 4d to move (turn_timeout: 5d -> 4d)" in text
    assert f"Turn 2: {nxt} is to move." in text
    # The skip comes after four days, not five.
    clock.advance(days=4, seconds=1)
    referee.tick()
    assert referee.state("nomes")["turn"]["number"] == 3
    assert_replays(referee)
