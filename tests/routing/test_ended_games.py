"""Mail to an ended game says who won, not how to write it."""

from __future__ import annotations

import pytest

from support.helpers import Outbox
from support.joining import confirm_waiting
from support.play import addr, send  # the same players' addresses, mail sent the same way
from support.play_four import PLAYERS, last, nomes

pytestmark = pytest.mark.spec("2.3")


def test_mail_to_an_ended_game_says_who_won_not_how_to_write_it(referee, outbox):
    """Dan's [Join] to a finished game was answered "this game has ended. How to write it:
    Winners: Bob Brown"."""
    mover = nomes(referee, win_score=10)
    send(
        referee,
        mover.lower(),
        "[Proposal] Hats",
        'Enact rule 24 "Hats":\nEvery player wears a hat.\n',
    )
    for p in PLAYERS:
        if p.title() != mover:
            send(referee, p, "[Vote] 1", "FOR")
    assert referee.state("nomes")["status"] == "ended"
    send(referee, "dan", "[Join]", "Name: Dan")
    confirm_waiting(referee)
    error = last(outbox, addr("dan"), "error")
    assert error["X-Mailref-Refusal"] == "game_ended"
    answer = Outbox.body(error)
    assert f"Not done: Nomic Sidekick Nomic has ended; won by {mover}." in answer
    assert "Send [Status] or [Rules] to read how it ended" in answer and "Winners:" not in answer
