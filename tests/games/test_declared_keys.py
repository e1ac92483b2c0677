"""Whole games of each variant keep only keys their types declare (engine/state.py): in the
state, its players, matters, turn and rules, and in every journaled action."""

from __future__ import annotations

import pytest

from support.blognomic import play_a_dynasty_change
from support.declared import assert_declared
from support.imperial import play_a_proclamation, play_an_accepted_proposal
from support.orders_play import play_eire, play_gm_orders

pytestmark = pytest.mark.spec("5")


def test_a_blognomic_dynasty_change_is_declared(blognomic_game):
    play_a_dynasty_change(blognomic_game)
    assert_declared(blognomic_game)


def test_an_imperial_proposal_and_proclamation_are_declared(imperial_game, outbox):
    play_an_accepted_proposal(imperial_game, outbox)
    play_a_proclamation(imperial_game)
    assert_declared(imperial_game)


def test_an_eire_game_is_declared(referee, clock):
    play_eire(referee, clock)
    assert_declared(referee)


def test_a_gm_orders_game_is_declared(referee, clock, outbox):
    play_gm_orders(referee, clock, outbox)
    assert_declared(referee)
