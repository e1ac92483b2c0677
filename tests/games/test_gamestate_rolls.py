"""A `[Roll]` named in a later `[Update]` (SPEC §5.2; the seed's Dice: a roll "in the GNDT" is
used for the action it was rolled for): `Thaum +DICE6 from roll 3` adds that roll's result,
once only, and only its roller's."""

from __future__ import annotations

import pytest

from support.blognomic import reply, send
from support.declared import assert_declared
from support.helpers import Outbox

pytestmark = pytest.mark.spec("5.2")


@pytest.fixture
def game(blognomic_game):
    yield blognomic_game
    assert_declared(blognomic_game)


def thaum(game, who: str) -> int:
    return game.state("blog")["gamestate"]["values"][who]["thaum"]


def roll(game, who: str, dice: str) -> int:
    """WHO rolls DICE by mail; the roll's number, as the answer tells it."""
    send(game, who, f"[Roll] {dice}")
    number = len(game.state("blog")["rolls"])
    assert f"roll {number}" in Outbox.body(reply(game, who))
    return number


def test_an_update_uses_a_named_roll_once(game):
    n = roll(game, "Ann", "DICE6")
    result = game.state("blog")["rolls"][n - 1]["values"][0]
    send(game, "Ann", f"[Update] Thaum +DICE6 from roll {n}")
    assert thaum(game, "Ann") == result
    assert f"Thaum of Ann: 0 -> {result}" in Outbox.body(reply(game, "Ann"))
    assert game.state("blog")["gamestate"]["log"][-1]["why"] == f"roll {n}"
    send(game, "Ann", f"[Update] Thaum +roll {n}")
    assert reply(game, "Ann")["X-Mailref-Refusal"] == "roll_used"
    assert thaum(game, "Ann") == result


def test_a_generators_roll_is_used_as_its_word(game):
    n = roll(game, "Ann", "FRUIT")
    fruit = game.state("blog")["rolls"][n - 1]["values"][0]
    send(game, "Ann", f"[Update] Hand + FRUIT from roll {n}")
    assert game.state("blog")["gamestate"]["values"]["Ann"]["hand"] == [fruit]


@pytest.mark.parametrize(
    ("who", "line", "code"),
    [
        ("Ben", "Thaum +DICE6 from roll 1", "roll_not_yours"),
        ("Ann", "Thaum +DICE20 from roll 1", "roll_other_dice"),
        ("Ann", "Thaum +roll 9", "no_such_roll"),
        ("Ann", "Thaum +roll 1\nThaum of Ben +roll 1", "roll_used"),
    ],
)
def test_a_roll_that_may_not_be_used_refuses_the_update(game, who, line, code):
    roll(game, "Ann", "DICE6")
    first, _, rest = line.partition("\n")
    send(game, who, f"[Update] {first}", rest)
    assert reply(game, who)["X-Mailref-Refusal"] == code
    assert (thaum(game, "Ann"), thaum(game, "Ben")) == (0, 0)
    assert "used" not in game.state("blog")["rolls"][0]


def test_a_roll_used_in_its_own_update_is_not_used_again(game):
    """`Thaum +DICE6` uses its roll in place; a `DICE20` line alone is kept for a later update."""
    send(game, "Ann", "[Update] Thaum +DICE6", "DICE20 for the deal")
    kept = game.state("blog")["rolls"][-1]["values"][0]
    assert "(roll 2)" in Outbox.body(reply(game, "Ann"))
    send(game, "Ann", "[Update] Thaum +roll 1")
    assert reply(game, "Ann")["X-Mailref-Refusal"] == "roll_used"
    before = thaum(game, "Ann")
    send(game, "Ann", "[Update] Thaum +DICE20 from roll 2")
    assert thaum(game, "Ann") == before + kept
