"""Eire: a player eliminated in a turn still gets its results."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, assert_replays
from support.long_games import EIRE, eire
from support.play import addr, send  # the same players' addresses, mail sent the same way

pytestmark = pytest.mark.spec("5.4")


def test_a_player_eliminated_in_a_turn_gets_its_results(referee, outbox, clock):
    """Maeve missed turn 1; Oisin walked into Donal, her only land, and she was eliminated.
    The results went to the players still in the game only: Maeve never learnt what happened
    (nor that her color is free for a newcomer, seed 001 "If any Player gets eliminated...").
    Everybody who played the turn now gets its results, once; the next turn is not hers."""
    eire(
        referee,
        Maeve="Color: Red\nTribe: Plainsmen\nOrigin: Donal",
        Oisin="Color: Gold\nTribe: Merfolk\nOrigin: Reudh",
        Finn="Color: Green\nTribe: Plainsmen\nOrigin: Llanc",
    )
    send(referee, "oisin", "[Orders]", "**Attack Donal with 12 Grain.**", to=EIRE)
    send(referee, "finn", "[Orders]", "**Defend Llanc with 5 Grain.**", to=EIRE)
    outbox.new()
    clock.advance(days=2, seconds=1)
    referee.tick()
    new = outbox.new()
    results = [m for m in new if m["X-Mailref-Kind"] == "results"]
    assert sorted(m["To"] for m in results) == sorted(addr(p) for p in ("maeve", "oisin", "finn"))
    mine = next(m for m in results if m["To"] == addr("maeve"))
    assert "Maeve holds no land and is eliminated; the color Red is free." in Outbox.body(mine)
    assert sorted(m["To"] for m in new if m["X-Mailref-Kind"] == "turn") == sorted(
        addr(p) for p in ("oisin", "finn")
    )
    assert_replays(referee)
