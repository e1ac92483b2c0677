"""The final scores of a won game read as a table of results."""

from __future__ import annotations

import pytest

from support.helpers import Outbox
from support.long_games import last, nomes
from support.play import addr, send  # the same players' addresses, mail sent the same way

pytestmark = pytest.mark.spec("2.6")


def test_the_final_scores_of_a_won_game_read_as_a_table_of_results(referee, outbox, clock):
    """ "Alice reaches 100 points and wins" was followed by the scores in joining order (Alice
    100, Bob 50, Carol 80): the winner first, then by score."""
    mover = nomes(referee)
    others = [p for p in ("Alice", "Bob", "Carol") if p != mover]
    for name, score in ((mover, 90), (others[0], 50), (others[1], 80)):
        referee.admin(
            "nomes", {"type": "score", "player": name, "op": "=", "amount": score}, "gm@ref.example"
        )
    send(referee, mover.lower(), "[Proposal] Win", 'Enact rule 24 "Win":\nI win.\n')
    for p in others:
        send(referee, p.lower(), "[Vote] 1", "FOR")
    text = Outbox.body(last(outbox, addr(others[0]), "results", "is won"))
    assert f"Final scores:\r\n{mover}: 100\r\n{others[1]}: 80\r\n{others[0]}: 50" in text
