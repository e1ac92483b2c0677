"""An Imperial Nomic game by mail: its senators and Emperor, how they write, and proclamations the
site tests publish."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, send_mail
from support.joining import confirm
from support.snapshots import play_once

G = "empire@ref.example"


SENATORS = ["Ann", "Ben", "Cat", "Dan"]


def addr(n: str) -> str:
    return f"{n.lower()}@rome.example"


def send(r, who: str, subject: str, body: str = ""):
    return send_mail(r, addr(who), G, subject, body)


def reply(r, who: str):
    return [
        m
        for m in Outbox(r).all()
        if m["To"] == addr(who) and m["X-Mailref-Kind"] in ("ack", "error", "ruleset")
    ][-1]


def prop(r, n: int) -> dict:
    return next(p for p in r.state("empire")["proposals"] if p["number"] == n)


@pytest.fixture
def imperial_game(request, referee, clock):
    referee.clock_ = clock

    def opening() -> None:
        referee.create_game("empire", "imperial", G)
        for n in ["Joe"] + SENATORS:
            send(referee, n, "[Join]", f"Name: {n}")
            confirm(referee, addr(n))
        assert (
            "emperor" in referee.state("empire")["players"][0]["offices"]
        )  # the first to join, no admin needed
        for i, n in enumerate(SENATORS):  # each becomes a Senator with a first Point of Order
            send(referee, n, "[Point of Order] Hello", f"Senator {i}")

    play_once(request, referee, opening)
    # The replay check runs after the test (conftest's every_game_replays), once.
    yield referee


PROP = (
    'Enact rule 27 "Dragons" {I like dragons}:\nDragons exist. [Scribe: placeholder]\n'
    'In rule 21.3.1, replace "difficulty of 1" with "difficulty of 2".\n'
)


def at(r, **kw):
    r.clock_.advance(**kw)
    r.tick()


def play_an_accepted_proposal(game, outbox):
    """Rule 6: after the deadline, a majority of Senators voting YES passes it to the Emperor; rule
    7: accept."""
    send(game, "Ann", "[Proposal] Dragons", PROP)
    for n in ("Ben", "Cat", "Dan"):
        send(game, n, "Re: [Proposal 1] Dragons", "YES")
    assert prop(game, 1)["status"] == "voting"  # nothing happens before the deadline
    at(game, days=4, seconds=1)
    assert prop(game, 1)["status"] == "awaiting-judgement"
    assert [m["To"] for m in outbox.all() if m["X-Mailref-Kind"] == "judge"] == [addr("Joe")]
    send(game, "Ben", "[Judge] 1", "ACCEPT")
    assert "only the Emperor" in Outbox.body(reply(game, "Ben"))
    send(game, "Joe", "[Judge] 1", "ACCEPT")
    state = game.state("empire")
    assert prop(game, 1)["status"] == "accepted"
    dragons = next(r for r in state["rules"] if r["number"] == "27")
    assert (
        dragons["title"] == "Dragons"
        and "I like dragons" not in dragons["text"]
        and "[Scribe: placeholder]" in dragons["text"]
    )
    assert "difficulty of 2" in next(r for r in state["rules"] if r["number"] == "21.3.1")["text"]
    ruleset = [m for m in outbox.all() if m["X-Mailref-Kind"] == "ruleset"][0]
    body = Outbox.body(ruleset)
    assert "Scores:" in body and "Proposals:" in body and '1. "Dragons" by Ann: accepted' in body


def play_a_proclamation(game):
    """Rule 8: the Emperor may at any time modify any rule by Proclamation."""
    send(game, "Ann", "[Proclamation] Roads", "Amend rule 21.3.1 to read:\nRoads are free.\n")
    assert "only the Emperor" in Outbox.body(reply(game, "Ann"))
    send(
        game, "Joe", "[Proclamation] Roads", "Amend rule 21.3.1 to read:\nRoads are free. {aside}\n"
    )
    rule = next(r for r in game.state("empire")["rules"] if r["number"] == "21.3.1")
    assert rule["text"] == "Roads are free."
    send(game, "Joe", "[Directive] More religion", "Bring me proposals about temples.")
    assert any(
        m["Subject"] == "[Imperial Nomic] [Directive] More religion" for m in Outbox(game).all()
    )
