"""Ballots in a mail body: `12 FOR`, `#12: AGAINST`, `Proposal 12 - FOR`, or, in a reply to
a matter, the first vote word on an unquoted line. Within one mail the last vote for a
matter wins; what was ignored is said, with why."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# Every word anyone writes, to its meaning; a variant keeps the meanings it allows and may
# rename them (imperial says YES/NO).
VOTE_WORDS: dict[str, str] = {
    "for": "FOR", "yes": "FOR", "aye": "FOR", "yea": "FOR", "pro": "FOR",
    "against": "AGAINST", "no": "AGAINST", "nay": "AGAINST", "contra": "AGAINST",
    "abstain": "ABSTAIN", "abstaining": "ABSTAIN", "present": "ABSTAIN", "abs": "ABSTAIN",
    "deferential": "DEFERENTIAL", "def": "DEFERENTIAL", "deferent": "DEFERENTIAL",
    "veto": "VETO",
}
_WORDS = "|".join(sorted(VOTE_WORDS, key=len, reverse=True))
_NUMBERED = re.compile(
    r"^[\s*_\[\]b/-]*(?:(?:proposal|prop|p|cfj|dov|matter|item|no\.?|number)\s*)?#?\s*(\d+)\s*[:.)=,\-–—]*\s*"
    r"[*_\[\]b/]*(" + _WORDS + r")\b",
    re.I,
)
_LEADING = re.compile(r"^[\s*_\[\]/b>:-]*(?:my\s+)?(?:vote|ballot)?\s*[:=-]?\s*[*_\[\]b/]*(" + _WORDS + r")\b[\s*_\[\]/!.]*", re.I)
_SAID = re.compile(r"\bI?\s*vote[sd]?\s*:?\s*[*_]*(" + _WORDS + r")\b", re.I)
_UPPER = re.compile(r"\b(FOR|AGAINST|ABSTAIN|PRESENT|YES|NO|DEFERENTIAL|DEF|VETO)\b")


@dataclass
class Ballot:
    number: int | None
    vote: str     # canonical meaning, e.g. "FOR"
    word: str     # as written
    line: str


@dataclass
class BallotReading:
    ballots: list[Ballot] = field(default_factory=list)
    ignored: list[tuple[str, str]] = field(default_factory=list)  # (line, why)


def vote_meaning(word: str) -> str | None:
    return VOTE_WORDS.get(word.strip("*_ .!").lower())


def read_ballots(text: str, default_number: int | None = None) -> BallotReading:
    """Ballots from the sender's own words (quotes already removed)."""
    reading = BallotReading()
    lines = [ln for ln in text.splitlines() if ln.strip()]
    numbered: dict[int, Ballot] = {}
    for ln in lines:
        m = _NUMBERED.match(ln)
        if m and not re.match(r"^\s*\d+\s*(days?|hours?|h|d)\b", ln, re.I):
            b = Ballot(int(m.group(1)), VOTE_WORDS[m.group(2).lower()], m.group(2), ln.strip())
            if b.number in numbered:
                reading.ignored.append((numbered[b.number].line, f"replaced by a later vote on {b.number} in the same mail"))
            numbered[b.number] = b
    if numbered:
        reading.ballots = list(numbered.values())
        return reading
    if default_number is None:
        return reading
    for ln in lines:
        m = _LEADING.match(ln) or _SAID.search(ln)
        if m is None:
            m2 = _UPPER.search(ln)
            if m2:
                m = m2
        if m:
            word = m.group(1)
            reading.ballots.append(Ballot(default_number, VOTE_WORDS[word.lower()], word, ln.strip()))
            return reading
    return reading
