"""Replay rebuilds what a player on the daily digest holds (SPEC §8): a [Roll]'s announcement
held for the digest keeps no seed line, which only the live door knows ("Drawn from seed N
(SHA-256 …)"); `mailref replay` said DIFFERS after any roll while a player took the digest."""

from __future__ import annotations

import pytest

from support.helpers import assert_replays, mail
from support.hostile_smtp import ALICE, BOB, G

pytestmark = pytest.mark.spec("8")


def test_a_roll_held_for_a_digest_player_replays_identically(game, smtp, outbox, clock):
    game.rng = None  # the game's seed chain, as a server draws
    smtp(mail(BOB, G, "[Settings]", "digest: daily"), BOB)
    outbox.new()
    smtp(mail(ALICE, G, "[Roll] 2d6", "For the bridge."), ALICE)
    bob = next(p for p in game.state("nomes")["players"] if p["name"] == "Bob")
    (held,) = bob["held"]
    assert any("rolled 2d6" in line for line in held["lines"])
    assert not any("seed" in line for line in held["lines"]), held["lines"]
    assert_replays(game)
