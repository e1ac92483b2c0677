"""Ledgers by mail (SPEC §5.2): a column of kind "asset", declared by a rule's words or by the
GM, moves only by `[Transfer]` (both sides in one entry, never below zero), by the GM and by
corrections; a player's `[Update]` of it is refused, as an officer's ledger is kept."""

from __future__ import annotations

import pytest

from support.blognomic import NAMES, at, reply, send
from support.declared import assert_declared
from support.helpers import Outbox, send_mail

pytestmark = pytest.mark.spec("5.2")

COINS = (
    'Enact a new rule entitled "Treasury" with the following text:\n'
    "Each Wizard has an amount of Coins, which is an asset. Coins defaults to 10.\n"
)


@pytest.fixture
def game(blognomic_game):
    yield blognomic_game
    assert_declared(blognomic_game)


def coins(game, who: str) -> int:
    return game.state("blog")["gamestate"]["values"][who]["coins"]


def gm(game, subject: str, body: str = "") -> None:
    """The GM's mail, as a Reply to the game's welcome: only the GM has its Message-ID."""
    (welcome,) = [m for m in Outbox(game).to("gm@ref.example") if "is open at" in m["Subject"]]
    send_mail(
        game, "gm@ref.example", "blog@ref.example", subject, body, in_reply_to=welcome["Message-ID"]
    )


def enact_coins(game) -> None:
    send(game, "Ann", "[Proposal] Treasury", COINS)
    for n in ("Ben", "Cat", "Dan"):
        send(game, n, "[Vote] 1", "FOR")
    at(game, hours=12)


def test_a_rule_declares_an_asset_every_wizard_holds(game):
    """ "Each Wizard has an amount of Coins, which is an asset": a ledger column, 10 each."""
    enact_coins(game)
    column = next(c for c in game.state("blog")["gamestate"]["columns"] if c["slug"] == "coins")
    assert (column["kind"], column["min"], column["default"]) == ("asset", 0, 10)
    assert all(coins(game, n) == 10 for n in NAMES)


def test_a_transfer_of_an_asset_moves_both_sides_in_one_entry(game):
    enact_coins(game)
    send(game, "Ann", "[Transfer] 4 Coins to Ben because rent")
    assert (coins(game, "Ann"), coins(game, "Ben")) == (6, 14)
    body = Outbox.body(reply(game, "Ann"))
    assert "Coins of Ann: 10 -> 6" in body and "Coins of Ben: 10 -> 14" in body
    from mailref.cli.court import journal_rows

    last = journal_rows(game, "blog")[-1]
    assert last["action"] == "transfer" and len(last["what"]) == 2
    send(game, "Ann", "[Transfer] 7 Coins to Ben")
    assert reply(game, "Ann")["X-Mailref-Refusal"] == "column_below"
    assert (coins(game, "Ann"), coins(game, "Ben")) == (6, 14)


def test_a_players_update_of_an_asset_is_refused_and_the_gms_is_made(game):
    """A ledger moves by transfers; the GM (the officer) alone writes it directly."""
    gm(game, "[Column] Coins asset", "Default: 5")
    assert all(coins(game, n) == 5 for n in NAMES)
    send(game, "Ann", "[Update] Coins +5")
    assert reply(game, "Ann")["X-Mailref-Refusal"] == "asset_by_transfer_only"
    assert "[Transfer]" in Outbox.body(reply(game, "Ann"))
    gm(game, "[Update] Coins of Ben +5 because the weekly wage")
    assert (coins(game, "Ann"), coins(game, "Ben")) == (5, 10)
    gm(game, "[Update] Coins of Ben -11")
    assert coins(game, "Ben") == 10  # never below zero, the GM's neither


def test_a_transfer_of_a_list_is_refused_with_what_may_be_transferred(game):
    gm(game, "[Column] Coins asset")
    send(game, "Ann", "[Transfer] 1 Hand to Ben")
    assert reply(game, "Ann")["X-Mailref-Refusal"] == "transfer_not_an_amount"
    assert "Hand" in Outbox.body(reply(game, "Ann"))
