"""Ballots in a mail body (SPEC §3.2). Only unmistakable ballots count; a wrong guess is
worse than asking again. A line is a ballot when, once emphasis (`**x**`, `*x*`, `__x__`,
`[b]x[/b]`), quotes, check marks and a list bullet are set aside, it is one of:

    FOR                      the vote word alone (in a reply to proposal N, or [Vote] N)
    I vote FOR               also `Vote: FOR`, `My vote is FOR`, `I vote FOR it`, `FOR this`
    12 FOR                   also `#12: AGAINST`, `Proposal 12 - FOR`, `P7 abstain`,
                             `12. I vote FOR`
    +1                       `-1`, `0`: FOR, AGAINST, ABSTAIN where the game has them

and may go on after a sentence break (`.`, `!`, `;`, `:` or a dash, or a comma after the
vote in capitals) with a reason, which is kept: "AGAINST. It breaks rule 5.", "FOR — nice
one", "FOR, biscuits are great". Any other word right after the vote makes
the line prose ("For what it's worth, I'm AGAINST this.", "No, wait", "No strong feelings
yet"), never a ballot, and so does a reason that takes the vote back ("No. Wait, …"). Within
one mail the last ballot for a matter wins; what was set aside is said, with why."""

from __future__ import annotations

import re
from collections.abc import Collection
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
# The way Apache projects vote by mail (SPEC §3.2), where the game has these meanings.
NUMERIC_VOTES: dict[str, str] = {"+1": "FOR", "-1": "AGAINST", "0": "ABSTAIN"}
_WORDS = "|".join(sorted(VOTE_WORDS, key=len, reverse=True))
# Emphasis, quotes and check marks around the words are decoration.
_D = r"(?:[\s*_\"'“”‘’«»„`✓✔☑✅\ufe0f]|\[/?b\])*+"  # possessive: linear
_NUMBER = (
    r"(?:(?:proposal|prop|p|cfj|dov|matter|no\.?) ?)?#? ?(?P<number>\d{1,6}) ?(?:[:.)=-]|[–—])?"
)
_SAID = r"(?:(?:i vote ?:?|my vote is ?:?|my vote ?:|vote ?:)" + _D + ")?"
_HEAD = re.compile(
    r"^"
    + _D
    + r"(?:[-•]\s+)?"
    + _D
    + r"(?:"
    + _NUMBER
    + _D
    + r")?"
    + _SAID
    + r"(?:(?P<word>"
    + _WORDS
    + r")(?![^\W_])|(?<![\d])(?P<numeric>\+1|-1|0)(?![\d]|[.,]\d))"
    + _D
    + r"(?:(?:it|this)(?![^\W_])"
    + _D
    + r")?",
    re.I,
)
# A sentence break after the vote: a full stop, !, ;, : (each followed by a space or the end), or
# a dash ("FOR - nice", "FOR — nice", "FOR—nice"). A comma or a question mark is none.
_BREAK = re.compile(r"^(?:[.!;:]+(?=\s|$)|\s*(?:--?|[–—])(?=\s)|\s*[–—])")
# A comma after a vote word in capitals: "FOR, biscuits are great" (a sentence's "For, …"
# or "No, …" is written in lower case).
_SHOUTED = re.compile(r"^,(?=\s)")
_ENDING = re.compile(r"^[.!]*" + _D + r"$")
# A reason that takes the vote back is no reason: "No. Wait, let me think about it."
_TAKEN_BACK = re.compile(
    r"^(?:wait|hold on|just kidding|kidding|not sure|let me think|scratch that|"
    r"never ?mind|not yet|maybe|or not)\b",
    re.I,
)
_NUMERIC_START = re.compile(r"\s*[+-]1(?!\d)")
_HAS_WORD = re.compile(r"\b(?:" + "|".join(VOTE_WORDS) + r")\b")  # on a lower-cased line
HOW_TO_VOTE = (
    "write the vote word alone on a line ({w}), or `I vote {w}`, `Vote: {w}`, "
    "`My vote is {w}`, or `{w}. Your reason.` (with your reason, if any, on the next line, "
    "or after a full stop or a dash); for several proposals, lines like `12 {w}`"
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
    reason: str = ""  # the words after the vote ("AGAINST. It breaks rule 5.": "It breaks rule 5.")


@dataclass
class BallotReading:
    ballots: list[Ballot] = field(default_factory=list)
    ignored: list[tuple[str, str]] = field(default_factory=list)  # (line, why)
    near_misses: list[str] = field(default_factory=list)  # lines with a vote word that are prose


def vote_meaning(word: str) -> str | None:
    return VOTE_WORDS.get(word.strip("*_ .!").lower())


def read_ballot_line(
    line: str, numeric: Collection[str] = tuple(NUMERIC_VOTES.values())
) -> Ballot | None:
    """The ballot LINE is, if it is exactly one of the allowed forms. NUMERIC: the meanings
    `+1`, `-1` and `0` may have here (the game's)."""
    if len(line) > 1000:  # no ballot is this long; keeps the work per line bounded
        return None
    head = line[:160]  # the vote comes first: the pattern never looks further
    m = _HEAD.match(head)
    if m is None or m.end() == len(head) < len(line):
        return None
    word = m.group("word") or m.group("numeric")
    meaning = VOTE_WORDS[word.lower()] if m.group("word") else NUMERIC_VOTES[word]
    if m.group("numeric") and meaning not in numeric:
        return None
    rest = line[m.end() :]
    if _ENDING.match(rest):
        return Ballot(
            None if m.group("number") is None else int(m.group("number")),
            meaning,
            word,
            line.strip(),
        )
    brk = _BREAK.match(rest) or (_SHOUTED.match(rest) if word.isupper() else None)
    if brk is None:
        return None  # another word follows the vote: prose
    reason = re.sub(r"^" + _D, "", rest[brk.end() :]).strip()
    if _TAKEN_BACK.match(reason):
        return None
    number = int(m.group("number")) if m.group("number") else None
    return Ballot(number, meaning, word, line.strip(), reason)


def read_ballots(
    text: str,
    default_number: int | None = None,
    numeric: Collection[str] = tuple(NUMERIC_VOTES.values()),
) -> BallotReading:
    """Ballots from the sender's own words (quotes already removed). A ballot without a
    number is for DEFAULT_NUMBER (the proposal replied to); without one it is set aside.
    NUMERIC: the meanings `+1`, `-1` and `0` may have in this game."""
    reading = BallotReading()
    found: dict[int, Ballot] = {}
    for ln in bounded(text).splitlines():
        if not ln.strip():
            continue
        b = read_ballot_line(ln, numeric)
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


def vote_like(text: str) -> bool:
    """Whether a line of TEXT holds a vote word or starts with `+1`/`-1`: an attempt at a
    ballot, asked about again, where prose without one is the players talking."""
    return any(
        _HAS_WORD.search(ln.lower()) or _NUMERIC_START.match(ln)
        for ln in bounded(text).splitlines()
    )


def quoted_ballot(body: str) -> bool:
    """Whether a line of BODY, its quote marks set aside, reads as a ballot: a vote written
    into the quote, or a quoted one, that a reply without a ballot of its own may have meant."""
    return any(read_ballot_line(ln.lstrip("> \t")) is not None for ln in bounded(body).splitlines())
