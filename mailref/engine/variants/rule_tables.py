"""The parameter table of each variant: every parameter once, with its kind, its default, the
rule that states it (none: an operator's setting) and where in the rule's text the value stands.
Defaults, the GM's `game set`, the values followed when a rule is amended, [Help] and the tables
of docs/games/<variant>.md all come from here (engine/ruleparams.py). The settings no rule
states, and the orders games' tables, are in setting_tables.py."""

from __future__ import annotations

from mailref.engine.parameters import (
    Bonus,
    Boundary,
    Count,
    DateSpan,
    OnOff,
    Points,
    Quorum,
    Span,
    Whole,
)
from mailref.engine.ruleparams import Param
from mailref.engine.switches import (
    ABSTAIN,
    ABSTAIN_VOTE,
    DEFERENTIAL,
    DOV_HISTORIAN,
    JUDGE,
    MAJORITY,
    MOVER_VOTE,
    SELF_KILL,
    SENATORS,
    TIE,
    VETO,
)
from mailref.engine.variants.setting_tables import EIRE, ORDERS, ORDERS_GAME, SHARED

__all__ = ["BLOGNOMIC", "EIRE", "IMPERIAL", "ORDERS", "ORDERS_GAME", "SHARED", "SIDEKICK"]

# Where the rules offer no ABSTAIN (BlogNomic, Imperial), a new rule may allow one and say what
# it counts as: no rule states these as first written.
_ABSTAINING = (
    Param(
        "abstain_vote",
        ABSTAIN_VOTE,
        "none",
        "ABSTAIN is {v} as a ballot (none: it is no vote; taken: a new rule allows it)",
        where="a new rule that allows it or counts it",
        written=False,
    ),
    Param(
        "abstain",
        ABSTAIN,
        "nothing",
        "an ABSTAIN counts as {v}",
        where="a new rule that counts it",
        written=False,
    ),
)

_QUORUM = (
    r"Quorum of a subset of Wizards is {f}(?: of)? the number of Wizards in that subset, "
    r"rounded {r}"
)

SIDEKICK = SHARED.extend(
    Param(
        "turn_timeout",
        Span(),
        "5d",
        "a mover has {v} to move",
        "8",
        (r"does not move within {v}",),
        'rule 8 "does not move within five days"',
    ),
    Param(
        "vote_timeout",
        Span(),
        "5d",
        "voting lasts {v}",
        "11",
        (r"does not vote within {v}",),
        'rule 11 "does not vote within five days"',
    ),
    Param(
        "win_score",
        Points(absolute=True),
        100,
        "the first to reach {v} points wins",
        "23",
        where='rule 23 "The first player to reach or exceed 100 points wins"',
    ),
    Param(
        "pass_points",
        Points(),
        10,
        "a passed proposal scores {v:+d}",
        "21",
        where='rule 21 "receives 10 points"',
    ),
    Param(
        "unopposed_bonus",
        Bonus(),
        0,
        "a passed proposal no player voted AGAINST scores {v} more",
        "21",
        (
            r"\b{v} (?:more|additional|extra|bonus) points?\b[^.;]*?\bif no (?:other )?"
            r"(?:player|one|voter)\b[^.;]*?\bagainst\b",
        ),
        'rule 21, which names no such bonus as first written ("and 5 more points if no player '
        'voted against it")',
        fallback=False,
        written=False,
    ),
    Param(
        "fail_points",
        Points(),
        -5,
        "a failed proposal scores {v:+d}",
        "22",
        where='rule 22 "receives -5 points"',
    ),
    Param(
        "mover_vote",
        MOVER_VOTE,
        "for",
        "the mover's vote is {v} (for: FOR, fixed; own: FOR until the mover votes otherwise)",
        "11",
        where='rule 11 "The player moving is assumed to be voting “for” the proposal" (a switch: '
        "the forms read are listed below)",
        written=False,
    ),
    Param(
        "tie",
        TIE,
        "fails",
        "a tie {v}",
        "12",
        where='rule 12 "or if the number of “for” votes and “against” votes is tied, the proposal '
        'is said to have failed" (a switch: the forms read are listed below)',
        fallback=False,
        written=False,
    ),
    Param(
        "abstain",
        ABSTAIN,
        "nothing",
        "an ABSTAIN counts as {v}",
        "12",
        where="rule 12, which counts only “for” and “against” votes (a switch: a new rule may "
        "state it too; the forms read are listed below)",
        written=False,
    ),
    Param(
        "judge",
        JUDGE,
        "before",
        "the judge is the nearest present player {v} the mover",
        "17",
        where='rule 17 "The person preceeding the person currently moving becomes the “Judge,”" '
        "(a switch: the forms read are listed below)",
        fallback=False,
        written=False,
    ),
    Param(
        "penalty",
        Points(),
        -10,
        "a rule broken costs {v} points; a ruling's score line beyond that either way waits for "
        "the GM",
        "4",
        (r"receive an? {v} penalty",),
        'rule 4 "will receive a -10 point penalty"',
        written=False,
    ),
    Param(
        "founders", Whole(), 2, "the turn order is drawn once {v} players (at least 2) have joined"
    ),
)

BLOGNOMIC = SHARED.extend(
    *_ABSTAINING,
    Param(
        "popular_after",
        Span(),
        "48h",
        "a matter open {v} is decided on the votes cast",
        "1.6",
        (r"open for voting for at least {v}",),
        'rule 1.6 "open for voting for at least 48 hours" (both places)',
    ),
    Param(
        "min_open",
        Span(),
        "12h",
        "a Popular proposal is enacted once open {v}",
        "1.10",
        (r"open for voting for at least {v}",),
        'rule 1.10 "open for voting for at least 12 hours"',
        fallback=False,
    ),
    Param(
        "stale_after",
        Span(),
        "7d",
        "a proposal pending more than {v} is failed",
        "1.10",
        (r"pending for more than {v}",),
        'rule 1.10 "pending for more than 7 days"',
        fallback=False,
    ),
    Param(
        "dov_open_min",
        Span(),
        "12h",
        "a DoV needs {v} open before the first enactment test and to fail",
        "1.12",
        (r"open for at least {v}, and either", r"Unpopular, and it has been open for at least {v}"),
        'rule 1.12 "open for at least 12 hours" (both places)',
        fallback=False,
    ),
    Param(
        "dov_open_sure",
        Span(),
        "24h",
        "a Popular DoV is enacted once open {v}",
        "1.12",
        (r"(?<!Un)Popular, and it has been open for at least {v}",),
        'rule 1.12 "It is Popular, and it has been open for at least 24 hours"',
        fallback=False,
    ),
    Param(
        "dov_cooldown",
        Span(),
        "120h",
        "the author of a failed DoV with an AGAINST waits {v}",
        "1.12",
        (
            r"cannot make another DoV until after {v}",
            r"cannot make another DoV until after [^()]*\({v}\)",
        ),
        'rule 1.12 "until after 120 hours (5 days) have passed" (both amounts)',
        fallback=False,
    ),
    Param(
        "max_pending",
        Count(),
        2,
        "a Wizard has at most {v} proposals pending",
        "1.8",
        (r"already has {v} Proposals? pending",),
        'rule 1.8 "already has 2 Proposals pending"',
        fallback=False,
    ),
    Param(
        "max_per_day",
        Count(),
        3,
        "a Wizard makes at most {v} proposals a day",
        "1.8",
        (r"already made {v} Proposals? that day",),
        'rule 1.8 "has already made 3 Proposals that day"',
        fallback=False,
    ),
    Param(
        "dormant_below",
        Count(),
        5,
        "BlogNomic is Dormant with fewer than {v} Wizards",
        "3.5",
        (r"fewer than {v} Wizards",),
        'rule 3.5 "If there are fewer than five Wizards"',
        fallback=False,
    ),
    Param(
        "deferential",
        DEFERENTIAL,
        "historian",
        "a DEFERENTIAL counts as {v} (historian: the Historian's valid vote)",
        "1.6",
        where='rule 1.6 "all votes of DEFERENTIAL ... are instead considered to be valid and the '
        "same as the Historian's Vote\" (a switch: the forms read are listed below)",
        fallback=False,
        written=False,
    ),
    Param(
        "self_kill",
        SELF_KILL,
        "kills",
        "an author's AGAINST on their own proposal {v} (kills: self-kills it; counts: counts "
        "as any AGAINST)",
        "1.9",
        where='rule 1.9 "When a Wizard casts a vote AGAINST their own Proposal ..., this renders '
        'the Proposal Self-Killed" (a switch: the forms read are listed below)',
        written=False,
    ),
    Param(
        "dov_historian",
        DOV_HISTORIAN,
        "author",
        "an enacted DoV's new Dynasty has as Historian: {v} (author: the DoV's author; none: a "
        "Metadynasty)",
        "1.12",
        where='rule 1.12 "a new Dynasty begins with the Wizard who made the DoV as its Historian" '
        "(a switch: the forms read are listed below)",
        fallback=False,
        written=False,
    ),
    Param("seasonal_downtime", OnOff(), True, "on: Seasonal Downtime is kept (rule 3.4)"),
    Param(
        "quiet_after",
        Span(times_deadlines=False),
        "7d",
        "the GM's digest lists as Late a Wizard silent for {v}",
        written=False,
    ),
    Param(
        "own_data_only",
        OnOff(),
        False,
        "on: a Wizard's [Update] alters only their own values (off: any Wizard's, rule 4.2)",
        written=False,
    ),
    Param(
        "rejoin_after",
        Span(),
        "14d",
        "one who left may rejoin after {v}",
        "1.2",
        (r"again within the following {v}",),
        'rule 1.2 "may not become a Wizard again within the following two weeks"',
        fallback=False,
    ),
    Param(
        "unidle_after",
        Span(),
        "4d",
        "no unidling within {v} of idling",
        "1.3",
        (r"Idle within the previous {v}",),
        'rule 1.3 "asked to become (or rendered themselves) Idle within the previous four days"',
        fallback=False,
    ),
    Param(
        "trade_window",
        Span(),
        "24h",
        "a trade not accepted within {v} has expired",
        "2.10",
        (r"The other Wizard may then, within {v}, perform this trade",),
        'rule 2.10 "The other Wizard may then, within 24 hours, perform this trade"',
        fallback=False,
        written=False,
    ),
    Param(
        "quorum",
        Quorum(),
        "1/2 down +1",
        "Quorum is {v} of the Wizards (share, rounding, plus)",
        "4.1",
        (_QUORUM + r", plus {n}\b", _QUORUM + r"(?!, plus)"),
        'rule 4.1 (Keywords) "Quorum ... is half the number of Wizards in that subset, '
        'rounded down, plus one"',
    ),
    Param(
        "downtime",
        DateSpan(),
        "12-24..12-27",
        "Seasonal Downtime runs {v} (month-day, UTC)",
        "3.4",
        (r"on {a}, and remains in hiatus until {b}", r"from {a} (?:to|until) {b}"),
        'rule 3.4 "on December 24th, and remains in hiatus until December 27th"',
    ),
)

IMPERIAL = SHARED.extend(
    *_ABSTAINING,
    Param(
        "vote_period",
        Span(),
        "4d",
        "voting lasts {v} from posting",
        "6",
        (r"which is {v} from",),
        'rule 6 "a voting deadline ... which is 4 days from the day THS posts the proposal"',
    ),
    Param(
        "majority",
        MAJORITY,
        "majority",
        "a proposal goes to the Emperor with YES from {v} of the Senators entitled to vote",
        "6",
        where='rule 6 "there is a majority of Imperial Senators who have sent in a vote of YES" '
        "(a switch: the forms read are listed below)",
        fallback=False,
        written=False,
    ),
    Param(
        "veto",
        VETO,
        "allowed",
        "the Emperor's VETO is {v}",
        "7",
        where='rule 7 "TIE will judge each proposal submitted and accept, veto or ignore it" '
        "(a switch: the forms read are listed below)",
        written=False,
    ),
    Param(
        "senators",
        SENATORS,
        "submission",
        "one becomes a Senator by {v} (submission: at one's first proposal or Point of "
        "Order; directive: only by the Emperor's Directive)",
        "3",
        where='rule 3 "A person then becomes an Imperial Senator at the submission of their '
        'first Proposal or Point of Order" (a switch: the forms read are listed below)',
        fallback=False,
        written=False,
    ),
    Param(
        "max_undecided",
        Count(),
        3,
        "a Senator's fourth undecided proposal replaces the oldest at {v}",
        "12",
        (r"submitted {v} undecided proposals",),
        'rule 12 "has submitted three undecided proposals"',
        fallback=False,
    ),
    Param("playtest", OnOff(), False, "on: the B rules are in force, a playtest (rule 15)"),
    Param(
        "judge_reminder_every",
        Span(),
        "1d",
        "the Emperor is reminded every {v} of proposals awaiting judgement",
    ),
    Param(
        "first_b_rule",
        Boundary(),
        21,
        'rules numbered {v} or higher are "B" rules',
        "15",
        (r"1 through {last} inclusive", r"numbered {v} or higher"),
        'rule 15 "Rules number 1 through 20 inclusive ... rules numbered 21 or higher" '
        "(both must agree)",
    ),
)
