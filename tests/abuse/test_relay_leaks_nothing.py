"""Relayed words leak nothing a forger can use and spend nothing of another game's (SPEC
§2.2): a relayed copy answers the reader's own thread, never the Message-IDs the author's mail
named (a mail the game sent the author alone, which another player could name to spend her
answers); and words are counted per game, so mail forged in one game silences her in none."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, mail
from support.hostile_smtp import ALICE, BOB, G

pytestmark = pytest.mark.spec("2.2")

OTHER = "other@ref.example"


def test_a_relayed_copy_names_none_of_the_authors_message_ids(game, smtp, outbox):
    outbox.new()
    private = "<answer.7f3a@ref.example>"  # as a mail the game sent Alice alone
    smtp(
        mail(ALICE, G, "Re: Where we stand", "Bob, see where we stand?", in_reply_to=private),
        ALICE,
    )
    (copy,) = outbox.to(BOB, outbox.new(), kind="discussion")
    assert private not in str(copy["In-Reply-To"]) and private not in str(copy["References"])
    assert copy["In-Reply-To"]  # threaded all the same: under Bob's own thread of the subject
    smtp(mail(ALICE, G, "Re: Where we stand", "And again.", in_reply_to=private), ALICE)
    (again,) = outbox.to(BOB, outbox.new(), kind="discussion")
    assert again["In-Reply-To"] == copy["In-Reply-To"]


def test_words_forged_in_one_game_silence_the_player_in_none_other(game, smtp, outbox):
    game.create_game("other", "sidekick", OTHER, gm="gm@ref.example")
    for name, a in (("Alice", ALICE), ("Bob", BOB)):
        game.admin("other", {"type": "player_add", "name": name, "address": a, "more": []}, "x")
    for n in range(25):  # forged From Alice, in the first game
        smtp(mail(ALICE, G, f"Chatter {n}", "Noise."), "forger@evil.example")
    outbox.new()
    smtp(mail(ALICE, OTHER, "A plan", "Bob, shall we?"), ALICE, OTHER)
    (copy,) = outbox.to(BOB, outbox.new(), kind="discussion")
    assert "Bob, shall we?" in Outbox.body(copy)
