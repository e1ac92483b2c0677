"""[Withdraw] where a variant has none says what the rules or the game's orders offer instead."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, mail
from support.joining import confirm_waiting
from support.outside_smtp import ALICE, BOB, EMPIRE, NOMES, alice_alone, error_of

pytestmark = pytest.mark.spec("2.5")


def test_withdraw_in_sidekick_and_imperial_says_what_the_rules_offer_instead(referee, smtp):
    """[Withdraw] N is a word a player obviously means: Sidekick and Imperial have no withdrawal
    in their rules, so the answer says so and what the rules offer instead, never "not a
    command"; the proposal stays as it was."""
    referee.create_game("nomes", "sidekick", NOMES, name="Nomes")
    referee.create_game("empire", "imperial", EMPIRE, name="Empire")
    for who in (ALICE, BOB):
        smtp(mail(who, NOMES, "[Join]", f"Name: {who.split('@')[0].title()}"), who, NOMES)
        confirm_waiting(referee)
        smtp(mail(who, EMPIRE, "[Join]", f"Name: {who.split('@')[0].title()}"), who, EMPIRE)
        confirm_waiting(referee)
    mover = referee.state("nomes")["turn"]["player"]
    mover_addr = f"{mover.lower()}@x.org"
    smtp(
        mail(mover_addr, NOMES, "[Proposal] Tea", 'Enact rule 24 "Tea":\nTea is served.'),
        mover_addr,
        NOMES,
    )
    smtp(mail(BOB, EMPIRE, "[Proposal] Hats", "Everyone wears a hat."), BOB, EMPIRE)
    box = Outbox(referee)
    box.new()

    smtp(mail(mover_addr, NOMES, "[Withdraw] 1", "Sorry, I got it wrong."), mover_addr, NOMES)
    said = error_of(box)
    assert "not a command" not in said, said
    assert (
        "Nomic Sidekick Nomic has no withdrawal" in said
        and "[Forfeit]" in said
        and "rule 11" in said
    ), said
    assert referee.state("nomes")["proposals"][0]["status"] == "voting"

    smtp(mail(BOB, EMPIRE, "[Withdraw] 1", "Never mind."), BOB, EMPIRE)
    said = error_of(box)
    assert "not a command" not in said, said
    assert (
        "Imperial Nomic has no withdrawal" in said
        and "replaces your oldest undecided one (rule 12)" in said
    ), said
    assert referee.state("empire")["proposals"][0]["status"] == "voting"


def test_withdraw_in_an_orders_game_says_what_this_games_orders_allow(referee, smtp):
    """An orders game has no proposals: a player writing [Withdraw] means their orders. The answer
    says what this game's orders_final allows, not "[Withdraw] is not a command"."""
    diplo = "diplo@ref.example"
    box = alice_alone(referee, smtp, "diplo", "orders", diplo, gm="gm@ref.example")
    smtp(mail(ALICE, diplo, "[Withdraw]", "Please forget my orders."), ALICE, diplo)
    said = error_of(box)
    assert "Diplo has no withdrawal: orders sent again replace those already sent" in said, said
    assert referee.admin("diplo", {"type": "set", "values": {"orders_final": "refuse"}}, "gm").ok
    box.new()
    smtp(mail(ALICE, diplo, "[Withdraw] 1", ""), ALICE, diplo)
    assert "orders once sent cannot be changed" in error_of(box)
