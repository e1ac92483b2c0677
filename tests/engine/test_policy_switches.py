"""Each switch of the voting policy, as a table: the ways players word it in a rule and the word
the referee reads there, and the wordings it must leave to the GM (None)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from mailref.engine.context import Refused
from mailref.engine.mechanics import voting
from mailref.engine.ruleparams import read
from mailref.engine.variants.rule_tables import SIDEKICK
from mailref.engine.variants.sidekick import VOTING

pytestmark = pytest.mark.spec("5.1")

RULE_12 = (
    "If the current proposal receives more “for” votes than “against” votes, it is said to have "
    "passed. If it receives more “against” votes than “for” votes, or if the number of “for” "
    "votes and “against” votes is tied, the proposal is said to have failed."
)


@pytest.mark.parametrize(
    ("text", "word"),
    [
        (RULE_12, "fails"),
        (RULE_12.replace("tied, the proposal is said to have failed", "tied, it passes"), "passes"),
        (
            "If the current proposal receives at least as many “for” votes as “against” votes, "
            "it is said to have passed. Otherwise it is said to have failed.",
            "passes",
        ),
        ("If the number of “for” and “against” votes is tied, the proposal passes.", "passes"),
        ("A proposal that ties is said to have passed.", "passes"),
        ("A proposal passes on a tie.", "passes"),
        ("In the event of a tie, the proposal is adopted.", "passes"),
        ("If the votes are equal, the proposal carries.", "passes"),
        ("If the votes are level, it is rejected.", "fails"),
        ("A proposal fails on a tie.", "fails"),
        ("A tied proposal is not said to have passed.", None),
        ("A tie does not fail a proposal.", None),
        ("More “for” than “against” votes pass a proposal.", None),
    ],
)
def test_rule_12_says_whether_a_tie_passes_or_fails(text, word):
    assert read(SIDEKICK["tie"], text) == word


def test_the_gm_sets_the_tie_by_its_words():
    kind = SIDEKICK["tie"].kind
    assert kind.parse("tie", "Passes") == "passes"
    with pytest.raises(Refused):
        kind.parse("tie", "maybe")


@pytest.mark.parametrize(
    ("tie", "passes", "reason"), [("fails", False, "tie"), ("passes", True, "a tie passes")]
)
def test_the_count_follows_the_tie_switch(tie, passes, reason):
    policy = replace(VOTING, tie=tie)
    outcome = voting.count(policy, {"Ann": "FOR", "Bob": "AGAINST", "Cy": "ABSTAIN"})
    assert (outcome.passes, outcome.fails, outcome.reason) == (passes, not passes, reason)


@pytest.mark.parametrize(
    ("text", "word"),
    [
        (RULE_12, "nothing"),  # rule 12 counts only "for" and "against"
        ("A vote of abstaining is counted as a vote against.", "against"),
        ("Abstentions count as votes against the proposal.", "against"),
        ("An abstention counts as a vote against the proposal.", "against"),
        ("A vote of “abstaining” shall be considered as a “for” vote.", "for"),
        ("Abstaining votes are treated as against.", "against"),
        ("Abstentions are ignored.", "nothing"),
        ("A vote of abstaining is not counted as a vote against.", None),
    ],
)
def test_a_rule_says_what_an_abstain_counts_as(text, word):
    assert read(SIDEKICK["abstain"], text) == word


def test_a_new_rule_says_an_abstain_only_where_it_speaks_of_one():
    kind = SIDEKICK["abstain"].kind
    assert kind.read((), False, "Every player wears a hat.") is None
    assert kind.read((), False, "A vote of abstaining is counted as a vote against.") == "against"


@pytest.mark.parametrize(
    ("abstain", "passes"), [("nothing", True), ("against", False), ("for", True)]
)
def test_the_count_follows_what_an_abstain_counts_as(abstain, passes):
    policy = replace(VOTING, abstain=abstain)
    outcome = voting.count(policy, {"Ann": "FOR", "Bob": "ABSTAIN", "Cy": "ABSTAIN"})
    assert outcome.passes is passes


RULE_11 = (
    "As soon as the moving player has emailed a proposal to the group, all other players must "
    "email a reply that provides a vote. If, when a player is required to vote, he or she does "
    "not vote within five days, his or her vote is automatically considered to be “abstaining.” "
    "The player moving is assumed to be voting “for” the proposal, and does not need to state this."
)


@pytest.mark.parametrize(
    ("text", "word"),
    [
        (RULE_11, "for"),
        (
            RULE_11.replace("is assumed to be voting “for” the proposal", "votes like any other"),
            "own",
        ),
        ("The moving player must also vote within five days.", "own"),
        ("All players, including the player moving, must vote within five days.", "own"),
        ("Each player votes within five days.", "own"),  # the assumption is gone
        ("The player moving is not assumed to be voting “for” the proposal.", "own"),
        ("The mover may not vote.", None),
    ],
)
def test_rule_11_says_whether_the_movers_vote_is_fixed(text, word):
    assert read(SIDEKICK["mover_vote"], text) == word


RULE_17 = (
    "The person preceeding the person currently moving becomes the “Judge,” and must decide the "
    "correct answer to the question. If the person whose turn preceeds the person moving is "
    "“away,” then the preceeding person becomes the Judge."
)


@pytest.mark.parametrize(
    ("text", "word"),
    [
        (RULE_17, "before"),
        (RULE_17.replace("preceeding the", "following the").replace("preceeds", "follows"), None),
        (
            RULE_17.replace("preceeding the", "following the")
            .replace("whose turn preceeds", "whose turn follows")
            .replace("the preceeding person", "the next person"),
            "after",
        ),
        ("The player after the player currently moving becomes the Judge.", "after"),
        ("The Judge is the player whose turn is next.", "after"),
        ("The GM becomes the Judge.", None),
    ],
)
def test_rule_17_says_whether_the_judge_comes_before_or_after_the_mover(text, word):
    assert read(SIDEKICK["judge"], text) == word
