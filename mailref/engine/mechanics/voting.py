"""A game's voting policy as data, and the count that decides a matter under it: ballots in,
outcome out, with no state, mail or clock of its own."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

# How a matter is decided:
#   "majority of cast": more FOR than AGAINST among the ballots counted (a tie fails);
#   "majority of entitled": FOR from more than half of those entitled to vote;
#   "quorum": Popular (FOR reaches quorum, or long open with more FOR than AGAINST) enacts,
#             Unpopular (quorum out of reach, or long open and not Popular) fails.
Decision = Literal["majority of cast", "majority of entitled", "quorum"]
# When a matter is decided:
#   "all voted or deadline": once every voter has voted, else at its deadline;
#   "deadline": at its deadline;
#   "as soon as decided": the moment the count decides it, whatever the clock.
Closing = Literal["all voted or deadline", "deadline", "as soon as decided"]


@dataclass(frozen=True)
class VotingPolicy:
    """How a game's proposals are voted on and decided, and what a pass and a fail do."""

    words: tuple[str, ...]  # the ballots the game takes, in its order
    offered: tuple[str, ...]  # the ballots players are told of (BlogNomic's VETO is not)
    open_status: str  # the status in which a matter takes votes
    undecided: tuple[str, ...]  # statuses in which the admin may still decide a matter
    decision: Decision
    closing: Closing
    passed_status: str  # a matter's status once it passes
    failed_status: str  # and once it fails
    for_word: str = "FOR"
    against_word: str = "AGAINST"
    # The author's own ballot: the vote it is taken to be from submission (None: the author
    # has no vote on it), and whether the author may change it.
    author_vote: str | None = None
    author_may_change: bool = False
    # What missing ballots count as when the vote closes (None: they are left out).
    silent_counts_as: str | None = None
    # The parameters whose values the author scores on a pass and on a fail (None: no points).
    points: tuple[str, str] | None = None
    # The parameter whose value a passed matter no one voted AGAINST scores beyond its points.
    unopposed_bonus: str | None = None
    # How the count names those entitled to vote ("majority of entitled").
    electorate_name: str = "voters"
    # Switches a rule states (variants/rule_tables.py binds each to its rule by the same name):
    # whether a tie passes or fails ("majority of cast").
    tie: str = "fails"
    # what an ABSTAIN ballot counts as: "nothing" (neither side), "against" or "for".
    abstain: str = "nothing"
    abstain_word: str = "ABSTAIN"
    # whether ABSTAIN is a ballot where `words` has none: "none", or "taken" (a rule allows it).
    abstain_vote: str = "taken"
    # how many FOR pass a matter ("majority of entitled"): a "majority" of those entitled, or "one".
    majority: str = "majority"

    def takes(self) -> tuple[str, ...]:
        """The ballots the game takes: its words, and ABSTAIN where a rule allows it."""
        if self.abstain_vote == "taken" and self.abstain_word not in self.words:
            return (*self.words, self.abstain_word)
        return self.words

    def offered_now(self) -> tuple[str, ...]:
        """The ballots players are told of: those offered, and ABSTAIN where a rule allows it."""
        if self.abstain_vote == "taken" and self.abstain_word not in self.words:
            return (*self.offered, self.abstain_word)
        return self.offered

    def offered_text(self) -> str:
        """ "FOR, AGAINST or ABSTAIN": the ballots as players are told them."""
        *first, last = self.offered
        return f"{', '.join(first)} or {last}" if first else last


@dataclass(frozen=True)
class Outcome:
    """What the count says of a matter: whether it passes, whether it fails (neither: not yet
    decided), the counts the result mail shows and, where the rules word one, why."""

    passes: bool
    fails: bool
    counts: dict[str, int]
    reason: str = ""


def count(
    policy: VotingPolicy,
    votes: Mapping[str, str],
    electorate: Sequence[str] = (),
    quorum: int = 0,
    long_open: bool = False,
) -> Outcome:
    """Decide a matter on VOTES (name -> ballot, those that count) under POLICY. ELECTORATE:
    who is entitled to vote; QUORUM and LONG_OPEN (open so long that the votes cast decide it)
    for a decision by quorum."""
    yes, no = policy.for_word, policy.against_word
    if policy.abstain in ("for", "against") and policy.decision != "majority of cast":
        # a rule counts an ABSTAIN as one side (the count by cast ballots says so itself)
        side = yes if policy.abstain == "for" else no
        votes = {n: side if v == policy.abstain_word else v for n, v in votes.items()}
    if policy.decision == "majority of cast":
        counts = dict(Counter(votes.values()))
        n_for, n_against = counts.get(yes, 0), counts.get(no, 0)
        if policy.abstain != "nothing":  # a rule counts an ABSTAIN as one side
            sided = counts.get(policy.abstain_word, 0)
            n_for, n_against = (
                (n_for, n_against + sided)
                if policy.abstain == "against"
                else (n_for + sided, n_against)
            )
        tied = n_for == n_against
        passed = n_for > n_against or (tied and policy.tie == "passes")
        reason = (
            ("a tie passes" if tied else f"more {yes} than {no}")
            if passed
            else ("tie" if tied else f"more {no} than {yes}")
        )
        if policy.abstain != "nothing" and counts.get(policy.abstain_word):
            side = yes if policy.abstain == "for" else no
            reason += f", each {policy.abstain_word} counted as {side}"
        return Outcome(passed, not passed, counts, reason)
    if policy.decision == "majority of entitled":
        n_for = sum(1 for n, v in votes.items() if v == yes and n in electorate)
        n_against = sum(1 for n, v in votes.items() if v == no and n in electorate)
        passed = n_for >= 1 if policy.majority == "one" else n_for * 2 > len(electorate)
        counts = {yes: n_for, no: n_against, policy.electorate_name: len(electorate)}
        return Outcome(passed, not passed, counts)
    n_for = sum(v == yes for v in votes.values())
    n_against = sum(v == no for v in votes.values())
    popular = n_for >= quorum or (long_open and len(votes) > 1 and n_for > n_against)
    unpopular = len(electorate) - n_against < quorum or (long_open and not popular)
    return Outcome(popular, unpopular, {yes: n_for, no: n_against, "quorum": quorum})


def due(policy: VotingPolicy, waiting: Sequence[str], now: datetime, deadline: datetime) -> bool:
    """Whether a matter is to be decided at NOW under POLICY, WAITING for the ballots of those
    named, its vote closing at DEADLINE."""
    if policy.closing == "as soon as decided":
        return True
    if policy.closing == "all voted or deadline" and not waiting:
        return True
    return now >= deadline
