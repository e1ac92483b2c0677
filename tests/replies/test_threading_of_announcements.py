"""Replies threaded as people read them: reminders and results under their announcement, "Re:" in
any language, results following the ack."""

from __future__ import annotations

import pytest

from support import clients
from support.client_play import NOMES, _ids, last, play, sidekick
from support.helpers import assert_replays
from support.joining import confirm_waiting
from support.play import addr

pytestmark = pytest.mark.spec("2.6")


def test_a_proposals_reminder_and_results_are_threaded_under_its_announcement(
    referee, outbox, clock
):
    """Thunderbird, Apple Mail and Gmail showed "[Proposal 1] Reminder: your vote is due" and
    "[Proposal 1] PASSED" as new threads, apart from the announcement they are about: they
    carried no In-Reply-To / References. They now answer the announcement each player got (the
    author too), and a Reply to the reminder is a vote as before."""
    mover, (early, late) = sidekick(referee)
    ann = {p: last(outbox, p, "announcement", "[Proposal 1]") for p in (early, late, mover)}
    play(referee, clients.gmail(ann[early], addr(early), early, "FOR"))
    clock.advance(days=4, hours=1)
    referee.tick()
    reminder = last(outbox, late, "reminder", "[Proposal 1]")
    assert reminder["In-Reply-To"] == ann[late]["Message-ID"] == reminder["References"]
    play(referee, clients.iphone(reminder, addr(late), late, "Against"))
    assert referee.state("nomes")["proposals"][0]["votes"][late] == "AGAINST"
    for p, opened in ((early, ann[early]), (mover, ann[mover])):
        results = last(outbox, p, "results", "[Proposal 1]")
        assert results["In-Reply-To"] == opened["Message-ID"], p
    assert len(set(_ids(outbox))) == len(_ids(outbox))  # every mail its own Message-ID
    assert_replays(referee)


def test_an_orders_turns_reminder_and_results_are_threaded_under_the_turn_mail(
    referee, outbox, clock
):
    """The same for an orders game: the reminder, "Your orders did not arrive" and the GM's
    results answer the turn mail each player got; the GM's "Orders of all players" too."""
    referee.create_game(
        "war", "orders", "war@ref.example", gm="gm@ref.example", parameters={"turn_length": "2d"}
    )
    for p in ("Alice", "Bob"):
        play(referee, clients.fresh(addr(p), p, "war@ref.example", "[Join]", f"Name: {p}\n"))
        confirm_waiting(referee)
    referee.admin("war", {"type": "start"}, "gm@ref.example")
    turn = {p: last(outbox, p, "turn", "[Turn 1]") for p in ("Alice", "Bob")}
    play(
        referee,
        clients.thunderbird(turn["Alice"], addr("Alice"), "Alice", "**Move the fleet to Brest.**"),
    )
    clock.advance(days=1, hours=13)  # the reminder comes 12 h before the deadline (reminder_before)
    referee.tick()
    assert last(outbox, "Bob", "reminder")["In-Reply-To"] == turn["Bob"]["Message-ID"]
    clock.advance(hours=11)
    referee.tick()
    assert last(outbox, "Bob", "late")["In-Reply-To"] == turn["Bob"]["Message-ID"]
    digest = next(
        m
        for m in outbox.all()
        if m["To"] == "gm@ref.example" and "Orders of all players" in m["Subject"]
    )
    referee.accept(
        clients.gmail(digest, "gm@ref.example", "The GM", "The fleet reaches Brest."),
        "smtp",
        "gm@ref.example",
        ["war@ref.example"],
    )
    for p in ("Alice", "Bob"):
        assert (
            last(outbox, p, "results", "[Results] Turn 1")["In-Reply-To"] == turn[p]["Message-ID"]
        ), p
    assert last(outbox, "Alice", "turn", "[Turn 2]")["Message-ID"] != turn["Alice"]["Message-ID"]
    assert len(set(_ids(outbox))) == len(_ids(outbox))
    assert_replays(referee)


@pytest.mark.parametrize("prefix", ["AW: ", "SV: ", "RE : ", "Antw: ", "R: ", "Re: AW: "])
def test_the_answer_to_a_reply_in_any_language_is_titled_re(referee, outbox, prefix):
    """Outlook in German, Swedish, French or Dutch titles a reply "AW:", "SV:", "RE :", "Antw:":
    the referee's answer was "Re: AW: [Nomes] [Proposal 1] Tea time", a prefix more at every
    round of the thread. It is now "Re: [Nomes] [Proposal 1] Tea time", as a client writes it."""
    mover, (voter, _) = sidekick(referee)
    ann = last(outbox, voter, "announcement", "[Proposal 1]")
    play(referee, clients.outlook(ann, addr(voter), voter, "FOR", prefix=prefix))
    assert (
        str(last(outbox, voter, "ack")["Subject"])
        == "Re: [Nomic Sidekick Nomic] [Proposal 1] Tea time"
    )


def test_the_authors_results_follow_the_announcement_at_an_address_of_an_international_domain(
    referee, outbox
):
    """The author's results answer the author's own copy of the announcement, for an address
    whose domain is written in Unicode (mail goes to its ASCII form) too."""
    referee.create_game("nomes", "sidekick", NOMES, gm="gm@ref.example")
    for p in ("Alice", "Bob"):
        raw = clients.fresh(f"{p.lower()}@bücher.example", p, NOMES, "[Join]", f"Name: {p}\n")
        referee.accept(raw, "smtp", f"{p.lower()}@bücher.example", [NOMES])
        confirm_waiting(referee)
    mover = referee.state("nomes")["turn"]["player"]
    other = "Bob" if mover == "Alice" else "Alice"
    frm = f"{mover.lower()}@bücher.example"
    referee.accept(
        clients.fresh(frm, mover, NOMES, "[Proposal] Tea", 'Enact rule 24 "Tea":\nDrink tea.\n'),
        "smtp",
        frm,
        [NOMES],
    )
    referee.accept(
        clients.fresh(f"{other.lower()}@bücher.example", other, NOMES, "[Vote] 1", "FOR"),
        "smtp",
        f"{other.lower()}@bücher.example",
        [NOMES],
    )
    to = f"{mover.lower()}@xn--bcher-kva.example"
    ann = next(
        m
        for m in outbox.all()
        if m["To"] == to
        and m["X-Mailref-Kind"] == "announcement"
        and "[Proposal 1] Tea" in str(m["Subject"])
    )
    results = next(m for m in outbox.all() if m["To"] == to and m["X-Mailref-Kind"] == "results")
    assert results["In-Reply-To"] == ann["Message-ID"]
