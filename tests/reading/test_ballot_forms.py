"""Every ballot form of SPEC §3.2 is read, its reason kept; prose that begins with or holds a
vote word is never a ballot, nor is a line with other words after the vote and no sentence
break."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mailref.read import read_ballots
from mailref.read.ballots import VOTE_WORDS

pytestmark = pytest.mark.spec("3.2")


@pytest.mark.parametrize(
    "line,vote,reason",
    [
        ("AGAINST. It breaks rule 5.", "AGAINST", "It breaks rule 5."),
        ("FOR — nice one", "FOR", "nice one"),
        ("FOR—nice one", "FOR", "nice one"),
        ("FOR - about time", "FOR", "about time"),
        ("FOR -- about time", "FOR", "about time"),
        ("Against – the dice are loaded.", "AGAINST", "the dice are loaded."),
        ("No! Never again.", "AGAINST", "Never again."),
        ("Yes; it fixes rule 3.", "FOR", "it fixes rule 3."),
        ("ABSTAIN: I wrote it with Nora.", "ABSTAIN", "I wrote it with Nora."),
        ("**AGAINST**. Too random.", "AGAINST", "Too random."),
        ("“AGAINST” – sorry, Nora.", "AGAINST", "sorry, Nora."),
        ("‘for’. Why not.", "FOR", "Why not."),
        ("✅ FOR", "FOR", ""),
        ("✓ AGAINST: it's too long", "AGAINST", "it's too long"),
        ("☑ Abstain", "ABSTAIN", ""),
        ("I vote for it.", "FOR", ""),
        ("I vote against it: it breaks rule 5", "AGAINST", "it breaks rule 5"),
        ("For this.", "FOR", ""),
        ("Against this!", "AGAINST", ""),
        ("My vote is AGAINST. Rule 5 forbids it.", "AGAINST", "Rule 5 forbids it."),
        ("Vote: FOR. Nice.", "FOR", "Nice."),
        ("+1", "FOR", ""),
        ("-1", "AGAINST", ""),
        ("0", "ABSTAIN", ""),
        ("+1. Long overdue.", "FOR", "Long overdue."),
        ("AGAINST:", "AGAINST", ""),
        ("FOR!!!", "FOR", ""),
        # A comma after the vote in capitals: the vote, then why.
        ("FOR, biscuits are great", "FOR", "biscuits are great"),
        ("FOR, nice idea.", "FOR", "nice idea."),
        ("AGAINST, it breaks rule 5", "AGAINST", "it breaks rule 5"),
    ],
)
def test_a_ballot_and_its_reason(line, vote, reason):
    (b,) = read_ballots(f"Hello Nora,\n\n{line}\n\nOisin", 12).ballots
    assert (b.number, b.vote, b.reason, b.line) == (12, vote, reason, line)


@pytest.mark.parametrize(
    "line,number,vote,reason",
    [
        ("12 FOR. Good one.", 12, "FOR", "Good one."),
        ("#13: AGAINST — too long", 13, "AGAINST", "too long"),
        ("Proposal 14 - FOR", 14, "FOR", ""),
        ("15 +1", 15, "FOR", ""),
        ("16: -1", 16, "AGAINST", ""),
    ],
)
def test_numbered_ballots_with_reasons(line, number, vote, reason):
    (b,) = read_ballots(line).ballots
    assert (b.number, b.vote, b.reason) == (number, vote, reason)


@pytest.mark.parametrize(
    "line",
    [
        "No, wait",
        "NO, wait",
        "No, wait, I need to read it.",
        "For what it's worth, I'm AGAINST this.",
        "For what it's worth…",
        "No strong feelings yet",
        "No strong feelings yet -- what does this mean?",
        "Pro tip: read rule 5.",
        "No. Wait, let me think about it.",
        "Yes. Just kidding, I haven't read it.",
        "FOR? Not sure.",
        "For, as you know, it is late.",
        "FOR-ish, I suppose.",
        "+1 if the typo is fixed",
        "+1, great",
        "0.5",
        "120",
        "10 points",
        "For the record: I was away.",
        "Present at the meeting: Nora, Oisin.",
        "Not FOR.",
        "FOR AGAINST",
        "I vote for whatever Nora votes.",
        "I vote against this one.",
        "Yes please explain.",
    ],
)
def test_prose_is_never_a_ballot(line):
    r = read_ballots(f"Hello Nora,\n\n{line}\n\nOisin", 12)
    assert r.ballots == [] and r.ignored == []


def test_numeric_votes_count_only_for_the_meanings_the_game_has():
    assert read_ballots("0", 12, numeric=("FOR", "AGAINST")).ballots == []
    assert [b.vote for b in read_ballots("+1", 12, numeric=("FOR", "AGAINST")).ballots] == ["FOR"]
    assert read_ballots("-1", 12, numeric=()).ballots == []


FORMS = [
    "{w}",
    "**{w}**",
    "“{w}”",
    "✅ {w}",
    "I vote {w}",
    "Vote: {w}",
    "My vote is {w}",
    "12 {w}",
    "#12: {w}",
    "Proposal 12 - {w}",
    "+1",
    "-1",
    "0",
]
FORM_WORDS = {
    "i",
    "vote",
    "my",
    "is",
    "proposal",
    "prop",
    "p",
    "cfj",
    "dov",
    "matter",
    "no",
    "b",
    "it",
    "this",
}
other_words = st.text(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'", min_size=1, max_size=9
).filter(lambda w: w.lower().strip("'") not in FORM_WORDS and w.strip("'"))


@settings(max_examples=300, deadline=None)
@given(
    form=st.sampled_from(FORMS),
    word=st.sampled_from(sorted(VOTE_WORDS)),
    extra=st.lists(other_words, min_size=1, max_size=3),
    joint=st.sampled_from([" ", ", ", " and ", "? "]),
)
def test_other_words_after_the_vote_without_a_sentence_break_are_prose(form, word, extra, joint):
    ballot = form.format(w=word)
    assert read_ballots(ballot, 12).ballots
    assert read_ballots(f"{ballot}{joint}{' '.join(extra)}", 12).ballots == []


TAKE_BACK = re.compile(r"(wait|hold|just|kidding|not|let|scratch|never|maybe|or)\b")


@settings(max_examples=200, deadline=None)
@given(
    form=st.sampled_from(FORMS),
    word=st.sampled_from(sorted(VOTE_WORDS)),
    brk=st.sampled_from([". ", "! ", "; ", ": ", " - ", " — ", " -- "]),
    reason=st.text("abcdefghijklmnopqrstuvwxyz ,'", min_size=1, max_size=40).filter(
        lambda r: r.strip()[:1].isalpha() and not TAKE_BACK.match(r.strip())
    ),
)
def test_a_reason_after_a_sentence_break_is_kept(form, word, brk, reason):
    (b,) = read_ballots(f"{form.format(w=word)}{brk}{reason}", 12).ballots
    assert b.reason == reason.strip()
