"""Orders games played by mail: a four-player Eire game to a Communion victory, and a
GM-adjudicated `orders` game with the GM posting results."""

from __future__ import annotations

import pytest

from support.helpers import assert_replays
from support.joining import confirm_waiting
from support.orders_play import EIRE, play_eire, play_gm_orders, send

pytestmark = pytest.mark.spec("5.4", "5.5")


def test_four_player_eire_game_by_mail_to_communion(referee, clock):
    play_eire(referee, clock)


def test_orders_game_with_the_gm_posting_results(referee, clock, outbox):
    play_gm_orders(referee, clock, outbox)


def test_an_eire_game_with_refused_orders_replays_without_difference(referee, clock):
    """`mailref replay` reported a difference for every Eire game (refused orders kept as
    tuples live, lists when replayed). The state keeps them as JSON lists, and replay agrees."""
    from mailref.engine.replay import differences

    referee.create_game("eire", "eire", EIRE, gm="gm@ref.example", parameters={"start_grain": "30"})
    for name, color, origin in (("Finn", "Green", "Llanc"), ("Maeve", "Red", "Donal")):
        send(
            referee,
            name,
            EIRE,
            "[Join]",
            f"Name: {name}\nColor: {color}\nTribe: Plainsmen\nOrigin: {origin}",
        )
        confirm_waiting(referee)
    assert referee.admin("eire", {"type": "start"}, "gm").ok
    send(
        referee,
        "Finn",
        EIRE,
        "[Orders]",
        "**Invest 5 Grain in Llanc.** **Attack Atlantis with 5 Grain.**",
    )
    rejected = referee.state("eire")["orders"]["Finn"]["rejected"]
    assert rejected and all(isinstance(r, list) for r in rejected)
    assert differences({"r": [("a", "b")]}, {"r": [["a", "b"]]}) == []
    assert_replays(referee)
