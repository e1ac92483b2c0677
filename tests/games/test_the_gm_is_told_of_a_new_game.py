"""The GM of a new game is mailed at once: what the game is, its address, how to invite
players and the GM's commands by mail; a BlogNomic game adds that it begins as a
Metadynasty and is Dormant until enough Wizards play. Nothing was mailed before."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, assert_replays

pytestmark = pytest.mark.spec("1.4")

GM = "gm@ref.example"


def test_the_gm_of_a_new_blognomic_game_is_told_what_it_is_and_how_to_run_it(referee, outbox):
    referee.create_game("blog", "blognomic", "blog@ref.example", name="Blog", gm=GM)
    (told,) = outbox.to(GM, outbox.new())
    assert told["X-Mailref-Kind"] == "notice" and "blog@ref.example" in str(told["Subject"])
    said = " ".join(Outbox.body(told).split())
    for words in (
        "Blog, a game of BlogNomic, is open at blog@ref.example, with you (gm@ref.example)",
        "the subject [Join] and a line `Name: THEIR NAME`",
        "[Deadline] +2d",
        "ok or no, as a Reply to a player's request for more time",
        "[Score] NAME +2 (or -2, =2), as a Reply to the game's mail: change a player's score",
        "as a Metadynasty: there is no Historian, so a DEFERENTIAL vote follows nobody and "
        "nobody may VETO",
        "It is Dormant until 5 Wizards play",
        "mailref game set blog dormant_below=3",
    ):
        assert words in said, (words, said)
    assert "[Approve]" not in said  # joins are taken in without the GM here
    assert_replays(referee)


def test_a_game_that_waits_for_the_gm_tells_the_gm_of_approve(referee, outbox):
    referee.create_game(
        "nomes", "sidekick", "nomes@ref.example", gm=GM, parameters={"join_approval": "gm"}
    )
    (told,) = outbox.to(GM, outbox.new())
    said = " ".join(Outbox.body(told).split())
    assert "you take them in with [Approve] NAME" in said, said
    assert "Metadynasty" not in said and "Dormant" not in said


def test_a_game_without_a_gm_mails_nobody_at_creation(referee, outbox):
    referee.create_game("nomes", "sidekick", "nomes@ref.example")
    assert outbox.new() == []
