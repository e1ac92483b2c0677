"""A player capped by `mails_per_player_day` (SPEC §2.2) plays on: their held announcements
and their record of scores are two things, so a proposal that passes while announcements
wait in their digest closes, scores and goes on to the next turn."""

from __future__ import annotations

import pytest

from support.declared import assert_declared
from support.helpers import assert_replays
from support.joining import confirm
from support.sidekick import PLAYERS, PROPOSAL, G, addr, mover, others, send

pytestmark = pytest.mark.spec("2.2")


def test_a_capped_player_closes_a_passing_vote_and_the_game_goes_on(referee, outbox):
    referee.create_game(
        "nomes", "sidekick", G, gm="gm@ref.example", parameters={"mails_per_player_day": 3}
    )
    for p in PLAYERS:
        send(referee, p, "[Join]", f"Name: {p.title()}\n")
        confirm(referee, addr(p))
    m = mover(referee)
    send(referee, m, "[Proposal] Daily dice", PROPOSAL)
    state = referee.state("nomes")
    assert any(p.get("digest_next") for p in state["players"]), "someone is capped"
    a, b = others(referee)
    send(referee, a, "[Vote] 1", "FOR")
    send(referee, b, "[Vote] 1", "FOR")
    state = referee.state("nomes")
    assert state["proposals"][0]["status"] == "passed"
    assert next(p for p in state["players"] if p["name"] == m)["score"] == 10
    assert state["turn"]["number"] == 2
    # the next mover's proposal is taken: the game is not stuck
    send(referee, state["turn"]["player"], "[Proposal] More", 'Enact rule 25 "More":\nMore.\n')
    assert len(referee.state("nomes")["proposals"]) == 2
    assert_replays(referee)
    assert_declared(referee)  # the digest's mail and the score levels, each under its own key
