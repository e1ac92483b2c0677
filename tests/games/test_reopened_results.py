"""The GM reverses a result the referee closed (`mailref proposal enact|fail N --reopen`): a
tie failed as rule 12 was first written, a self-kill the players' new rule 1.9 no longer
makes. Journaled, so `replay` agrees; every player is told."""

from __future__ import annotations

import pytest

from support import blognomic as bn
from support import imperial as emp
from support.helpers import Outbox, assert_replays
from support.play import PLAYERS, addr, nomes, send

pytestmark = pytest.mark.spec("5.1")

GM = "gm@ref.example"


def _score(referee, name: str) -> int:
    return next(p for p in referee.state("nomes")["players"] if p["name"] == name)["score"]


def test_the_gm_reopens_a_failed_tie_and_enacts_it(referee, outbox):
    """A 1–1 tie failed, scoring its mover -5; `enact --reopen` used to be refused ("closed").
    Now the proposal passes, its rule is enacted, the mover's -5 becomes +10, and every player
    reads the reversal."""
    mover = nomes(referee)
    send(referee, mover, "[Proposal] Tea", 'Enact rule 30 "Tea":\nTea is served.\n')
    voters = [p for p in PLAYERS if p.title() != mover]
    send(referee, voters[0], "[Vote] 1", "AGAINST")
    send(referee, voters[1], "[Vote] 1", "ABSTAIN")
    assert referee.state("nomes")["proposals"][0]["status"] == "failed"
    assert _score(referee, mover) == -5

    decide = {"type": "decide", "number": 1, "outcome": "enact", "reason": "Ties pass."}
    refused = referee.admin("nomes", decide, GM)
    assert not refused.ok and "is closed" in refused.reason
    outcome = referee.admin("nomes", {**decide, "reopen": True}, GM)
    assert outcome.ok, outcome
    state = referee.state("nomes")
    assert state["proposals"][0]["status"] == "passed"
    assert any(r["number"] == "30" for r in state["rules"])
    assert _score(referee, mover) == 10
    told = " ".join(Outbox.body(outbox.to(addr(voters[1]), kind="results")[-1]).split())
    assert 'The GM reverses the result of proposal 1 "Tea": it was failed (tie)' in told
    assert f"{mover} scores +15 for the reversal and now has 10." in told

    again = referee.admin("nomes", {**decide, "reopen": True}, GM)
    assert not again.ok and "reverses only a pass into a fail" in again.reason
    assert_replays(referee)


def test_the_gm_reopens_a_self_killed_blognomic_proposal(blognomic_game):
    """The author's AGAINST self-killed a proposal; the GM, reading the Wizards' rules otherwise,
    enacts it with `--reopen`; the new rule is in force and the Wizards are told."""
    game = blognomic_game
    bn.send(game, "Ann", "[Proposal] Gold", bn.PROP)
    bn.send(game, "Ann", "Re: [Proposal 1] Gold", "AGAINST")
    bn.at(game, minutes=1)
    assert bn.matter(game, 1)["status"] == "failed"
    outcome = game.admin(
        "blog", {"type": "decide", "number": 1, "outcome": "enact", "reopen": True}, GM
    )
    assert outcome.ok, outcome
    assert bn.matter(game, 1)["status"] == "enacted"
    assert any(r["title"] == "Gold" for r in game.state("blog")["rules"])
    results = [
        m
        for m in Outbox(game).all()
        if m["X-Mailref-Kind"] == "results" and m["To"] == bn.addr("Eve")
    ]
    assert "reversed by the GM" in str(results[-1]["Subject"])


def test_the_gm_reopens_a_rejected_imperial_proposal_and_the_emperor_is_asked(
    imperial_game, outbox
):
    """A proposal the Senate rejected, reversed with `enact --reopen`, awaits judgement; the
    Emperor used to hear nothing until the reminder. Now the Emperor's judge mail goes out at
    once, and the Emperor's ACCEPT enacts it."""
    game = imperial_game
    emp.send(game, "Ann", "[Proposal] Hats", 'Enact rule 40 "Hats":\nHats exist.\n')
    emp.send(game, "Ben", "Re: [Proposal 1] Hats", "NO")
    emp.at(game, days=4, seconds=1)
    assert emp.prop(game, 1)["status"] == "rejected"
    outbox.new()
    decide = {"type": "decide", "number": 1, "outcome": "enact", "reopen": True}
    assert game.admin("empire", decide, GM).ok
    assert emp.prop(game, 1)["status"] == "awaiting-judgement"
    judge = [m for m in outbox.new() if m["X-Mailref-Kind"] == "judge"]
    assert [m["To"] for m in judge] == [emp.addr("Joe")]
    assert "[Judge 1]" in judge[0]["Subject"]
    emp.send(game, "Joe", "[Judge] 1", "ACCEPT")
    assert emp.prop(game, 1)["status"] == "accepted"
    assert any(r["number"] == "40" for r in game.state("empire")["rules"])


def test_a_reversed_pass_tells_the_gm_to_undo_its_rule_by_mail(referee, outbox):
    """A pass reversed into a fail keeps its rule changes for the GM, and the result says the
    mail command first: [Rule], then the host's `mailref rule`."""
    mover = nomes(referee)
    send(referee, mover, "[Proposal] Tea", 'Enact rule 30 "Tea":\nTea is served.\n')
    for voter in (p for p in PLAYERS if p.title() != mover):
        send(referee, voter, "[Vote] 1", "FOR")
    assert referee.state("nomes")["proposals"][0]["status"] == "passed"
    decide = {"type": "decide", "number": 1, "outcome": "fail", "reopen": True}
    assert referee.admin("nomes", decide, GM).ok
    told = " ".join(Outbox.body(outbox.to(addr(mover), kind="results")[-1]).split())
    assert (
        "Its rule changes stay in force until the GM undoes them (by mail with [Rule], or on "
        "the host: `mailref rule`)."
    ) in told, told
    assert_replays(referee)
