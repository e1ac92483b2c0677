"""A Nomic Sidekick Nomic game by mail: its players, how they write, and whole games the site tests
publish."""

from __future__ import annotations

import pytest

from support.helpers import Clock, Outbox, assert_replays, mail, make_referee, send_mail
from support.joining import confirm
from support.snapshots import play_once

G = "nomes@ref.example"


PLAYERS = ["alice", "bob", "carol"]


def addr(name: str) -> str:
    return f"{name.lower()}@players.example"


def send(referee, who: str, subject: str, body: str = "", **kw):
    return send_mail(referee, addr(who), G, subject, body, **kw)


def last_reply(outbox: Outbox, who: str):
    replies = [
        m
        for m in outbox.all()
        if m["To"] == addr(who)
        and m["X-Mailref-Kind"] in ("ack", "error", "help", "status", "ruleset")
    ]
    return replies[-1]


@pytest.fixture
def sidekick_game(request, referee, outbox):
    def opening() -> None:
        referee.create_game("nomes", "sidekick", G, gm="gm@ref.example")
        for p in PLAYERS:
            send(referee, p, "[Join]", f"Name: {p.title()}\n")
            confirm(referee, addr(p))

    play_once(request, referee, opening)
    state = referee.state("nomes")
    assert state["turn"]["number"] == 1
    # The replay check runs after the test (conftest's every_game_replays), once.
    yield referee


def mover(referee) -> str:
    return referee.state("nomes")["turn"]["player"]


def others(referee) -> list[str]:
    m = mover(referee)
    return [p.title() for p in PLAYERS if p.title() != m]


PROPOSAL = 'Enact rule 24 "Bonus":\nEach player may roll a die once a day.\n'


def play_sidekick_to_a_winner(tmp_path):
    """Through real SMTP sessions into the in-process listener, the GM only reading digests."""
    from support.listener import listening, submit

    clock = Clock()
    r = make_referee(tmp_path, clock, seed=3)
    r.create_game("nomes", "sidekick", G, gm="gm@ref.example", parameters={"win_score": "30"})
    with listening(r, 1_000_000) as port:

        def post(who: str, subject: str, body: str) -> None:
            submit(port, addr(who), [G], mail(addr(who), G, subject, body))

        for p in PLAYERS:
            post(p, "[Join]", f"Name: {p.title()}")
            confirm(r, addr(p))
        n = 24
        for _ in range(12):
            state = r.state("nomes")
            if state["status"] == "ended":
                break
            m = state["turn"]["player"]
            post(m, f"[Proposal] Rule {n}", f'Enact rule {n} "R{n}":\nText {n}.\n')
            num = r.state("nomes")["proposals"][-1]["number"]
            for o in [p.title() for p in PLAYERS if p.title() != m]:
                post(o, f"Re: [Proposal {num}] Rule {n}", "FOR")
            n += 1
            clock.advance(hours=12)
            r.tick()
    state = r.state("nomes")
    assert state["status"] == "ended" and len(state["winners"]) == 1
    assert all(p["score"] <= 30 for p in state["players"])
    digests = [m for m in Outbox(r).all() if m["X-Mailref-Kind"] == "digest"]
    assert digests and digests[0]["To"] == "gm@ref.example"
    assert_replays(r)
