"""Reminders: a one-day turn is not reminded with the mail that opens it."""

from __future__ import annotations

import pytest

from support.helpers import assert_replays
from support.play import PLAYERS, addr, kinds, nomes, send

pytestmark = pytest.mark.spec("4.2")


def test_a_one_day_turn_is_not_reminded_with_the_mail_that_opens_it(referee, outbox, clock):
    """A GM runs 1-day turns and votes (the reminder's default is 1 day ahead): the reminder
    used to arrive together with "Your move" and with the proposal it repeats. It now comes
    halfway through, to those who have not acted."""
    mover = nomes(referee, turn_timeout="1d", vote_timeout="1d")
    opened = outbox.all()
    assert kinds(outbox, opened, "turn") == [addr(mover)]
    assert kinds(outbox, opened, "reminder") == []
    clock.advance(hours=11)
    referee.tick()
    assert kinds(outbox, outbox.new(), "reminder") == []
    clock.advance(hours=1, seconds=1)
    referee.tick()
    assert kinds(outbox, outbox.new(), "reminder") == [addr(mover)]

    send(referee, mover, "[Proposal] Quick", 'Enact rule 24 "Quick":\nBe quick.\n')
    voters = [p.title() for p in PLAYERS if p.title() != mover]
    send(referee, voters[0], "[Vote] 1", "FOR")
    assert kinds(outbox, outbox.new(), "reminder") == []
    clock.advance(hours=12, seconds=1)
    referee.tick()
    assert kinds(outbox, outbox.new(), "reminder") == [addr(voters[1])]
    assert_replays(referee)
