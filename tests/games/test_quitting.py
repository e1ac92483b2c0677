"""A player who quits: a turn waiting only for them resolves, the next mover follows, their orders
and votes do not count, a historian or judge is replaced."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, assert_replays
from support.joining import confirm_waiting
from support.long_games import BLOG, EIRE, G, blog, eire, last, new_rule
from support.play import addr, send  # the same players' addresses, mail sent the same way

pytestmark = pytest.mark.spec("2.5")


def test_a_turn_waiting_only_for_a_player_who_leaves_resolves_at_once(referee, outbox, clock):
    """Finn and Maeve had ordered; Oisin, the one the turn waited for, quit. The turn waited two
    more days for its deadline, though nobody else could still order (SPEC §5.4: resolved early
    when all have ordered). It now resolves when he leaves, his lands already independent. In a
    GM-adjudicated game a player set away does the same: the GM gets the orders at once."""
    eire(
        referee,
        Finn="Color: Green\nTribe: Plainsmen\nOrigin: Llanc",
        Maeve="Color: Red\nTribe: Plainsmen\nOrigin: Donal",
        Oisin="Color: Gold\nTribe: Merfolk\nOrigin: Reudh",
    )
    send(referee, "finn", "[Orders]", "**Defend Llanc with 5 Grain.**", to=EIRE)
    send(referee, "maeve", "[Orders]", "**Attack Reudh with 12 Grain.**", to=EIRE)
    assert referee.state("eire")["turn"]["number"] == 1
    outbox.new()
    send(referee, "oisin", "[Quit]", "", to=EIRE)
    state = referee.state("eire")
    assert state["turn"]["number"] == 2
    new = outbox.new()
    results = [m for m in new if m["X-Mailref-Kind"] == "results"]
    assert sorted(m["To"] for m in results) == [addr("finn"), addr("maeve")]
    text = Outbox.body(results[0])
    assert "Turn 1 is resolved (every player still in the game has ordered)." in text
    assert "Reudh (independent) attacked by Maeve with 12" in text  # Oisin's land was his no more
    assert_replays(referee)

    referee.create_game("dip", "orders", "dip@ref.example", gm="gm@ref.example")
    for p in ("ann", "ben", "cat"):
        send(referee, p, "[Join]", f"Name: {p.title()}\n", to="dip@ref.example")
        confirm_waiting(referee)
    referee.admin("dip", {"type": "start"}, "gm@ref.example")
    for p in ("ann", "ben"):
        send(referee, p, "[Orders]", "**A Par H**", to="dip@ref.example")
    outbox.new()
    referee.admin(
        "dip", {"type": "player_status", "name": "Cat", "status": "away"}, "gm@ref.example"
    )
    assert referee.state("dip")["turn"].get("awaiting_results")
    assert [
        m
        for m in outbox.new()
        if m["To"] == "gm@ref.example" and "Orders of all players" in str(m["Subject"])
    ]


def test_a_mover_who_quits_while_the_move_is_voted_on_is_followed_by_the_next_in_order(
    referee, outbox, clock
):
    """The order was Carol, Alice, Bob, Dan; Alice moved, then quit while her proposal was being
    voted on. When the vote closed, turn 2 went to Carol, the first of the order, passing over
    Bob and Dan (rule 6: "The first player on the list moves first, followed by the next")."""
    referee.create_game("nomes", "sidekick", G, gm="gm@ref.example")
    for p in ("alice", "bob", "carol", "dan"):
        send(referee, p, "[Join]", f"Name: {p.title()}\n")
        confirm_waiting(referee)
    state = referee.state("nomes")
    order, mover = state["order"], state["turn"]["player"]
    after = order[(order.index(mover) + 1) % len(order)]
    send(referee, mover.lower(), "[Proposal] Tea", 'Enact rule 24 "Tea":\nTea is served.\n')
    send(referee, mover.lower(), "[Quit]")
    for p in order:
        if p != mover:
            send(referee, p.lower(), "[Vote] 1", "FOR")
    state = referee.state("nomes")
    assert state["proposals"][0]["status"] == "passed"
    assert state["turn"]["number"] == 2 and state["turn"]["player"] == after
    assert [
        m["To"]
        for m in outbox.all()
        if m["X-Mailref-Kind"] == "turn" and "[Turn 2]" in str(m["Subject"])
    ] == [addr(after)]


def test_the_orders_of_one_who_quits_are_not_carried_out(referee, outbox, clock):
    """Oisin ordered an attack on Donal, then quit Eire. When the others had ordered, his attack
    was fought all the same: Donal fell to Oisin, a player no longer in the game, and Maeve was
    eliminated by him. His orders now leave with him."""
    eire(
        referee,
        Finn="Color: Green\nTribe: Plainsmen\nOrigin: Llanc",
        Maeve="Color: Red\nTribe: Plainsmen\nOrigin: Donal",
        Oisin="Color: Gold\nTribe: Merfolk\nOrigin: Reudh",
    )
    send(referee, "oisin", "[Orders]", "**Attack Donal with 12 Grain.**", to=EIRE)
    send(referee, "oisin", "[Quit]", "", to=EIRE)
    assert "Your orders for turn 1 are withdrawn: they are not carried out." in Outbox.body(
        last(outbox, addr("oisin"), "ack", "Quit")
    )
    send(referee, "finn", "[Orders]", "**Defend Llanc with 5 Grain.**", to=EIRE)
    send(referee, "maeve", "[Orders]", "**Defend Donal with 2 Grain.**", to=EIRE)
    state = referee.state("eire")
    assert state["turn"]["number"] == 2
    assert {x["name"]: x["owner"] for x in state["lands"] if x["owner"]} == {
        "Llanc": "Finn",
        "Donal": "Maeve",
    }
    assert "Oisin" not in Outbox.body(last(outbox, addr("finn"), "results"))
    assert_replays(referee)


def test_a_sidekick_vote_of_one_who_quit_is_not_counted(referee, outbox, clock):
    """Carol voted AGAINST and quit the game before the vote closed; her AGAINST still made a
    tie and failed the move. A vote is a player's (as BlogNomic's "A non-Wizard never has a Vote",
    and Imperial counts the Senators there are): hers is set aside, and the result says so."""
    referee.create_game("nomes", "sidekick", G, gm="gm@ref.example")
    for p in ("alice", "bob", "carol", "dan"):
        send(referee, p, "[Join]", f"Name: {p.title()}\n")
        confirm_waiting(referee)
    state = referee.state("nomes")
    mover = state["turn"]["player"]
    quitter, against, voter = [p for p in state["order"] if p != mover]
    send(referee, mover.lower(), "[Proposal] Tea", 'Enact rule 24 "Tea":\nTea is served.\n')
    send(referee, quitter.lower(), "[Vote] 1", "AGAINST")
    send(referee, against.lower(), "[Vote] 1", "AGAINST")
    send(referee, quitter.lower(), "[Quit]")
    send(referee, voter.lower(), "[Vote] 1", "FOR")
    prop = referee.state("nomes")["proposals"][0]
    assert prop["status"] == "passed" and prop["tally"] == {"FOR": 2, "AGAINST": 1}
    text = Outbox.body(last(outbox, addr(against.lower()), "results"))
    assert f"Not counted, having left the game: {quitter}." in text
    assert_replays(referee)


def test_a_historian_who_leaves_leaves_a_metadynasty_not_an_endless_hiatus(referee, outbox, clock):
    """Carol won the dynasty with her DoV, then quit before her Ascension Address. The game
    stayed in Hiatus for good (waiting for an address from a player no longer there), and its
    status went on naming her Historian. Rule "Dynasties": "If there is no Historian, the
    Dynasty is a Metadynasty"."""
    blog(referee, ("alice", "bob", "carol", "dan", "eve", "fay"))
    send(referee, "carol", "[DoV] I win", "", to=BLOG)
    for p in ("alice", "bob", "dan", "eve"):
        send(referee, p, "Re: [BlogNomic] [DoV 1] I win", "FOR", to=BLOG)
    clock.advance(hours=12, seconds=1)
    referee.tick()
    state = referee.state("blog")
    assert (state["status"], state["historian"]) == ("hiatus", "Carol")
    outbox.new()
    send(referee, "carol", "[Quit]", "", to=BLOG)
    state = referee.state("blog")
    assert (state["status"], state["historian"], state["ascension_pending"]) == (
        "active",
        None,
        False,
    )
    text = Outbox.body(last(outbox, addr("bob"), "announcement", "Metadynasty"))
    assert (
        "Carol, the Historian, has left the game: there is no Historian, and dynasty 2 is a "
        "Metadynasty "
        '(rule "Dynasties"). No Ascension Address will come from them: the Hiatus ends.'
    ) in text
    send(referee, "bob", "[Proposal] Onwards", new_rule("Onwards", "Play on."), to=BLOG)
    assert referee.state("blog")["proposals"][-1]["status"] == "pending"
    assert_replays(referee)


def test_a_judge_who_leaves_before_ruling_is_replaced(referee, outbox, clock):
    """Dan was named judge of Bob's question (rule 17: the player before the mover) and quit
    the game without ruling: the judgement stayed open for good. The next present player before
    the mover is the judge now, mailed as the first was, and the others are told."""
    referee.create_game("nomes", "sidekick", G, gm="gm@ref.example")
    for p in ("alice", "bob", "carol", "dan"):
        send(referee, p, "[Join]", f"Name: {p.title()}\n")
        confirm_waiting(referee)
    state = referee.state("nomes")
    order, mover = state["order"], state["turn"]["player"]
    judge = order[order.index(mover) - 1]
    asker = next(p for p in order if p not in (mover, judge))
    send(referee, asker.lower(), "[CfJ] Is this legal?", "Please.")
    assert referee.state("nomes")["judgements"][0]["judge"] == judge
    outbox.new()
    send(referee, judge.lower(), "[Quit]")
    state = referee.state("nomes")
    new_judge = state["judgements"][0]["judge"]
    assert new_judge not in (judge, None) and new_judge == order[order.index(mover) - 2]
    new = outbox.new()
    assert [
        m["X-Mailref-Kind"]
        for m in new
        if m["To"] == addr(new_judge) and "Judgement" in str(m["Subject"])
    ] == ["judge"]
    told = [m for m in new if "New judge" in str(m["Subject"])]
    assert sorted(m["To"] for m in told) == sorted(
        addr(p.lower()) for p in order if p not in (judge, new_judge)
    )
    send(referee, new_judge.lower(), "[Ruling] 1", "It is legal.")
    assert referee.state("nomes")["judgements"][0]["status"] == "decided"
    assert_replays(referee)
