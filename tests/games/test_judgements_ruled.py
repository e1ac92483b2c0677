"""Judgements already ruled: a reply says so, and a ruling typed under its tag is announced without
it."""

from __future__ import annotations

import pytest

from support import clients
from support.client_play import NOMES, last, play
from support.helpers import Outbox
from support.joining import confirm_waiting
from support.play import addr

pytestmark = pytest.mark.spec("5.1")


def test_a_reply_to_a_judgement_already_ruled_says_so(referee, outbox):
    """Carol ruled on judgement 1 from her iPhone, then answered the ack with Outlook (about
    something else). She was told "only its judge (Carol) answers it, with a mail [Ruling] 1":
    she is the judge. A reply to a judgement already ruled on says that it was."""
    referee.create_game("nomes", "sidekick", NOMES, gm="gm@ref.example")
    for p in ("Alice", "Bob", "Carol"):
        play(referee, clients.fresh(addr(p), p, NOMES, "[Join]", f"Name: {p}\n"))
        confirm_waiting(referee)
    asker = referee.state("nomes")["order"][1]  # the judge is the player before the mover (rule 17)
    play(
        referee,
        clients.fresh(addr(asker), asker, NOMES, "[CfJ] Can tea be coffee?", "Rule 24 is unclear."),
    )
    judge = referee.state("nomes")["judgements"][0]["judge"]
    assert judge != asker
    play(
        referee,
        clients.iphone(last(outbox, judge, "judge"), addr(judge), judge, "FALSE. Tea is tea."),
    )
    play(
        referee,
        clients.outlook(
            last(outbox, judge, "ack"), addr(judge), judge, "Thanks, all clear.", prefix="RE: "
        ),
    )
    text = Outbox.body(last(outbox, judge, "error"))
    assert (
        f"judgement 1 was already ruled on by {judge}; a reply to it changes nothing" in text
    ), text
    assert "only its judge" not in text


def test_a_ruling_typed_under_its_tag_is_announced_without_it(referee, outbox):
    """The Emperor answered a Point of Order from her iPhone by Reply, writing "[Ruling] The
    Senate builds roads." as the subject would be: every player read "Ruling: [Ruling] The Senate
    builds roads.". The tag at the top of the body is the command, not the ruling."""
    referee.create_game("emp", "imperial", "emp@ref.example", gm="gm@ref.example")
    for p in ("Alice", "Bob"):
        play(referee, clients.fresh(addr(p), p, "emp@ref.example", "[Join]", f"Name: {p}\n"))
        confirm_waiting(referee)
    play(
        referee,
        clients.fresh(
            addr("Bob"), "Bob", "emp@ref.example", "[Point of Order] Who builds roads?", "Asking."
        ),
    )
    asked = last(outbox, "Alice", "announcement", "[Point of Order 1]")
    play(
        referee, clients.iphone(asked, addr("Alice"), "Alice", "[Ruling] The Senate builds roads.")
    )
    assert referee.state("emp")["judgements"][0]["ruling"] == "The Senate builds roads."
