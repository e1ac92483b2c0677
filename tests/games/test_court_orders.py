"""An enacted BlogNomic CfJ and an Imperial Proclamation carry out their effect lines
(SPEC §4.4, §5.2, §5.3): the undone proposal's rule is gone, the penalty applies, every player
is told what changed, and the journal replays (the fixtures check it)."""

from __future__ import annotations

import pytest

from support import blognomic, imperial
from support.helpers import Outbox

pytestmark = pytest.mark.spec("4.4")


@pytest.mark.spec("5.2")
def test_an_enacted_cfj_undoes_a_proposal_and_scores_a_penalty(blognomic_game):
    """CfJ 2 asks to undo proposal 1 and take 5 from its author: pending, nothing changes; once
    Popular it is enacted, rule "Gold" leaves the ruleset, the votes on proposal 1 are named
    as no longer holding (by the proposal, not by journal entry numbers or "there is no matter
    1"), and the results mail says so to every Wizard."""
    game, send, at = blognomic_game, blognomic.send, blognomic.at
    send(game, "Ann", "[Proposal] Gold", blognomic.PROP)
    for n in ("Ben", "Cat", "Dan"):
        send(game, n, "Re: [Proposal 1] Gold", "FOR")
    at(game, hours=12)
    assert blognomic.matter(game, 1)["status"] == "enacted"
    assert any(r["title"] == "Gold" for r in game.state("blog")["rules"])
    send(game, "Eve", "[CfJ] Gold was illegal", "Undo proposal 1\nScore Ann -5\n")
    ack = Outbox.body(blognomic.reply(game, "Eve"))
    assert "carried out if it is enacted:" in ack and "Undo proposal 1" in ack, ack
    assert any(r["title"] == "Gold" for r in game.state("blog")["rules"])
    outbox = Outbox(game)
    outbox.new()
    for n in ("Fay", "Gus", "Ben"):
        send(game, n, "Re: [CfJ 2] Gold was illegal", "FOR")
    state = game.state("blog")
    assert not any(r["title"] == "Gold" for r in state["rules"])
    assert next(p for p in state["players"] if p["name"] == "Ann")["score"] == -5
    assert [m["number"] for m in state["proposals"] + state["judgements"]] == [2]
    assert state["judgements"][0]["status"] == "enacted"
    results = [m for m in outbox.new() if "[CfJ 2] ENACTED" in str(m["Subject"])]
    assert sorted(m["To"] for m in results) == sorted(blognomic.addr(n) for n in blognomic.NAMES)
    body = Outbox.body(results[0])
    assert "What changes:" in body and '"Gold" is no longer in the ruleset.' in body, body
    assert "the GM applies its effects" not in body
    assert "Score of Ann: 0 -> -5." in body
    assert 'Proposal 1 "Gold" no longer exists (it was enacted).' in body
    assert "No longer holds:" in body
    assert 'Ben\'s vote on proposal 1 "Gold": void, as proposal 1 "Gold" is undone.' in body, body
    assert "there is no matter" not in body and "Entry " not in body  # the game, not the journal


@pytest.mark.spec("5.3")
def test_a_proclamation_undoes_an_accepted_proposal(imperial_game, outbox):
    """The Emperor proclaims "Undo proposal 1" and "Score Ann -5": the rules proposal 1
    enacted and amended read as before it, its votes and judgement no longer hold, Ann loses 5
    points, and every player reads one announcement of it."""
    game, send = imperial_game, imperial.send
    imperial.play_an_accepted_proposal(game, outbox)
    outbox.new()
    send(game, "Joe", "[Proclamation] Dragons undone", "Undo proposal 1\nScore Ann -5\n")
    state = game.state("empire")
    assert not any(r["number"] == "27" for r in state["rules"])
    sub = next(r for r in state["rules"] if r["number"] == "21.3.1")["text"]
    assert "difficulty of 2" not in sub
    assert next(p for p in state["players"] if p["name"] == "Ann")["score"] == -5
    assert state["proposals"] == []
    new = outbox.new()
    told = [
        m
        for m in new
        if m["X-Mailref-Kind"] == "announcement" and "Dragons undone" in str(m["Subject"])
    ]
    assert sorted(m["To"] for m in told) == sorted(
        imperial.addr(n) for n in ["Joe", *imperial.SENATORS]
    ), [(m["To"], str(m["Subject"])) for m in new]
    body = Outbox.body(told[0])
    assert "The Emperor proclaims:" in body and "Undo proposal 1." in body
    assert "Score of Ann: 0 -> -5." in body
    assert 'Rule 27 "Dragons" is no longer in the ruleset.' in body
    assert "Rule 21.3.1 changed" in body
    assert "No longer holds:" in body and 'as proposal 1 "Dragons" is undone' in body, body
    assert "there is no proposal 1" not in body and "Entry " not in body
