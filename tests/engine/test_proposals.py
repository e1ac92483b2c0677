"""The proposal lifecycle driven directly, with no mail and no store: a voting policy in,
ballots in, the outcome out (mailref/engine/mechanics/)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from mailref.engine.context import Ctx, Refused
from mailref.engine.mechanics.voting import count, due
from mailref.engine.variants import get_variant
from mailref.engine.variants.blognomic import VOTING as BLOGNOMIC
from mailref.engine.variants.imperial import VOTING as IMPERIAL
from mailref.engine.variants.sidekick import VOTING as SIDEKICK
from support.seated import seated

NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


# ---- the count, by policy ------------------------------------------------------------
@pytest.mark.parametrize(
    ("votes", "passes", "reason"),
    [
        ({"Ann": "FOR", "Bob": "FOR", "Cy": "AGAINST"}, True, "more FOR than AGAINST"),
        ({"Ann": "FOR", "Bob": "AGAINST"}, False, "tie"),
        ({"Ann": "FOR", "Bob": "AGAINST", "Cy": "AGAINST"}, False, "more AGAINST than FOR"),
        ({"Ann": "FOR", "Bob": "ABSTAIN", "Cy": "ABSTAIN"}, True, "more FOR than AGAINST"),
        ({"Ann": "ABSTAIN", "Bob": "ABSTAIN"}, False, "tie"),
    ],
)
def test_a_majority_of_the_ballots_cast_passes_and_a_tie_fails(votes, passes, reason):
    outcome = count(SIDEKICK, votes)
    assert (outcome.passes, outcome.fails, outcome.reason) == (passes, not passes, reason)
    assert sum(outcome.counts.values()) == len(votes)


def test_the_count_of_ballots_cast_keeps_every_word_it_saw():
    outcome = count(SIDEKICK, {"Ann": "FOR", "Bob": "ABSTAIN", "Cy": "FOR"})
    assert outcome.counts == {"FOR": 2, "ABSTAIN": 1}


SENATORS = ["Bob", "Cy", "Di", "Ed"]


@pytest.mark.parametrize(
    ("votes", "passes"),
    [
        ({"Bob": "YES", "Cy": "YES", "Di": "YES"}, True),
        ({"Bob": "YES", "Cy": "YES"}, False),  # two of four is no majority of the entitled
        ({"Bob": "YES", "Cy": "YES", "Di": "NO"}, False),
        ({"Bob": "YES", "Cy": "YES", "Ann": "YES"}, False),  # Ann is not entitled: not counted
        ({}, False),
    ],
)
def test_a_majority_of_those_entitled_to_vote_passes(votes, passes):
    outcome = count(IMPERIAL, votes, SENATORS)
    assert (outcome.passes, outcome.fails) == (passes, not passes)
    assert outcome.counts["senators"] == 4
    assert outcome.counts["YES"] == sum(v == "YES" and n in SENATORS for n, v in votes.items())


WIZARDS = ["Ann", "Bob", "Cy", "Di", "Ed"]  # quorum 3


@pytest.mark.parametrize(
    ("votes", "long_open", "popular", "unpopular"),
    [
        ({"Ann": "FOR"}, False, False, False),  # undecided: the author's FOR alone
        ({"Ann": "FOR", "Bob": "FOR", "Cy": "FOR"}, False, True, False),  # FOR reaches quorum
        ({"Ann": "FOR", "Bob": "AGAINST", "Cy": "AGAINST", "Di": "AGAINST"}, False, False, True),
        ({"Ann": "FOR", "Bob": "FOR", "Cy": "AGAINST"}, True, True, False),  # long open, more FOR
        ({"Ann": "FOR", "Bob": "AGAINST"}, True, False, True),  # long open, a tie: Unpopular
        ({"Ann": "FOR"}, True, False, True),  # long open, one vote is not enough
    ],
)
def test_a_matter_is_popular_or_unpopular_by_quorum(votes, long_open, popular, unpopular):
    outcome = count(BLOGNOMIC, votes, WIZARDS, quorum=3, long_open=long_open)
    assert (outcome.passes, outcome.fails) == (popular, unpopular)
    assert outcome.counts["quorum"] == 3


# ---- when a matter is due ---------------------------------------------------------
@pytest.mark.parametrize(
    ("waiting", "late", "is_due"),
    [([], False, True), (["Bob"], False, False), (["Bob"], True, True), ([], True, True)],
)
def test_a_vote_closes_once_all_have_voted_or_at_its_deadline(waiting, late, is_due):
    deadline = NOW - timedelta(seconds=1) if late else NOW + timedelta(days=1)
    assert due(SIDEKICK, waiting, NOW, deadline) is is_due


@pytest.mark.parametrize(
    ("policy", "late", "is_due"),
    [(IMPERIAL, False, False), (IMPERIAL, True, True), (BLOGNOMIC, False, True)],
)
def test_a_vote_closes_at_its_deadline_or_as_soon_as_it_is_decided(policy, late, is_due):
    deadline = NOW - timedelta(seconds=1) if late else NOW + timedelta(days=1)
    assert due(policy, [], NOW, deadline) is is_due


def test_the_policy_names_the_ballots_as_players_are_told_them():
    assert SIDEKICK.offered_text() == "FOR, AGAINST or ABSTAIN"
    assert IMPERIAL.offered_text() == "YES or NO"
    assert BLOGNOMIC.offered_text() == "FOR, AGAINST or DEFERENTIAL"  # VETO is the Historian's


# ---- the lifecycle on a game's state -------------------------------------------------
def _sidekick(*names: str):
    v, state = seated("sidekick", "g", names, NOW)
    state["order"] = list(names)
    state["turn"] = {"number": 1, "player": names[0], "deadline": None, "proposal": None}
    return v, state


def _propose(v, state, ctx):
    prop = v.proposals.submit(
        state, ctx, "Ann", "Title", "text", NOW + timedelta(days=5), changes=[]
    )
    state["turn"]["proposal"] = prop["number"]
    return prop


def _vote(v, state, who, number, word, at=NOW):
    ctx = Ctx(at)
    ballot = {"number": number, "vote": word, "word": word, "line": word, "reason": ""}
    v.handle(state, {"type": "vote", "player": who, "ballots": [ballot]}, ctx)
    return ctx


def test_a_submitted_proposal_holds_its_authors_vote_and_is_open():
    v, state = _sidekick("Ann", "Bob", "Cy")
    prop = _propose(v, state, Ctx(NOW))
    assert prop["status"] == "voting"
    assert prop["votes"] == {"Ann": "FOR"}
    assert state["proposals"] == [prop]


def test_the_last_awaited_ballot_closes_the_vote_under_the_policy():
    v, state = _sidekick("Ann", "Bob", "Cy")
    prop = _propose(v, state, Ctx(NOW))
    _vote(v, state, "Bob", prop["number"], "AGAINST")
    assert prop["status"] == "voting"
    ctx = _vote(v, state, "Cy", prop["number"], "ABSTAIN")
    # The mover's FOR against Bob's AGAINST is a tie; Cy's ABSTAIN does not break it.
    assert (prop["status"], prop["reason"]) == ("failed", "tie")
    assert prop["tally"] == {"FOR": 1, "AGAINST": 1, "ABSTAIN": 1}
    assert state["players"][0]["score"] == -5  # fail_points, the policy's points
    assert any(o.kind == "results" for o in ctx.out)


def test_a_pass_scores_the_author_pass_points():
    v, state = _sidekick("Ann", "Bob")
    prop = _propose(v, state, Ctx(NOW))
    _vote(v, state, "Bob", prop["number"], "FOR")
    assert prop["status"] == "passed"
    assert prop["reason"].startswith("more FOR than AGAINST")
    assert state["players"][0]["score"] == 10


def test_the_movers_own_ballot_is_fixed_by_the_policy():
    v, state = _sidekick("Ann", "Bob")
    prop = _propose(v, state, Ctx(NOW))
    with pytest.raises(Refused, match="cannot change"):
        _vote(v, state, "Ann", prop["number"], "AGAINST")
    ctx = _vote(v, state, "Ann", prop["number"], "FOR")
    assert "nothing changed" in ctx.ack_lines[0]
    assert prop["ballots"] == []


def test_a_ballot_on_a_closed_matter_is_refused():
    v, state = _sidekick("Ann", "Bob")
    prop = _propose(v, state, Ctx(NOW))
    _vote(v, state, "Bob", prop["number"], "FOR")
    with pytest.raises(Refused, match="is closed"):
        _vote(v, state, "Bob", prop["number"], "AGAINST")


def test_silent_players_abstain_when_the_deadline_closes_the_vote():
    v, state = _sidekick("Ann", "Bob", "Cy")
    prop = _propose(v, state, Ctx(NOW))
    ctx = Ctx(NOW + timedelta(days=6))
    v.proposals.close(state, prop, ctx)
    assert prop["votes"] == {"Ann": "FOR", "Bob": "ABSTAIN", "Cy": "ABSTAIN"}
    assert prop["status"] == "passed"


def test_the_admin_decides_a_matter_through_the_same_lifecycle():
    v, state = _sidekick("Ann", "Bob", "Cy")
    prop = _propose(v, state, Ctx(NOW))
    ctx = Ctx(NOW)
    v.handle(
        state, {"type": "decide", "number": prop["number"], "outcome": "fail", "by": "gm"}, ctx
    )
    assert (prop["status"], prop["reason"]) == ("failed", "failed by the admin")
    with pytest.raises(Refused, match="is closed"):
        v.handle(state, {"type": "decide", "number": prop["number"], "outcome": "enact"}, ctx)


def test_a_word_the_game_does_not_take_is_refused_alike_in_every_nomic():
    v, state = _sidekick("Ann", "Bob")
    prop = _propose(v, state, Ctx(NOW))
    with pytest.raises(Refused, match="MAYBE is not a vote here") as e:
        _vote(v, state, "Bob", prop["number"], "MAYBE")
    assert e.value.hint == "vote FOR, AGAINST or ABSTAIN"


def test_the_admins_decision_names_a_blognomic_matter_as_a_ballot_does():
    v = get_variant("blognomic")
    state = v.initial_state("b", "B", "b@example.org", None, "UTC", {}, NOW)
    for kind in ("decide", "vote_override"):
        with pytest.raises(Refused, match="there is no matter 9"):
            v.handle(
                state,
                {"type": kind, "number": 9, "outcome": "fail", "player": "Ann", "vote": "FOR"},
                Ctx(NOW),
            )


def _imperial():
    v = get_variant("imperial")
    state = v.initial_state("e", "E", "e@example.org", None, "UTC", {}, NOW)
    for n, offices in (("Ann", ["emperor"]), ("Bob", ["senator"]), ("Cy", ["senator"])):
        state["players"].append(
            {
                "name": n,
                "addresses": [f"{n.lower()}@example.org"],
                "status": "active",
                "score": 0,
                "offices": offices,
                "joined": "2026-03-01T00:00:00Z",
            }
        )
    return v, state


def test_a_senate_majority_leaves_the_matter_open_for_the_emperor():
    v, state = _imperial()
    prop = v.proposals.submit(
        state, Ctx(NOW), "Bob", "Title", "text", NOW + timedelta(days=4), changes=[]
    )
    assert prop["votes"] == {}  # the author has no vote (rule 6)
    _vote(v, state, "Cy", prop["number"], "YES")
    v.proposals.close_vote(state, prop, Ctx(NOW + timedelta(days=5)))
    assert (prop["status"], prop["closed"], prop["deadline"]) == ("awaiting-judgement", None, None)
    assert prop["tally"] == {"YES": 1, "NO": 0, "senators": 1}


def test_the_senate_rejecting_a_matter_gives_why():
    v, state = _imperial()
    prop = v.proposals.submit(
        state, Ctx(NOW), "Bob", "Title", "text", NOW + timedelta(days=4), changes=[]
    )
    v.proposals.close_vote(state, prop, Ctx(NOW + timedelta(days=5)))
    assert prop["status"] == "rejected"
    assert prop["reason"] == "no majority of the Senators entitled to vote voted YES"


def test_the_admin_decides_in_the_emperors_name():
    v, state = _imperial()
    prop = v.proposals.submit(
        state, Ctx(NOW), "Bob", "Title", "text", NOW + timedelta(days=4), changes=[]
    )
    ctx = Ctx(NOW)
    v.handle(
        state, {"type": "decide", "number": prop["number"], "outcome": "fail", "by": "gm"}, ctx
    )
    assert prop["status"] == "vetoed"
    assert "Proposal 1 is vetoed." in ctx.ack_lines


def test_without_an_emperor_the_admin_cannot_decide():
    v, state = _imperial()
    prop = v.proposals.submit(
        state, Ctx(NOW), "Bob", "Title", "text", NOW + timedelta(days=4), changes=[]
    )
    state["players"][0]["offices"] = []
    with pytest.raises(Refused, match="no Emperor in whose name"):
        v.handle(state, {"type": "decide", "number": prop["number"], "outcome": "enact"}, Ctx(NOW))
    assert prop["status"] == "voting"


def test_the_admin_sets_a_ballot_in_the_games_own_words():
    v, state = _imperial()
    prop = v.proposals.submit(
        state, Ctx(NOW), "Bob", "Title", "text", NOW + timedelta(days=4), changes=[]
    )
    ctx = Ctx(NOW)
    override = {"type": "vote_override", "number": 1, "player": "Cy", "vote": "FOR", "by": "gm"}
    v.handle(state, override, ctx)
    assert prop["votes"] == {"Cy": "YES"}  # FOR, as Imperial says it
    assert ctx.ack_lines[0].endswith("(admin override)")
    assert [o.to for o in ctx.out] == [["Cy"]]  # Cy is told; the vote closes at its deadline
