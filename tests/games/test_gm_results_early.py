"""The GM's results for a turn still open are refused."""

from __future__ import annotations

import pytest

from support import clients
from support.client_play import last, play
from support.helpers import Outbox, assert_replays
from support.joining import confirm_waiting
from support.play import addr

pytestmark = pytest.mark.spec("5.5")


def test_the_gms_results_for_a_turn_still_open_are_refused(referee, outbox, clock):
    """The GM's Outlook sent the results of turn 1 twice (Send pressed again): the second copy
    closed turn 2 the moment it opened, as its results, and the players who had not ordered yet
    lost the turn. Results are now taken only for a turn that has closed; the GM is told why and
    how to close a turn early, and the players get nothing."""
    referee.create_game(
        "war", "orders", "war@ref.example", gm="gm@ref.example", parameters={"turn_length": "2d"}
    )
    for p in ("Alice", "Bob"):
        play(referee, clients.fresh(addr(p), p, "war@ref.example", "[Join]", f"Name: {p}\n"))
        confirm_waiting(referee)
    referee.admin("war", {"type": "start"}, "gm@ref.example")
    for p in ("Alice", "Bob"):
        play(
            referee,
            clients.thunderbird(last(outbox, p, "turn", "[Turn 1]"), addr(p), p, "**Hold Paris.**"),
        )
    digest = next(
        m
        for m in outbox.all()
        if m["To"] == "gm@ref.example" and "Orders of all players" in m["Subject"]
    )
    results = clients.outlook(digest, "gm@ref.example", "The GM", "Paris holds.")
    referee.accept(results, "smtp", "gm@ref.example", ["war@ref.example"])
    assert referee.state("war")["turn"]["number"] == 2
    play(
        referee,
        clients.thunderbird(
            last(outbox, "Alice", "turn", "[Turn 2]"), addr("Alice"), "Alice", "**Take Lyon.**"
        ),
    )
    outbox.new()
    referee.accept(
        results.replace(b"Message-ID: <", b"Message-ID: <again."),
        "smtp",
        "gm@ref.example",
        ["war@ref.example"],
    )
    new = outbox.new()
    assert [(m["To"], m["X-Mailref-Kind"]) for m in new] == [("gm@ref.example", "error")]
    text = Outbox.body(new[0])
    assert (
        "the results of turn 1 went out already, and turn 2 is still open for orders until Thu 3 "
        "Dec 2026 "
        "10:00 UTC (1 of 2 players have sent theirs)"
    ) in text, text
    assert "mailref deadline war set" in text
    state = referee.state("war")
    assert state["turn"]["number"] == 2 and not state["turn"].get("awaiting_results")
    assert "Alice" in state["orders"]
    assert_replays(referee)
