"""[Idle] in a game without idling is its away."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, mail
from support.joining import confirm_waiting
from support.outside_smtp import ALICE, BOB, CAROL, NOMES

pytestmark = pytest.mark.spec("2.5")


def test_idle_in_a_game_without_idling_is_its_away(referee, smtp):
    """SPEC §2: [Idle] in Sidekick was "not a command", though a player
    writing it plainly means being away (BlogNomic, the other way round, takes [Away] as idling).
    [Idle] and [Unidle] are [Away] and [Back] where a game has absence and no idling."""
    referee.create_game("nomes", "sidekick", NOMES, name="Nomes")
    for who in (ALICE, BOB, CAROL):
        smtp(mail(who, NOMES, "[Join]", f"Name: {who.split('@')[0].title()}"), who, NOMES)
        confirm_waiting(referee)
    box = Outbox(referee)
    box.new()
    smtp(mail(BOB, NOMES, "[Idle]", "Back next week."), BOB, NOMES)
    (ack,) = [m for m in box.new() if m["To"] == BOB and m["X-Mailref-Kind"] != "announcement"]
    assert ack["X-Mailref-Kind"] == "ack" and "Bob is now away" in Outbox.body(ack), Outbox.body(
        ack
    )
    assert (
        next(p for p in referee.state("nomes")["players"] if p["name"] == "Bob")["status"] == "away"
    )
    smtp(mail(BOB, NOMES, "[Unidle]", ""), BOB, NOMES)
    assert (
        next(p for p in referee.state("nomes")["players"] if p["name"] == "Bob")["status"]
        == "active"
    )
