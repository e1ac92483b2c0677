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


def test_a_new_rule_counting_an_abstain_as_against_makes_abstentions_defeat_a_proposal(
    referee, outbox
):
    """A new rule "a vote of abstaining is counted as a vote against" passes; FOR 1, ABSTAIN 2
    used to pass as rule 12 first counted. Now it fails, and the ruleset mail says the referee
    runs the new rule."""
    first = nomes(referee)
    send(
        referee,
        first,
        "[Proposal] Abstentions",
        'Enact rule 30 "Abstentions":\nA vote of abstaining is counted as a vote against.\n',
    )
    for p in PLAYERS:
        if p.title() != first:
            send(referee, p, "[Vote] 1", "FOR")
    state = referee.state("nomes")
    assert state["parameters"]["abstain"] == "against"
    ruleset = _last(outbox, "ruleset", addr(first))
    assert (
        "runs new rule 30 as it reads: an ABSTAIN counts as against (abstain: nothing -> against)"
    ) in ruleset
    assert "does not run its new rule 30" not in ruleset

    mover = state["turn"]["player"]
    send(referee, mover, "[Proposal] Quiet", 'Enact rule 31 "Quiet":\nAll is quiet.\n')
    for p in PLAYERS:
        if p.title() != mover:
            send(referee, p, "[Vote] 2", "ABSTAIN")
    prop = referee.state("nomes")["proposals"][-1]
    assert (prop["status"], prop["reason"]) == (
        "failed",
        "more AGAINST than FOR, each ABSTAIN counted as AGAINST",
    )

    # Rule 12 amended, still silent on abstaining: the new rule's ABSTAIN holds.
    mover = referee.state("nomes")["turn"]["player"]
    send(
        referee,
        mover,
        "[Proposal] Ties pass",
        'In rule 12, replace "is tied, the proposal is said to have failed" with "is tied, the '
        'proposal is said to have passed".\n',
    )
    for p in PLAYERS:
        if p.title() != mover:
            send(referee, p, "[Vote] 3", "FOR")
    assert referee.state("nomes")["parameters"]["tie"] == "passes"
    assert referee.state("nomes")["parameters"]["abstain"] == "against"
    assert_replays(referee)


def test_rule_11_amended_so_the_mover_votes_lets_the_mover_vote_against(referee, outbox):
    """Rule 11 amended so that the mover votes like any other player; the mover's AGAINST used to
    be refused, quoting the sentence just removed. Now it counts."""
    first = nomes(referee)
    send(
        referee,
        first,
        "[Proposal] Movers vote",
        "Amend rule 11 to read:\nAll players, including the player moving, must vote on the "
        "current proposal. If a player does not vote within five days, his or her vote is "
        "automatically considered to be abstaining.\n",
    )
    for p in PLAYERS:
        if p.title() != first:
            send(referee, p, "[Vote] 1", "FOR")
    assert referee.state("nomes")["parameters"]["mover_vote"] == "own"
    assert "(mover_vote: for -> own)" in _last(outbox, "ruleset", addr(first))

    mover = referee.state("nomes")["turn"]["player"]
    others = [p for p in PLAYERS if p.title() != mover]
    send(referee, mover, "[Proposal] Doubt", 'Enact rule 30 "Doubt":\nAll is doubtful.\n')
    send(referee, mover, "[Vote] 2", "AGAINST")
    send(referee, others[0], "[Vote] 2", "FOR")
    send(referee, others[1], "[Vote] 2", "AGAINST")
    prop = referee.state("nomes")["proposals"][-1]
    assert prop["votes"][mover] == "AGAINST"
    assert (prop["status"], prop["reason"]) == ("failed", "more AGAINST than FOR")
    assert_replays(referee)


def test_rule_17_amended_so_the_player_after_the_mover_judges_names_that_judge(referee, outbox):
    """Rule 17 amended so that the player after the mover judges; the player before still judged.
    Now a CfJ goes to the nearest present player after the mover."""
    first = nomes(referee)
    send(
        referee,
        first,
        "[Proposal] Later judges",
        "Amend rule 17 to read:\nWhen any player wishes to question the validity of something "
        "that has taken place, he or she must email the question to the list. The person "
        "following the person currently moving becomes the Judge. If that person is away, the "
        "next person becomes the Judge.\n",
    )
    for p in PLAYERS:
        if p.title() != first:
            send(referee, p, "[Vote] 1", "FOR")
    state = referee.state("nomes")
    assert state["parameters"]["judge"] == "after"
    assert "(judge: before -> after)" in _last(outbox, "ruleset", addr(first))

    order, mover = state["order"], state["turn"]["player"]
    after = order[(order.index(mover) + 1) % len(order)]
    asker = next(p for p in order if p not in (after,))
    send(referee, asker, "[CfJ] Is rule 5 being followed?", "Details here.")
    assert referee.state("nomes")["judgements"][0]["judge"] == after
    assert_replays(referee)


def test_a_rewording_the_referee_cannot_read_is_told_to_every_player(referee, outbox):
    """Rule 12 amended to "two thirds of the votes cast", a form no switch reads: only the GM was
    alerted. Now every player's ruleset mail names the rule and says what the referee still does
    and that the GM settles the rest."""
    first = nomes(referee)
    send(
        referee,
        first,
        "[Proposal] Two thirds",
        "Amend rule 12 to read:\nA proposal passes when two thirds of the votes cast are for it.\n",
    )
    for p in PLAYERS:
        if p.title() != first:
            send(referee, p, "[Vote] 1", "FOR")
    told = (
        'Rule 12 "Passing and Failing" changed, and the referee does not read all the new text '
        "asks: it still carries it out as first written where the new text differs, and the GM, "
        "told of it, settles by hand what the new text decides otherwise."
    )
    for p in PLAYERS:
        assert told in " ".join(_last(outbox, "ruleset", addr(p)).split()), p
    alert = Outbox.body([m for m in outbox.all() if m["X-Mailref-Kind"] == "alert"][-1])
    assert "It rewrites rule 12" in alert and told not in " ".join(alert.split())
    assert_replays(referee)


@pytest.mark.parametrize(
    ("text", "name", "word"),
    [
        ("A proposal passes on a tie.", "tie", "passes"),
        ("The player moving votes like any other player.", "mover_vote", "own"),
        ("The person following the person currently moving becomes the Judge.", "judge", "after"),
    ],
)
def test_a_new_rule_stating_a_switch_sets_it(referee, outbox, text, name, word):
    """A new rule that states a switch sets it as an amendment of its own rule does, and the
    ruleset mail says the referee runs the new rule."""
    first = nomes(referee)
    send(referee, first, "[Proposal] New way", f'Enact rule 30 "New Way":\n{text}\n')
    for p in PLAYERS:
        if p.title() != first:
            send(referee, p, "[Vote] 1", "FOR")
    assert referee.state("nomes")["parameters"][name] == word
    assert "runs new rule 30 as it reads" in _last(outbox, "ruleset", addr(first))
    assert_replays(referee)
