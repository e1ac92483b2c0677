"""A command word without brackets is answered with the tag it meant; a roll of nothing is asked
what to roll."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, mail
from support.outside_smtp import ALICE, NOMES, alice_alone, error_of

pytestmark = pytest.mark.spec("2.6")


def test_a_command_word_without_brackets_is_answered_with_the_tag_it_meant(referee, smtp):
    """SPEC §2.5: "Proposal: Caps" got the help alone ("I found no command tag"),
    though the player plainly meant a proposal. The help now starts with what was probably meant,
    in the form it takes; a subject that is no command word still gets the help alone."""
    box = alice_alone(referee, smtp, "nomes", "sidekick", NOMES)
    smtp(
        mail(ALICE, NOMES, "Proposal: Caps", 'Enact rule 24 "Caps":\nCaps are worn.'), ALICE, NOMES
    )
    (reply,) = box.new()
    assert reply["X-Mailref-Kind"] == "help"
    assert Outbox.body(reply).startswith(
        'I found no command tag in your subject: did you mean "[Proposal] Caps"? '
        "A command's tag goes in square brackets"
    ), Outbox.body(reply)[:300]
    assert referee.state("nomes")["proposals"] == []
    smtp(mail(ALICE, NOMES, "Tea tomorrow?", "Who is in?"), ALICE, NOMES)
    (reply,) = box.new()
    assert Outbox.body(reply).startswith(
        "I found no command tag in your subject, so here is the help."
    )


def test_a_roll_of_nothing_is_asked_what_to_roll(referee, smtp):
    """Guards against "[Roll]" with no dice was answered "'' is not a roll I can make"."""
    box = alice_alone(referee, smtp, "nomes", "sidekick", NOMES)
    smtp(mail(ALICE, NOMES, "[Roll]", ""), ALICE, NOMES)
    said = error_of(box)
    assert said.startswith("Not done: say what to roll.") and "[Roll] 2d6+1" in said, said
