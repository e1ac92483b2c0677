"""The parameter table of each variant: every parameter once, with its kind, its default, the
rule that states it (none: an operator's setting) and where in the rule's text the value stands.
Defaults, the GM's `game set`, the values followed when a rule is amended, [Help] and the tables
of docs/games/<variant>.md all come from here (engine/ruleparams.py)."""

from __future__ import annotations

from dataclasses import replace

from mailref.engine.parameters import (
    Boundary,
    Choice,
    Count,
    DateSpan,
    OnOff,
    Points,
    Quorum,
    Span,
    Text,
    TimeOfDay,
    Whole,
)
from mailref.engine.ruleparams import Param, Table
from mailref.engine.switches import ABSTAIN, JUDGE, MAJORITY, MOVER_VOTE, TIE

# What every game runs by: operator settings, none stated by a rule.
SHARED = Table(
    Param("reminder_before", Span(), "1d", "a reminder goes out {v} before a deadline"),
    Param("digest_at", TimeOfDay(), "08:00", "a digest is mailed daily at {v}"),
    Param("require_auth", OnOff(), False, "on: the referee acts only on verified mail (SPEC §2.7)"),
    Param("max_text", Whole(), 20_000, "a proposal, rule or other text has at most {v} characters"),
    Param(
        "announcements_per_day",
        Whole(),
        10,
        "one player's chatter causes at most {v} announcements a UTC day",
    ),
    Param(
        "matters_per_day",
        Whole(),
        10,
        "a player opens at most {v} proposals, CfJs and DoVs a UTC day",
    ),
    Param(
        "mails_per_player_day",
        Whole(),
        60,
        "the game mails one address (a player, a judge, the GM) at most {v} times a UTC day; "
        "past it requests wait for one mail (SPEC §2.2)",
    ),
    Param(
        "joins_per_day",
        Whole(),
        10,
        "the game takes in at most {v} newcomers a UTC day (SPEC §2.3)",
    ),
    Param(
        "join_approval",
        Choice("auto", "gm"),
        "auto",
        "gm: each confirmed [Join] waits for the GM's [Approve]; auto: it is taken in (SPEC §2.3)",
    ),
    Param(
        "discussion",
        Choice("relay", "off"),
        "relay",
        "relay: players' words without a command reach the others (SPEC §2.3); off: they do not",
    ),
    Param(
        "max_absence",
        Span(times_deadlines=False),
        "30d",
        "`[Away] until DATE` reaches at most {v} ahead (SPEC §2.5)",
    ),
    Param(
        "takeover_extension",
        Span(times_deadlines=False),
        "1d",
        "a seat taken over moves the deadline running then once, by {v} (0: not at all)",
    ),
    Param("max_extension", Whole(), 2, "mail extends one deadline at most {v} times (SPEC §2.5)"),
    Param(
        "max_relayed",
        Whole(least=500),
        6000,
        "a mail relayed as discussion carries at most {v} characters, and says how much was cut",
        written=False,
    ),
    Param(
        "list_id",
        Text(),
        None,
        "the List-Id of the game's own mailing list: mail from it is players'",
    ),
)

_QUORUM = r"Quorum of a subset of Wizards is {f} the number of Wizards in that subset, rounded {r}"

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

# Simultaneous-orders games: no rule list; the GM sets what the house rules leave open.
ORDERS_GAME = SHARED.extend(
    Param("turn_length", Span(), "2d", "a turn lasts {v}"),
    Param("reminder_before", Span(), "12h", "a reminder goes out {v} before a deadline"),
    Param(
        "orders_final",
        Choice("refuse", "add", "replace", listed=True, strict=True),
        "refuse",
        "orders sent again in a turn are refused, added, or replace the earlier ones",
    ),
    Param("max_players", Whole(), 10, "at most {v} players are active at once"),
    Param(
        "abandon_after",
        Whole(),
        0,
        "a seat whose turns pass {v} in a row without its orders opens to a [Takeover] (0: "
        "never)",
    ),
)

# The orders game the GM adjudicates: orders sent again replace those sent.
ORDERS = ORDERS_GAME.extend(replace(ORDERS_GAME["orders_final"], default="replace"))

# Eire: every gap in its text is a house rule and a parameter (docs/games/eire.md).
EIRE = ORDERS_GAME.extend(
    Param("start_grain", Whole(), 0, "each player starts with {v} Grain"),
    Param("carry_over", OnOff(), True, "on: unspent Grain carries over to the next turn"),
    Param("independent_defense", Whole(), 10, "an independent land defends with {v}"),
    Param("origin_defense_bonus", Whole(), 5, "an Origin Land adds {v} to its defence"),
    Param(
        "plainsmen_bonus", Whole(), 5, "Plainsmen earn {v} Grain more while holding their Origin"
    ),
    Param("merfolk_bonus", Whole(), 2, "Merfolk earn {v} Grain more per coastal land held"),
    Param("woodkin_bonus", Whole(), 5, "Woodkin add {v} to the defence of a Deep Forest"),
    Param("high_king_bonus", Whole(), 5, "the High King earns {v} Grain more"),
    Param("high_king_grain", Whole(), 50, "a claim to be High King needs {v} Grain"),
    Param("invest_per_output", Whole(), 5, "{v} Grain invested add 1 to a land's output"),
    Param("output_cap", Whole(), 30, "investment raises a land's output to at most {v}"),
    Param("min_attack_output", Whole(), 5, "only a land of output {v} or more may be attacked"),
    Param("dominion", Whole(), 22, "a contiguous realm of {v} lands wins by Dominion"),
    Param("communion", Whole(), 7, "{v} Menhir Valleys win by Communion"),
    Param(
        "walk_in", OnOff(), True, "on: a player's land with no Defend order is taken without rolls"
    ),
    Param("gm_preview", OnOff(), False, "on: the GM sees each turn's results before the players"),
)
