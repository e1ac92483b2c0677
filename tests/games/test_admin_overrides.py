"""What the admin changes in a game is told to whom it concerns: a vote changed, a player removed or
added, a result forced."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, assert_replays
from support.joining import confirm_waiting
from support.long_games import G, last, nomes
from support.play import addr, send  # the same players' addresses, mail sent the same way

pytestmark = pytest.mark.spec("1.4")


def test_a_vote_the_admin_changes_is_told_to_its_voter(referee, outbox, clock):
    """Carol asked the GM by phone to change her vote; `mailref vote nomes 1 Carol AGAINST
    --reason ...` changed it and closed the vote, and Carol heard nothing of it but the result
    (SPEC §1.4: CLI commands "announce to the players what players would expect to be told")."""
    mover = nomes(referee)
    send(referee, mover.lower(), "[Proposal] Tea", 'Enact rule 24 "Tea":\nTea is served.\n')
    voters = [p for p in ("Alice", "Bob", "Carol") if p != mover]
    send(referee, voters[0].lower(), "[Vote] 1", "FOR")
    outbox.new()
    referee.admin(
        "nomes",
        {
            "type": "vote_override",
            "number": 1,
            "player": voters[0],
            "vote": "AGAINST",
            "reason": "asked by phone",
        },
        "gm@ref.example",
    )
    told = [
        m
        for m in outbox.new()
        if m["To"] == addr(voters[0]) and m["X-Mailref-Kind"] == "announcement"
    ]
    assert len(told) == 1
    assert str(told[0]["Subject"]).endswith("[Proposal 1] Your vote was set by the admin")
    text = Outbox.body(told[0])
    assert 'The admin recorded your vote on proposal 1 "Tea" as AGAINST (it was FOR).' in text
    assert "Reason: asked by phone." in text
    assert referee.state("nomes")["proposals"][0]["votes"][voters[0]] == "AGAINST"
    assert_replays(referee)


def test_a_player_the_admin_removes_is_told(referee, outbox, clock):
    """`mailref player remove nomes Alice` mid-vote: Bob and Carol read "Alice leaves the game";
    Alice got nothing, and her next vote was answered "you have left"."""
    nomes(referee)
    outbox.new()
    referee.admin(
        "nomes",
        {"type": "player_remove", "player": "Alice", "reason": "asked to leave"},
        "gm@ref.example",
    )
    new = outbox.new()
    mine = [m for m in new if m["To"] == addr("alice")]
    assert [str(m["Subject"]) for m in mine] == [
        "[Nomic Sidekick Nomic] You have been removed from the game"
    ]
    text = Outbox.body(mine[0])
    assert "Alice, the admin has removed you from Nomic Sidekick Nomic." in text
    assert "Reason: asked to leave." in text and "gm@ref.example" in text
    assert sorted(m["To"] for m in new if "Alice leaves the game" in str(m["Subject"])) == [
        addr("bob"),
        addr("carol"),
    ]
    assert_replays(referee)


def test_a_player_the_admin_adds_is_welcomed_once(referee, outbox, clock):
    """`mailref player add nomes Dave dave@...`: the terminal read "You are inserted at place 1
    of the turn order" (the admin is not inserted anywhere), and Dave got only "Dave joins the
    game: Dave has joined". He now gets one welcome saying where he stands and how to play."""
    nomes(referee)
    outbox.new()
    outcome = referee.admin(
        "nomes",
        {"type": "player_add", "name": "Dave", "address": addr("dave"), "more": []},
        "gm@ref.example",
    )
    assert "Dave is inserted at place" in "\n".join(outcome.lines)  # the admin's terminal
    new = outbox.new()
    mine = [m for m in new if m["To"] == addr("dave")]
    assert [str(m["Subject"]) for m in mine] == [
        "[Nomic Sidekick Nomic] Welcome to Nomic Sidekick Nomic"
    ]
    text = Outbox.body(mine[0])
    order = referee.state("nomes")["order"]
    assert (
        f"You are at place {order.index('Dave') + 1} of the turn order: {', '.join(order)}." in text
    )
    assert "Write to nomes@ref.example: send [Help] for the commands" in text
    assert sorted(m["To"] for m in new if "Dave joins the game" in str(m["Subject"])) == sorted(
        addr(p) for p in ("alice", "bob", "carol")
    )
    assert_replays(referee)


def test_a_player_the_admin_adds_to_a_forming_nomic_learns_the_turn_order(referee, outbox, clock):
    """The second player, added by the admin, starts the game: the turn order drawn then is in
    his welcome, not in a second mail."""
    referee.create_game("nomes", "sidekick", G, gm="gm@ref.example")
    send(referee, "alice", "[Join]", "Name: Alice\n")
    confirm_waiting(referee)
    outbox.new()
    referee.admin(
        "nomes",
        {"type": "player_add", "name": "Bob", "address": addr("bob"), "more": []},
        "gm@ref.example",
    )
    mine = [
        m for m in outbox.new() if m["To"] == addr("bob") and m["X-Mailref-Kind"] == "announcement"
    ]
    assert len(mine) == 1
    assert "The turn order is drawn at random (rule 6):" in Outbox.body(mine[0])


def test_a_result_the_admin_forces_says_so_not_that_votes_came_late(referee, outbox, clock):
    """`mailref proposal enact nomes 1 --reason ...` an hour after the move: the result read
    "has passed: FOR 1, AGAINST 0, ABSTAIN 2 (enact)" and "Counted ABSTAIN, not having voted in
    time (rule 11): Bob, Carol", though their five days had barely begun."""
    mover = nomes(referee)
    send(referee, mover.lower(), "[Proposal] Tea", 'Enact rule 24 "Tea":\nTea is served.\n')
    clock.advance(hours=1)
    referee.admin(
        "nomes",
        {"type": "decide", "number": 1, "outcome": "enact", "reason": "agreed at the pub"},
        "gm@ref.example",
    )
    voter = next(p for p in ("alice", "bob", "carol") if p.title() != mover)
    text = Outbox.body(last(outbox, addr(voter), "results"))
    assert "(enacted by the admin)." in text and "(enact)." not in text
    assert "Counted ABSTAIN, not having voted when the admin decided it:" in text
    assert "in time (rule 11)" not in text
    assert "Decided by the admin: agreed at the pub." in text
    assert referee.state("nomes")["proposals"][0]["status"] == "passed"
