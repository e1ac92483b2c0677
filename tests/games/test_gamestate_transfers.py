"""`[Transfer]` by mail (SPEC §5.2; the seed's Clarifications: "to "transfer" X of a numeric
value "V" from A to B means to subtract X from A's V and add X to B's V"): both sides in one
entry, never below zero, only positive amounts, to another player."""

from __future__ import annotations

import pytest

from support.blognomic import reply, send
from support.declared import assert_declared
from support.helpers import Outbox

pytestmark = pytest.mark.spec("5.2")


@pytest.fixture
def game(blognomic_game):
    send(blognomic_game, "Ann", "[Update] Thaum +5")
    yield blognomic_game
    assert_declared(blognomic_game)


def thaum(game, who: str) -> int:
    return game.state("blog")["gamestate"]["values"][who]["thaum"]


def test_a_transfer_moves_the_amount_from_one_to_the_other(game):
    send(game, "Ann", "[Transfer] 3 Thaum to Ben because rule 2.14")
    assert (thaum(game, "Ann"), thaum(game, "Ben")) == (2, 3)
    body = Outbox.body(reply(game, "Ann"))
    assert "Thaum of Ann: 5 -> 2" in body and "Thaum of Ben: 0 -> 3" in body
    log = game.state("blog")["gamestate"]["log"]
    assert [e["why"] for e in log[-2:]] == ["rule 2.14", "rule 2.14"]


@pytest.mark.parametrize(
    ("subject", "code"),
    [
        ("[Transfer] 6 Thaum to Ben", "column_below"),
        ("[Transfer] 0 Thaum to Ben", "transfer_not_positive"),
        ("[Transfer] 1 Thaum to Ann", "transfer_to_oneself"),
        ("[Transfer] 1 Hand to Ben", "transfer_not_an_amount"),
        ("[Transfer] some Thaum to Ben", "transfer_unreadable"),
    ],
)
def test_a_transfer_that_cannot_be_is_refused_and_nothing_moves(game, subject, code):
    send(game, "Ann", subject)
    assert reply(game, "Ann")["X-Mailref-Refusal"] == code
    assert (thaum(game, "Ann"), thaum(game, "Ben")) == (5, 0)


def test_a_note_under_a_transfer_in_the_subject_is_prose(game):
    """A transfer named in the subject, with a note to its receiver in the body, is made; a
    second body line that tries a transfer is still read as one, and refuses the whole."""
    send(game, "Ann", "[Transfer] 2 Thaum to Ben", "Here you go Ben, for your vote.\n")
    assert (thaum(game, "Ann"), thaum(game, "Ben")) == (3, 2)
    assert "Thaum of Ben: 0 -> 2" in Outbox.body(reply(game, "Ann"))
    send(game, "Ann", "[Transfer] 1 Thaum to Ben", "2 Thaum for Ben\n")
    assert reply(game, "Ann")["X-Mailref-Refusal"] == "transfer_unreadable"
    assert (thaum(game, "Ann"), thaum(game, "Ben")) == (3, 2)
