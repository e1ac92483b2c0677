"""Sidekick rule 21 as the players amend it: a bonus for a proposal no player voted against
is read from the new text and scored."""

from __future__ import annotations

import pytest

from mailref.engine.ruleparams import read
from mailref.engine.variants.rule_tables import SIDEKICK
from support.helpers import Outbox, assert_replays
from support.play import PLAYERS, addr, nomes, send

pytestmark = pytest.mark.spec("5.1")

RULE_21 = "When a player’s proposal passes, he/she receives 10 points."


@pytest.mark.parametrize(
    ("text", "bonus"),
    [
        (RULE_21, 0),
        (RULE_21[:-1] + ", and 5 more points if no player voted against it.", 5),
        (RULE_21 + " A player receives three extra points if no one voted AGAINST it.", 3),
        (
            RULE_21 + " 5 more points if no one voted against it; 6 more points if no "
            "player voted against it.",
            None,
        ),
    ],
)
def test_rule_21_says_what_an_unopposed_proposal_scores_more(text, bonus):
    assert read(SIDEKICK["unopposed_bonus"], text) == bonus
    assert read(SIDEKICK["pass_points"], text) == 10


def _score(referee, name: str) -> int:
    return next(p for p in referee.state("nomes")["players"] if p["name"] == name)["score"]


def test_rule_21_amended_with_a_bonus_scores_an_unopposed_proposal_15(referee, outbox):
    """Rule 21 amended "and 5 more points if no player voted against it"; the next unopposed
    proposal used to score +10, silently. Now it scores +15, and one with an AGAINST +10."""
    first = nomes(referee)
    send(
        referee,
        first,
        "[Proposal] Consensus pays",
        'In rule 21, replace "receives 10 points." with "receives 10 points, and 5 more points '
        'if no player voted against it."\n',
    )
    for p in PLAYERS:
        if p.title() != first:
            send(referee, p, "[Vote] 1", "FOR")
    assert _score(referee, first) == 10  # scored under rule 21 as it read before
    state = referee.state("nomes")
    assert state["parameters"]["unopposed_bonus"] == 5
    ruleset = [
        m for m in outbox.all() if m["X-Mailref-Kind"] == "ruleset" and m["To"] == addr(first)
    ]
    assert "(unopposed_bonus: 0 -> 5)" in Outbox.body(ruleset[-1])

    second = state["turn"]["player"]
    send(referee, second, "[Proposal] Hats", 'Enact rule 30 "Hats":\nHats exist.\n')
    for p in PLAYERS:
        if p.title() != second:
            send(referee, p, "[Vote] 2", "FOR")
    assert _score(referee, second) == 15

    third = referee.state("nomes")["turn"]["player"]
    before = _score(referee, third)
    send(referee, third, "[Proposal] Caps", 'Enact rule 31 "Caps":\nCaps exist.\n')
    voters = [p for p in PLAYERS if p.title() != third]
    send(referee, voters[0], "[Vote] 3", "AGAINST")
    for p in voters[1:]:
        send(referee, p, "[Vote] 3", "FOR")
    assert referee.state("nomes")["proposals"][-1]["status"] == "passed"  # the mover's FOR too
    assert _score(referee, third) == before + 10
    assert_replays(referee)
