"""Ballots in a mail body (SPEC §3.2). Only unmistakable ballots count; a wrong guess is
worse than asking again. A line is a ballot when, once emphasis (`**x**`, `*x*`, `__x__`,
`[b]x[/b]`), quotes, a list bullet and closing punctuation are set aside, it is exactly one of:

    FOR                      the vote word alone (in a reply to proposal N, or [Vote] N)
    I vote FOR               also `Vote: FOR`, `My vote is FOR`
    12 FOR                   also `#12: AGAINST`, `Proposal 12 - FOR`, `P7 abstain`, `12. I vote FOR`

Any other word on the line makes it prose ("For what it's worth, I'm AGAINST this.",
"Present company excepted, I vote against."), never a ballot. Within one mail the last
ballot for a matter wins; what was set aside is said, with why."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from mailref.read.limits import bounded

# The vote words of SPEC §3.2, to their meaning; a variant keeps the meanings it allows and
# may rename them (imperial says YES/NO). Nothing else is a vote word: "pro", "aye" and
# "nay" read too easily as prose.
VOTE_WORDS: dict[str, str] = {
    "for": "FOR",
    "yes": "FOR",
    "against": "AGAINST",
    "no": "AGAINST",
    "abstain": "ABSTAIN",
    "present": "ABSTAIN",
    "deferential": "DEFERENTIAL",
    "def": "DEFERENTIAL",
    "veto": "VETO",
}
_WORD = "(?P<word>" + "|".join(sorted(VOTE_WORDS, key=len, reverse=True)) + ")"
# Emphasis and quotes are set aside (as spaces, so `F*OR` stays two words) before matching.
_DECOR = re.compile(r"\[/?b\]|[*_\"'“”‘’«»`\s]+", re.I)
_NUMBER = (
    r"(?:(?:proposal|prop|p|cfj|dov|matter|no\.?) ?)?#? ?(?P<number>\d{1,6}) ?(?:[:.)=-]|[–—])? ?"
)
_SAID = r"(?:(?:i vote ?:?|my vote is ?:?|my vote ?:|vote ?:) ?)?"
_BALLOT = re.compile(r"^(?:[-•] )?(?:" + _NUMBER + r")?" + _SAID + _WORD + r" ?[.!]*$", re.I)
_HAS_WORD = re.compile(r"\b(?:" + "|".join(VOTE_WORDS) + r")\b")  # on a lower-cased line
HOW_TO_VOTE = (
    "write the vote word alone on a line ({w}), or `I vote {w}`, `Vote: {w}`, "
    "`My vote is {w}`, with your reason, if any, on the next line; for several proposals, "
    "lines like `12 {w}`"
)


def how_to_vote(words: tuple[str, ...] | list[str] = ("FOR", "AGAINST", "ABSTAIN")) -> str:
    """The hint of a "no vote found" answer, in the game's own vote words."""
    return (
        HOW_TO_VOTE.format(w=words[0] if words else "FOR")
        + f" (the votes here: {', '.join(words)})"
    )


@dataclass
class Ballot:
    number: int | None
    vote: str  # canonical meaning, e.g. "FOR"
    word: str  # as written
    line: str  # the whole line it was read from, to quote back


@dataclass
class BallotReading:
    ballots: list[Ballot] = field(default_factory=list)
    ignored: list[tuple[str, str]] = field(default_factory=list)  # (line, why)
    near_misses: list[str] = field(default_factory=list)  # lines with a vote word that are prose


def vote_meaning(word: str) -> str | None:
    return VOTE_WORDS.get(word.strip("*_ .!").lower())


def read_ballot_line(line: str) -> Ballot | None:
    """The ballot LINE is, if it is exactly one of the allowed forms."""
    if len(line) > 120:  # no ballot is this long; keeps the work per line bounded
        return None
    m = _BALLOT.match(_DECOR.sub(" ", line).strip())
    if m is None:
        return None
    number = int(m.group("number")) if m.group("number") else None
    word = m.group("word")
    return Ballot(number, VOTE_WORDS[word.lower()], word, line.strip())


def read_ballots(text: str, default_number: int | None = None) -> BallotReading:
    """Ballots from the sender's own words (quotes already removed). A ballot without a
    number is for DEFAULT_NUMBER (the proposal replied to); without one it is set aside."""
    reading = BallotReading()
    found: dict[int, Ballot] = {}
    for ln in bounded(text).splitlines():
        if not ln.strip():
            continue
        b = read_ballot_line(ln)
        if b is None:
            continue
        if b.number is None:
            if default_number is None:
                reading.ignored.append((b.line, "which proposal? write `12 FOR` or use [Vote] 12"))
                continue
            b.number = default_number
        if b.number in found:
            reading.ignored.append(
                (found[b.number].line, f"replaced by a later vote on {b.number} in the same mail")
            )
        found[b.number] = b
    reading.ballots = list(found.values())
    if not found:  # only an answer that asks again needs them
        set_aside = {line for line, _ in reading.ignored}
        reading.near_misses = [
            ln.strip()[:120]
            for ln in text.splitlines()
            if len(ln) <= 500 and _HAS_WORD.search(ln.lower()) and ln.strip() not in set_aside
        ][:3]
    return reading
