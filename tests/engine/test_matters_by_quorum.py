"""BlogNomic's matters through the lifecycle, driven directly with no mail and no store:
Wizards' ballots in, the matter Popular or Unpopular by quorum, enacted or failed at once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from mailref.engine.context import Ctx, Refused
from support.seated import seated

NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
LATER = NOW + timedelta(hours=13)  # past min_open (12 h), before popular_after (48 h)
WIZARDS = ("Ann", "Bob", "Cy", "Di", "Ed")  # quorum 3


def _game():
    v, state = seated("blognomic", "b", WIZARDS, NOW)
    prop = v.proposals.submit(
        state, Ctx(NOW), "Ann", "Title", "text", changes=[], self_killed=False, vetoed=False
    )
    return v, state, prop


def _vote(v, state, who, word, at=LATER):
    ctx = Ctx(at)
    ballot = {"number": 1, "vote": word, "word": word, "line": word, "reason": ""}
    v.handle(state, {"type": "vote", "player": who, "ballots": [ballot]}, ctx)
    return ctx


def test_the_authors_vote_is_for_until_they_vote():
    v, state, prop = _game()
    assert (prop["status"], prop["votes"]) == ("pending", {"Ann": "FOR"})
    assert v.quorum(state) == 3


def test_a_matter_is_enacted_the_moment_its_for_reaches_quorum():
    v, state, prop = _game()
    _vote(v, state, "Bob", "FOR")
    assert prop["status"] == "pending"
    _vote(v, state, "Cy", "FOR")
    assert prop["status"] == "enacted"
    assert prop["reason"].startswith("popular")
    assert prop["tally"] == {"FOR": 3, "AGAINST": 0, "quorum": 3}


def test_a_matter_fails_the_moment_quorum_is_out_of_reach():
    v, state, prop = _game()
    for n in ("Bob", "Cy"):
        _vote(v, state, n, "AGAINST", at=NOW)
    assert prop["status"] == "pending"
    _vote(v, state, "Di", "AGAINST", at=NOW)
    assert (prop["status"], prop["reason"]) == ("failed", "unpopular")


def test_the_authors_against_self_kills_their_proposal():
    v, state, prop = _game()
    ctx = _vote(v, state, "Ann", "AGAINST", at=NOW)
    assert any("self-kills" in line for line in ctx.ack_lines)
    assert (prop["status"], prop["reason"]) == ("failed", "self-killed")


def test_only_the_historian_may_veto():
    v, state, prop = _game()
    with pytest.raises(Refused, match="only the Historian may VETO"):
        _vote(v, state, "Bob", "VETO", at=NOW)
    assert prop["votes"] == {"Ann": "FOR"}


def test_deferential_without_a_historian_does_not_count():
    v, state, prop = _game()
    for n in ("Bob", "Cy"):
        _vote(v, state, n, "DEFERENTIAL")
    assert prop["status"] == "pending"
    assert v.wizards.effective_votes(state, prop) == {"Ann": "FOR"}


def test_an_idle_wizard_has_no_vote():
    v, state, prop = _game()
    state["players"][1]["status"] = "idle"
    with pytest.raises(Refused, match="send \\[Unidle\\] first"):
        _vote(v, state, "Bob", "FOR", at=NOW)
