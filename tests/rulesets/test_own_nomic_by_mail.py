"""A Nomic of the GM's own, from its ruleset file (examples/pebble.nomic), played by mail to a
winner: the referee runs it by the values its rules state, and follows an amendment of its
winning-score rule."""

from __future__ import annotations

from pathlib import Path

import pytest

from mailref.engine.ruleset_file import load
from support.helpers import Outbox, assert_replays, send_mail
from support.joining import confirm

PEBBLE = Path(__file__).parents[2] / "examples" / "pebble.nomic"
G = "pebble@ref.example"
PLAYERS = ["Ann", "Ben", "Cat"]


def addr(name: str) -> str:
    return f"{name.lower()}@players.example"


def send(referee, who: str, subject: str, body: str = "") -> None:
    send_mail(referee, addr(who), G, subject, body)


@pytest.fixture
def pebble(referee):
    ruleset = load(PEBBLE.read_text(), str(PEBBLE))
    referee.create_game("pebble", ruleset.variant, G, gm="gm@ref.example", ruleset=ruleset)
    for p in PLAYERS:
        send(referee, p, "[Join]", f"Name: {p}\n")
        confirm(referee, addr(p))
    yield referee
    assert_replays(referee)


def move_and_pass(referee, subject: str, body: str) -> str:
    """The mover proposes; the others vote FOR; returns the mover."""
    state = referee.state("pebble")
    mover = state["turn"]["player"]
    send(referee, mover, f"[Proposal] {subject}", body)
    number = referee.state("pebble")["proposals"][-1]["number"]
    for other in (p for p in PLAYERS if p != mover):
        send(referee, other, f"Re: [Proposal {number}] {subject}", "FOR")
    assert referee.state("pebble")["proposals"][-1]["status"] == "passed"
    return mover


def test_the_game_runs_by_the_values_its_rules_state(pebble):
    state = pebble.state("pebble")
    assert state["name"] == "Pebble Nomic"
    assert [r["number"] for r in state["rules"]] == [str(n) for n in range(1, 11)]
    assert state["rules"][6]["text"] == "The first player to reach or exceed 40 points wins."
    params = state["parameters"]
    assert (params["win_score"], params["vote_timeout"], params["turn_timeout"]) == (40, "3d", "3d")
    assert (params["pass_points"], params["fail_points"]) == (10, -5)
    assert state["ruleset"]["bindings"]["win_score"] == "7"


def test_an_amended_winning_score_is_followed_to_a_winner(pebble):
    """Rule 7 amended from 40 to 20 points: the first mover wins on reaching 20, not 40."""
    first = move_and_pass(pebble, "Quicker", 'In rule 7, replace "40 points" with "20 points".\n')
    state = pebble.state("pebble")
    assert state["parameters"]["win_score"] == 20
    assert "20 points wins" in next(r["text"] for r in state["rules"] if r["number"] == "7")
    ruleset_mail = [
        m
        for m in Outbox(pebble).all()
        if m["X-Mailref-Kind"] == "ruleset" and m["To"] == addr("Ben")
    ][-1]
    assert "win_score: 40 -> 20" in Outbox.body(ruleset_mail)
    for n in range(11, 20):
        if pebble.state("pebble")["status"] == "ended":
            break
        move_and_pass(pebble, f"Rule {n}", f'Enact rule {n} "R{n}":\nText {n}.\n')
    state = pebble.state("pebble")
    assert state["status"] == "ended"
    assert state["winners"] == [first]
    assert max(p["score"] for p in state["players"]) == 20


def test_the_replies_call_players_by_the_rulesets_noun(pebble):
    send(pebble, "Ann", "[Status]")
    status = [m for m in Outbox(pebble).all() if m["To"] == addr("Ann")][-1]
    body = Outbox.body(status)
    assert "Pebblers: Ann (active, 0), Ben (active, 0), Cat (active, 0)" in body
    assert "Players:" not in body
