"""Switches of the voting policy bound to the rule that states them: the players pass an
amendment by mail, and the referee follows the new text."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, assert_replays
from support.play import PLAYERS, addr, nomes, send

pytestmark = pytest.mark.spec("5.1")


def _last(outbox, kind: str, to: str) -> str:
    return Outbox.body(
        [m for m in outbox.all() if m["X-Mailref-Kind"] == kind and m["To"] == to][-1]
    )


def test_rule_12_amended_so_a_tie_passes_makes_the_next_tie_pass(referee, outbox):
    """Rule 12 amended so that a tie passes; the next 1–1 tie (FOR, AGAINST, ABSTAIN) used to
    fail as first written. Now it passes, and the ruleset mail says the referee runs rule 12 as
    it reads."""
    first = nomes(referee)
    send(
        referee,
        first,
        "[Proposal] Ties pass",
        'In rule 12, replace "is tied, the proposal is said to have failed" with "is tied, the '
        'proposal is said to have passed".\n',
    )
    for p in PLAYERS:
        if p.title() != first:
            send(referee, p, "[Vote] 1", "FOR")
    state = referee.state("nomes")
    assert state["parameters"]["tie"] == "passes"
    assert "runs rule 12 as it now reads: a tie passes (tie: fails -> passes)" in _last(
        outbox, "ruleset", addr(first)
    )

    mover = state["turn"]["player"]
    others = [p for p in PLAYERS if p.title() != mover]
    send(referee, mover, "[Proposal] Even", 'Enact rule 30 "Even":\nAll is even.\n')
    send(referee, others[0], "[Vote] 2", "AGAINST")
    send(referee, others[1], "[Vote] 2", "ABSTAIN")
    prop = referee.state("nomes")["proposals"][-1]
    assert (prop["status"], prop["reason"]) == ("passed", "a tie passes")
    assert "(a tie passes)" in _last(outbox, "results", addr(first))
    assert_replays(referee)
