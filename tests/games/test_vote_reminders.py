"""Imperial senators are reminded of their votes."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, assert_replays
from support.joining import confirm_waiting
from support.long_games import EMP
from support.play import addr, send  # the same players' addresses, mail sent the same way

pytestmark = pytest.mark.spec("5.3")


def test_imperial_senators_are_reminded_of_their_votes(referee, outbox, clock):
    """Imperial votes close 4 days after posting (vote_period); SPEC §4.2 reminds those who
    have not acted `reminder_before` (1 day) ahead. The Senators were never reminded: a
    proposal nobody remembered was rejected for want of YES votes."""
    referee.create_game("emp", "imperial", EMP, gm="gm@ref.example")
    for p in ("joel", "alice", "bob", "carol"):
        send(referee, p, "[Join]", f"Name: {p.title()}\n", to=EMP)
        confirm_waiting(referee)
    for p in ("alice", "bob", "carol"):
        send(referee, p, f"[Proposal] Idea of {p}", f"{p} has an idea.", to=EMP)  # three Senators
    send(referee, "bob", "[Vote] 1", "YES", to=EMP)
    outbox.new()
    clock.advance(days=2, hours=23)
    referee.tick()
    assert not [m for m in outbox.new() if m["X-Mailref-Kind"] == "reminder"]
    clock.advance(hours=1, seconds=1)
    referee.tick()
    reminders = {m["To"]: m for m in outbox.new() if m["X-Mailref-Kind"] == "reminder"}
    assert sorted(reminders) == sorted(
        addr(p) for p in ("alice", "bob", "carol")
    )  # one each, not one a proposal
    bob = Outbox.body(reminders[addr("bob")])
    assert (
        'your vote (YES or NO) on proposal 2 "Idea of bob"' not in bob
    )  # his own: he does not vote on it
    assert 'proposal 3 "Idea of carol" is due by Sat 5 Dec 2026 10:00 UTC' in bob
    assert "proposal 1" not in bob  # he voted on it
    assert 'proposal 2 "Idea of bob" and proposal 3 "Idea of carol"' in Outbox.body(
        reminders[addr("alice")]
    )
    clock.advance(hours=2)
    referee.tick()
    assert not [m for m in outbox.new() if m["X-Mailref-Kind"] == "reminder"]  # once
    assert_replays(referee)
