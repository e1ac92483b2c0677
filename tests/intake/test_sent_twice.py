"""The same proposal or orders sent twice are one: one proposal, the senator's oldest kept, the
orders said to stand."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, assert_replays
from support.joining import confirm_waiting
from support.long_games import BLOG, EIRE, EMP, blog, eire, last, new_rule
from support.play import addr, send  # the same players' addresses, mail sent the same way

pytestmark = pytest.mark.spec("2.1")


def test_the_same_proposal_sent_twice_is_one_proposal(referee, outbox, clock):
    """Alice's client sent her proposal twice (a new Message-ID each time: Send pressed again
    after a timeout). BlogNomic made proposals 1 and 2 of the same text, and the copy used up
    her second pending slot (rule "Proposals": at most 2 pending); everybody was asked to vote
    twice. The copy is now refused with the number of the first; a changed text is a new one."""
    blog(referee)
    body = new_rule("Gold", "Each Wizard has 3 Gold.")
    send(referee, "alice", "[Proposal] Gold", body, to=BLOG)
    outbox.new()
    send(referee, "alice", "[Proposal] Gold", body.replace("\n", "\r\n") + "\n", to=BLOG)
    new = outbox.new()
    assert [(m["To"], m["X-Mailref-Kind"]) for m in new] == [(addr("alice"), "error")]
    text = Outbox.body(new[0])
    assert 'this repeats your proposal 1 "Gold" of Tue 1 Dec 2026 10:00 UTC, word for word' in text
    assert "send [Withdraw] 1 and propose it again" in text
    assert len(referee.state("blog")["proposals"]) == 1
    # Her next, different proposal is taken: the copy used no slot.
    send(referee, "alice", "[Proposal] Gold", new_rule("Gold", "Each Wizard has 4 Gold."), to=BLOG)
    assert [p["number"] for p in referee.state("blog")["proposals"]] == [1, 2]
    # A CfJ asked twice is one CfJ too.
    send(referee, "bob", "[CfJ] Is Gold legal?", "Please judge.", to=BLOG)
    outbox.new()
    send(referee, "bob", "[CfJ] Is Gold legal?", "Please judge.", to=BLOG)
    assert "this repeats your CfJ 3" in Outbox.body(last(outbox, addr("bob"), "error"))
    assert len(referee.state("blog")["judgements"]) == 1
    assert_replays(referee)


def test_an_imperial_proposal_sent_twice_does_not_replace_the_senators_oldest(
    referee, outbox, clock
):
    """Imperial rule 12: a Senator with 3 undecided proposals who submits another loses the
    oldest. Carol's third proposal, sent twice by her client, replaced her first one (and
    made a fourth, a copy of the third)."""
    referee.create_game("emp", "imperial", EMP, gm="gm@ref.example")
    for p in ("alice", "bob", "carol"):
        send(referee, p, "[Join]", f"Name: {p.title()}\n", to=EMP)
        confirm_waiting(referee)
    for n in (1, 2, 3):
        send(referee, "carol", f"[Proposal] Idea {n}", f"Idea number {n}.", to=EMP)
    outbox.new()
    send(referee, "carol", "[Proposal] Idea 3", "Idea number 3.", to=EMP)
    new = outbox.new()
    assert [(m["To"], m["X-Mailref-Kind"]) for m in new] == [(addr("carol"), "error")]
    assert 'this repeats your proposal 3 "Idea 3"' in Outbox.body(new[0])
    assert [(p["number"], p["status"]) for p in referee.state("emp")["proposals"]] == [
        (1, "voting"),
        (2, "voting"),
        (3, "voting"),
    ]
    send(referee, "carol", "[Point of Order] Who judges?", "Please.", to=EMP)
    send(referee, "carol", "[Point of Order] Who judges?", "Please.", to=EMP)
    assert "this repeats your Point of Order 1" in Outbox.body(last(outbox, addr("carol"), "error"))
    assert len(referee.state("emp")["judgements"]) == 1
    assert_replays(referee)


def test_the_same_orders_sent_twice_are_said_to_stand(referee, outbox, clock):
    """Finn's client sent his Eire orders twice. The copy was answered "you cannot edit your
    orders once you've sent them", and Finn wrote to the GM fearing they were lost. The copy
    of orders already recorded now says they stand; changed orders are refused as before."""
    eire(
        referee,
        Finn="Color: Green\nTribe: Plainsmen\nOrigin: Llanc",
        Maeve="Color: Red\nTribe: Plainsmen\nOrigin: Donal",
    )
    send(
        referee,
        "finn",
        "[Orders]",
        "**Defend Llanc with 5 Grain.**\n**Invest 5 Grain in Llanc.**",
        to=EIRE,
    )
    send(
        referee,
        "finn",
        "[Orders]",
        "Again:\n\n**Defend Llanc with 5 Grain**\n**invest 5 Grain in Llanc.**",
        to=EIRE,
    )
    error = last(outbox, addr("finn"), "error")
    assert error["X-Mailref-Refusal"] == "orders_sent_again"
    text = Outbox.body(error)
    assert (
        "these are the orders you sent Tue 1 Dec 2026 10:00 UTC, word for word: they are recorded "
        "and stand" in text
    )
    send(referee, "finn", "[Orders]", "**Defend Llanc with 9 Grain.**", to=EIRE)
    error = last(outbox, addr("finn"), "error")
    assert error["X-Mailref-Refusal"] == "orders_are_final"
    assert "you cannot edit your orders once you've sent them" in Outbox.body(error)
    assert [o["text"] for o in referee.state("eire")["orders"]["Finn"]["orders"]] == [
        "Defend Llanc with 5 Grain",
        "Invest 5 Grain in Llanc",
    ]
    assert_replays(referee)
