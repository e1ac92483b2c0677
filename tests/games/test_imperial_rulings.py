"""The Emperor's ruling on a Point of Order carries out its effect lines (SPEC §4.4), or is
refused naming the one it cannot."""

from __future__ import annotations

import pytest

from support import imperial as emp
from support.helpers import Outbox

pytestmark = pytest.mark.spec("4.4")


def test_a_point_of_order_ruling_carries_out_its_effect_lines(imperial_game, outbox):
    """The Emperor's ruling on a Point of Order with "Score Ann -5" was announced, and nothing
    happened. Now the score changes and the announcement says so; a line naming nobody in the
    game is refused, naming it, and nothing is announced."""
    game = imperial_game
    emp.send(game, "Joe", "[Ruling] 1", "Ann spoke out of turn.\nScore Nobody -5\n")
    assert "Nobody" in Outbox.body(emp.reply(game, "Joe"))
    assert game.state("empire")["judgements"][0]["status"] == "open"
    before = next(p for p in game.state("empire")["players"] if p["name"] == "Ann")["score"]
    emp.send(game, "Joe", "[Ruling] 1", "Ann spoke out of turn.\nScore Ann -5\n")
    ann = next(p for p in game.state("empire")["players"] if p["name"] == "Ann")
    assert ann["score"] == before - 5
    ruling = [m for m in outbox.all() if "The Emperor rules" in str(m["Subject"])][-1]
    assert f"Score of Ann: {before} -> {before - 5} (Point of Order 1)." in Outbox.body(ruling)
