"""Relayed discussion is bounded (SPEC §2.3): a player's words reach the others cut to the
game's `max_relayed` characters, saying how much was cut (a 9.7 MB mail was copied whole to
every player); in an orders game a mail that is mostly bold lines and has no [Orders] tag is
refused with "add [Orders]" instead of showing the opponents the orders."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, assert_replays, mail
from support.hostile_smtp import ALICE, BOB, G
from support.joining import confirm_waiting

pytestmark = pytest.mark.spec("2.3")

DIPLO = "diplo@ref.example"
ANN, CY = "ann@x.org", "cy@x.org"


def test_a_megabyte_of_words_reaches_the_others_cut_to_a_few_kb(game, smtp, outbox):
    outbox.new()
    body = "".join(f"Line {n} of a very long speech to the other players.\n" for n in range(20_000))
    smtp(mail(ALICE, G, "A long speech", body), ALICE)
    (copy,) = outbox.to(BOB, outbox.new(), kind="discussion")
    text = Outbox.body(copy)
    assert len(copy.as_bytes()) < 10_000
    assert text.startswith("Line 0 of a very long speech") and "Line 19999" not in text
    assert "more characters cut: the game relays at most 6,000 characters of a mail" in text
    assert_replays(game)


def test_the_gm_sets_how_much_is_relayed(game, smtp, outbox):
    assert game.admin("nomes", {"type": "set", "values": {"max_relayed": "1000"}}, "gm").ok
    outbox.new()
    smtp(mail(ALICE, G, "Shorter", "word " * 2000), ALICE)
    (copy,) = outbox.to(BOB, outbox.new(), kind="discussion")
    assert "at most 1,000 characters" in Outbox.body(copy)
    assert len(Outbox.body(copy)) < 1500
    smtp(mail(ALICE, G, "Short", "A few words for Bob."), ALICE)
    (copy,) = outbox.to(BOB, outbox.new(), kind="discussion")
    assert "A few words for Bob." in Outbox.body(copy) and "cut" not in Outbox.body(copy)


@pytest.fixture
def diplo(referee, smtp):
    referee.create_game("diplo", "orders", DIPLO, gm="gm@ref.example")
    for name, a in (("Ann", ANN), ("Cy", CY)):
        smtp(mail(a, DIPLO, "[Join]", f"Name: {name}"), a, DIPLO)
        confirm_waiting(referee)
    referee.admin("diplo", {"type": "start"}, "gm")
    return referee


def test_bold_orders_without_their_tag_are_refused_not_shown_to_the_opponents(diplo, smtp, outbox):
    outbox.new()
    body = "**Army Paris to Burgundy.**\n**Fleet Brest to Mid-Atlantic.**\nAnn\n"
    smtp(mail(ANN, DIPLO, "My moves", body), ANN, DIPLO)
    new = outbox.new()
    assert outbox.to(CY, new) == []
    (answer,) = outbox.to(ANN, new)
    said = " ".join(Outbox.body(answer).split())
    assert answer["X-Mailref-Kind"] == "error" and "Add [Orders] to the subject" in said, said
    assert "Ann" not in diplo.state("diplo")["orders"]
    # Words with a bold word or two are words: relayed.
    smtp(
        mail(ANN, DIPLO, "Peace?", "Cy, shall we **not** fight over Burgundy this spring?"),
        ANN,
        DIPLO,
    )
    (copy,) = outbox.to(CY, outbox.new(), kind="discussion")
    assert "Burgundy" in Outbox.body(copy)
    assert_replays(diplo)
