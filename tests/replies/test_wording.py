"""What the referee writes reads right: orders games, a changed vote's first time, an Eire status, a
roll and its digest."""

from __future__ import annotations

import pytest

from support.helpers import Outbox
from support.joining import confirm_waiting
from support.play import PLAYERS, G, addr, nomes, send

pytestmark = pytest.mark.spec("2.6")


def test_what_the_orders_games_say_reads_right(referee, outbox, clock):
    """A Diplomacy-style `orders` game: a mail without bold gets a hint in its own terms (it used
    to show Eire's "Defend Donal with 5 Grain"); the turn mail has no stray blank line; the
    reminder says "your orders … are due"."""
    dip = "dip@ref.example"
    referee.create_game("dip", "orders", dip, gm="gm@ref.example", parameters={"turn_length": "1d"})
    for n in ("ann", "ben"):
        send(referee, n, "[Join]", f"Name: {n.title()}", to=dip)
        confirm_waiting(referee)
    referee.admin("dip", {"type": "start"}, "gm")
    turn = [m for m in outbox.all() if m["X-Mailref-Kind"] == "turn"][0]
    assert " is open.\n\nSend your orders in a mail" in Outbox.body(turn).replace(
        "\r\n", "\n"
    ), Outbox.body(turn)
    send(referee, "ann", "[Orders]", "A Paris - Burgundy (forgot the bold)", to=dip)
    hint = Outbox.body([m for m in outbox.all() if m["To"] == addr("ann")][-1])
    assert "Donal" not in hint and "**Your order, in bold.**" in hint
    clock.advance(hours=13)
    referee.tick()
    reminder = [m for m in outbox.all() if m["X-Mailref-Kind"] == "reminder"][0]
    assert "your orders for turn 1 are due by" in Outbox.body(reminder)


def test_a_changed_vote_says_when_the_first_was_cast_as_people_read_times(referee, outbox, clock):
    """Dan votes FOR, then AGAINST: the ack said "(replaces FOR of 2026-11-30 22:18 UTC)", an ISO
    time in people text (SPEC §2.6); now the game's zone, as every other time in its mail."""
    referee.create_game("nomes", "sidekick", G, gm="gm@ref.example", timezone="Europe/Dublin")
    for p in PLAYERS:
        send(referee, p, "[Join]", f"Name: {p.title()}\n")
        confirm_waiting(referee)
    mover = referee.state("nomes")["turn"]["player"]
    send(referee, mover.lower(), "[Proposal] Q", 'Enact rule 24 "Q":\nQuiet.\n')
    voter = next(p for p in PLAYERS if p.title() != mover)
    send(referee, voter, "[Vote] 1", "FOR")
    clock.advance(minutes=5)
    send(referee, voter, "[Vote] 1", "AGAINST")
    ack = Outbox.body([m for m in outbox.all() if m["To"] == addr(voter)][-1])
    assert (
        "Vote recorded: proposal 1 — AGAINST (replaces FOR of Tue 1 Dec 2026 10:00 GMT)" in ack
    ), ack


def test_an_eire_status_reads_as_eire(referee, outbox, clock):
    """`[Status]` in Eire showed Nomic lines: "Players: Alice (active, 0)" (a score Eire has not)
    and "Turn 5: -, deadline …" (no mover in a simultaneous game)."""
    eire = "eire@ref.example"
    referee.create_game("eire", "eire", eire, gm="gm@ref.example", parameters={"turn_length": "1d"})
    for name, origin, color in (("alice", "Donal", "Red"), ("bob", "Llanc", "Gold")):
        send(
            referee,
            name,
            "[Join]",
            f"Name: {name.title()}\nColor: {color}\nTribe: Plainsmen\nOrigin: {origin}",
            to=eire,
        )
        confirm_waiting(referee)
    referee.admin("eire", {"type": "start"}, "gm")
    send(referee, "alice", "[Status]", to=eire)
    status = Outbox.body([m for m in outbox.all() if m["To"] == addr("alice")][-1]).replace(
        "\r\n", "\n"
    )
    assert "Players: Alice, Bob\n" in status and "(active" not in status, status
    assert (
        "Turn 1: orders are due Wed 2 Dec 2026 10:00 UTC, in 24 hours\n" in status
        and "Turn 1: -" not in status
    )
    assert (
        "Orders received this turn from: nobody yet" in status
        and "Alice (Red, Plainsmen, origin Donal)" in status
    )


def test_a_roll_says_what_it_is_for_and_the_digest_keeps_times_absolute(referee, outbox, clock):
    """`[Roll] DICE6` with "rolling for my card" as the body: the announcement did not say what for.
    A deadline moved by the CLI was kept in the digest as "…, in 1 minute", true only that
    minute."""
    from datetime import timedelta

    mover = nomes(referee)
    send(referee, "bob", "[Roll] DICE6", "rolling for my card\n\nBob\n")
    ann = [
        m
        for m in outbox.all()
        if m["X-Mailref-Kind"] == "announcement" and "rolled" in str(m["Subject"])
    ][0]
    assert "For: rolling for my card" in Outbox.body(ann)
    when = (clock() + timedelta(minutes=1)).isoformat().replace("+00:00", "Z")
    assert referee.admin("nomes", {"type": "deadline", "when": when}, "gm").ok
    clock.advance(hours=2)
    events = " ".join(e["text"] for e in referee.state("nomes")["events"])
    assert "moved from" in events and "in 1 minute" not in events, events
    assert mover  # the game is under way
