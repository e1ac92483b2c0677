"""Trades by mail (the seed's rule 2.10 "Trading"; SPEC §5.2): announced to both, performed when
the other accepts within `trade_window`, both cards changing hands at once."""

from __future__ import annotations

import pytest

from support.blognomic import addr, at, reply, send
from support.declared import assert_declared
from support.helpers import Outbox

pytestmark = pytest.mark.spec("5.2")


@pytest.fixture
def game(blognomic_game):
    send(blognomic_game, "Ann", "[Update] Hand: Fox, Fire")
    send(blognomic_game, "Ben", "[Update] Hand: Owl")
    yield blognomic_game
    assert_declared(blognomic_game)


def hands(game) -> tuple[list, list]:
    v = game.state("blog")["gamestate"]["values"]
    return v["Ann"]["hand"], v["Ben"]["hand"]


def test_a_trade_accepted_in_time_swaps_both_cards_at_once(game):
    """ "The other Wizard may then, within 24 hours, perform this trade (with both cards changing
    hands simultaneously)"."""
    send(game, "Ann", "[Trade] Ben: my Fox for your Owl")
    told = [
        m for m in Outbox(game).all() if m["Subject"].endswith("[Trade 1] Ann's Fox for Ben's Owl")
    ]
    assert sorted(m["To"] for m in told) == [addr("Ann"), addr("Ben")]
    at(game, hours=23)
    send(game, "Ben", "[Trade] Accept 1")
    assert hands(game) == (["Fire", "Owl"], ["Fox"])
    body = Outbox.body(reply(game, "Ben"))
    assert "Trade 1 is done" in body and "Hand of Ann: Fox, Fire -> Fire" in body
    log = game.state("blog")["gamestate"]["log"]
    assert {e["why"] for e in log[-4:]} == {"trade 1"}


def test_a_trade_left_unanswered_expires(game):
    """ "If the trade announcement comment is more than 24 hours old, and the trade has not yet been
    completed, the trade attempt is rendered invalid"."""
    send(game, "Ann", "[Trade] Ben: my Fox for your Owl")
    at(game, hours=24)
    send(game, "Ben", "[Trade] Accept 1")
    assert reply(game, "Ben")["X-Mailref-Refusal"] == "trade_closed"
    assert "expired" in Outbox.body(reply(game, "Ben"))
    assert hands(game) == (["Fox", "Fire"], ["Owl"])


def test_a_card_no_longer_held_cannot_be_traded(game):
    """ "Both cards must still be in their respective Wizards' hands until the trade is
    performed"."""
    send(game, "Ann", "[Trade] Ben: my Fox for your Owl")
    send(game, "Ann", "[Update] Hand - Fox")
    send(game, "Ben", "[Trade] Accept 1")
    assert reply(game, "Ben")["X-Mailref-Refusal"] == "column_lacks"
    assert hands(game) == (["Fire"], ["Owl"])


@pytest.mark.parametrize(
    ("who", "subject", "code"),
    [
        ("Ann", "[Trade] Ben: my Owl for your Fox", "trade_not_held"),
        ("Ann", "[Trade] Ann: my Fox for your Fire", "trade_with_oneself"),
        ("Ann", "[Trade] let's swap", "trade_unreadable"),
        ("Cat", "[Trade] Accept 1", "no_trade_for_you"),
    ],
)
def test_a_trade_that_cannot_be_is_refused(game, who, subject, code):
    send(game, "Ann", "[Trade] Ben: my Fox for your Owl")
    send(game, who, subject)
    assert reply(game, who)["X-Mailref-Refusal"] == code
