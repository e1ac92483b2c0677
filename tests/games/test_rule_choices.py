"""Where the rules are silent or exact: a BlogNomic withdrawal is a self-kill, a failed DoV's ban
counts only Wizards' AGAINSTs, Sidekick's founders draw the order together."""

from __future__ import annotations

import pytest

from support import blognomic as bn
from support.helpers import Outbox, assert_replays
from support.joining import confirm_waiting
from support.play import PLAYERS, addr, send


@pytest.mark.spec("5.2")
def test_a_withdrawal_self_kills_and_fails_only_as_the_oldest_pending_proposal(blognomic_game):
    """Rule "Resolution of Proposals": the oldest pending proposal may be failed when Self-Killed.
    Ann withdraws her newer proposal: it stays pending, holding one of her 2 slots, until her
    older one is decided; then it fails "withdrawn". Withdrawing the oldest fails it at once."""
    game = blognomic_game
    bn.send(game, "Ann", "[Proposal] Gold", bn.PROP)
    bn.send(game, "Ann", "[Proposal] Silver", bn.PROP.replace("Gold", "Silver"))
    bn.send(game, "Ann", "[Withdraw] 2", "")
    ack = Outbox.body(bn.reply(game, "Ann"))
    assert (
        "fails once it is the oldest pending proposal" in ack
        and "counts toward your 2 pending" in ack
    )
    assert bn.matter(game, 2)["status"] == "pending" and bn.matter(game, 2)["self_killed"]
    bn.send(game, "Ann", "[Proposal] Copper", bn.PROP.replace("Gold", "Copper"))
    assert "already have 2 proposals pending" in Outbox.body(bn.reply(game, "Ann"))
    bn.send(game, "Ann", "[Withdraw] 1", "")
    assert (bn.matter(game, 1)["status"], bn.matter(game, 1)["reason"]) == ("failed", "withdrawn")
    assert (bn.matter(game, 2)["status"], bn.matter(game, 2)["reason"]) == ("failed", "withdrawn")
    bn.send(game, "Ann", "[Proposal] Copper", bn.PROP.replace("Gold", "Copper"))
    assert bn.matter(game, 3)["status"] == "pending"


@pytest.mark.spec("5.2")
def test_a_failed_dov_bans_its_author_only_for_an_against_of_a_wizard(blognomic_game):
    """ "if it had at least one AGAINST vote" and "A non-Wizard never has a Vote": Ben votes
    AGAINST and then leaves; the DoV fails at 48 hours with no Wizard's AGAINST, so Ann may
    declare again at once. With Cat's AGAINST standing, the 120 hours hold."""
    game = blognomic_game
    bn.send(game, "Ann", "[DoV] Mine", "")
    bn.send(game, "Ben", "[Vote] 1", "AGAINST")
    bn.send(game, "Ben", "[Quit]", "")
    bn.at(game, hours=48, seconds=1)
    assert bn.matter(game, 1)["status"] == "failed"
    assert "Ann" not in game.state("blog")["dov_cooldown"]
    bn.send(game, "Ann", "[DoV] Mine again", "")
    assert bn.matter(game, 2)["status"] == "pending"
    bn.send(game, "Cat", "[Vote] 2", "AGAINST")
    bn.at(game, hours=48, seconds=1)
    assert bn.matter(game, 2)["status"] == "failed"
    bn.send(game, "Ann", "[DoV] Third time", "")
    assert "120 hours" in Outbox.body(bn.reply(game, "Ann"))


@pytest.mark.spec("5.1")
def test_the_turn_order_is_drawn_among_the_founders_the_game_waits_for(referee, outbox):
    """Rule 6: "a complete list of all players, which has been ordered randomly". With
    `founders=3` the order is drawn, and the first turn opens, when the third player joins, so
    any of the three may move first; later players are inserted at random."""
    referee.create_game(
        "nomes", "sidekick", "nomes@ref.example", gm="gm@ref.example", parameters={"founders": 3}
    )
    for p in PLAYERS[:2]:
        send(referee, p, "[Join]", f"Name: {p.title()}\n")
        confirm_waiting(referee)
    assert referee.state("nomes")["turn"] is None and referee.state("nomes")["order"] == []
    assert not [m for m in outbox.all() if m["X-Mailref-Kind"] == "turn"]
    send(referee, PLAYERS[2], "[Join]", f"Name: {PLAYERS[2].title()}\n")
    confirm_waiting(referee)
    state = referee.state("nomes")
    assert sorted(state["order"]) == ["Alice", "Bob", "Carol"] and state["turn"]["number"] == 1
    told = "\n".join(Outbox.body(m) for m in outbox.all() if m["To"] == addr("alice"))
    assert "The turn order is drawn at random (rule 6):" in told
    assert_replays(referee)
