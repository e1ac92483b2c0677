"""A turn order driven directly: names and who may move in, the next mover and the judge out
(mailref/engine/mechanics/turn_order.py)."""

from __future__ import annotations

import pytest

from mailref.engine.mechanics.turn_order import TurnOrder

ORDER = ["Ann", "Bob", "Cy", "Di"]


def _order(*away: str) -> TurnOrder:
    return TurnOrder(ORDER, lambda name: name not in away)


@pytest.mark.parametrize(
    ("after", "away", "mover"),
    [
        ("Ann", (), "Bob"),
        ("Di", (), "Ann"),  # round the order
        ("Ann", ("Bob",), "Cy"),  # an away player is passed over
        ("Zed", (), "Ann"),  # one no longer in the order: from its start
        (None, (), "Ann"),
        ("Ann", ("Bob", "Cy", "Di"), "Ann"),  # the mover again when nobody else can move
        ("Ann", tuple(ORDER), None),  # nobody can move
    ],
)
def test_the_next_mover_is_the_first_after_who_can_move(after, away, mover):
    assert _order(*away).after(after) == mover


@pytest.mark.parametrize(
    ("mover", "away", "judge"),
    [
        ("Cy", (), "Bob"),
        ("Ann", (), "Di"),  # round the order
        ("Cy", ("Bob",), "Ann"),  # the one before, if away
        ("Cy", ("Ann", "Bob", "Di"), None),  # never the mover
        ("Zed", (), None),  # a mover not in the order names no judge
    ],
)
def test_the_judge_is_the_nearest_before_the_mover_who_can_move(mover, away, judge):
    assert _order(*away).before(mover) == judge


def test_an_empty_order_names_nobody():
    assert TurnOrder([], lambda name: True).after(None) is None
