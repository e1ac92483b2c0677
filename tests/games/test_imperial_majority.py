"""Imperial rule 6's majority is a switch: amended so that one YES suffices, the referee passes a
proposal with one YES to the Emperor."""

from __future__ import annotations

import pytest

from mailref.engine.ruleparams import read
from mailref.engine.variants.rule_tables import IMPERIAL
from support import imperial as emp
from support.helpers import Outbox

pytestmark = pytest.mark.spec("5.1")

RULE_6 = (
    "After the voting dealine has been reached and after tallying the votes there is a majority "
    "of Imperial Senators who have sent in a vote of YES, the proposal is passed to the Imperial "
    "Emporer for his judgement."
)


@pytest.mark.parametrize(
    ("text", "word"),
    [
        (RULE_6, "majority"),
        (RULE_6.replace("there is a majority of Imperial Senators", "at least one Senator"), "one"),
        ("One YES suffices to pass the proposal to the Emperor.", "one"),
        ("Two thirds of the Senators must vote YES.", None),
    ],
)
def test_rule_6_says_how_many_yes_pass_a_proposal(text, word):
    assert read(IMPERIAL["majority"], text) == word


def test_rule_6_amended_so_one_yes_suffices_passes_a_proposal_with_one_yes(imperial_game, outbox):
    """Rule 6 "one YES suffices": the next proposal with one YES of three used to be "No
    majority … rejected", silently. Now it goes to the Emperor."""
    game = imperial_game
    emp.send(
        game,
        "Ann",
        "[Proposal] One is enough",
        'In rule 6, replace "there is a majority of Imperial Senators who have sent in a vote of '
        'YES" with "at least one Imperial Senator has sent in a vote of YES".\n',
    )
    for n in ("Ben", "Cat", "Dan"):
        emp.send(game, n, "Re: [Proposal 1] One is enough", "YES")
    emp.at(game, days=4, seconds=1)
    emp.send(game, "Joe", "[Judge] 1", "ACCEPT")
    assert game.state("empire")["parameters"]["majority"] == "one"
    assert "(majority: majority -> one)" in Outbox.body(emp.reply(game, "Ben"))

    emp.send(game, "Ben", "[Proposal] Hats", 'Enact rule 40 "Hats":\nHats exist.\n')
    emp.send(game, "Cat", "Re: [Proposal 2] Hats", "YES")
    emp.send(game, "Dan", "Re: [Proposal 2] Hats", "NO")
    emp.at(game, days=4, seconds=1)
    assert emp.prop(game, 2)["status"] == "awaiting-judgement"
