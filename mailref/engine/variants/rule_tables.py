"""The tables of the parameters each Nomic variant runs by: the rule that states each and
where in its text the value stands (engine/ruleparams.py reads them; docs/games/<variant>.md
lists them)."""

from __future__ import annotations

from mailref.engine.ruleparams import Param

_QUORUM = r"Quorum of a subset of Wizards is {f} the number of Wizards in that subset, rounded {r}"

SIDEKICK = (
    Param(
        "turn_timeout",
        "8",
        "span",
        "a mover has {v} to move",
        (r"does not move within {v}",),
        'rule 8 "does not move within five days"',
    ),
    Param(
        "vote_timeout",
        "11",
        "span",
        "voting lasts {v}",
        (r"does not vote within {v}",),
        'rule 11 "does not vote within five days"',
    ),
    Param(
        "pass_points",
        "21",
        "points",
        "a passed proposal scores {v:+d}",
        (),
        'rule 21 "receives 10 points"',
    ),
    Param(
        "fail_points",
        "22",
        "points",
        "a failed proposal scores {v:+d}",
        (),
        'rule 22 "receives -5 points"',
    ),
    Param(
        "win_score",
        "23",
        "points",
        "the first to reach {v} points wins",
        (),
        'rule 23 "The first player to reach or exceed 100 points wins"',
    ),
)

BLOGNOMIC = (
    Param(
        "quorum",
        "4.1",
        "quorum",
        "Quorum is {v} of the Wizards (share, rounding, plus)",
        (
            _QUORUM + r", plus {n}\b",
            _QUORUM + r"(?!, plus)",
        ),
        'rule 4.1 (Keywords) "Quorum ... is half the number of Wizards in that subset, '
        'rounded down, plus one"',
    ),
    Param(
        "popular_after",
        "1.6",
        "span",
        "a matter open {v} is decided on the votes cast",
        (r"open for voting for at least {v}",),
        'rule 1.6 "open for voting for at least 48 hours" (both places)',
    ),
    Param(
        "min_open",
        "1.10",
        "span",
        "a Popular proposal is enacted once open {v}",
        (r"open for voting for at least {v}",),
        'rule 1.10 "open for voting for at least 12 hours"',
        fallback=False,
    ),
    Param(
        "stale_after",
        "1.10",
        "span",
        "a proposal pending more than {v} is failed",
        (r"pending for more than {v}",),
        'rule 1.10 "pending for more than 7 days"',
        fallback=False,
    ),
    Param(
        "dov_open_min",
        "1.12",
        "span",
        "a DoV needs {v} open before the first enactment test and to fail",
        (r"open for at least {v}, and either", r"Unpopular, and it has been open for at least {v}"),
        'rule 1.12 "open for at least 12 hours" (both places)',
        fallback=False,
    ),
    Param(
        "dov_open_sure",
        "1.12",
        "span",
        "a Popular DoV is enacted once open {v}",
        (r"(?<!Un)Popular, and it has been open for at least {v}",),
        'rule 1.12 "It is Popular, and it has been open for at least 24 hours"',
        fallback=False,
    ),
    Param(
        "dov_cooldown",
        "1.12",
        "span",
        "the author of a failed DoV with an AGAINST waits {v}",
        (
            r"cannot make another DoV until after {v}",
            r"cannot make another DoV until after [^()]*\({v}\)",
        ),
        'rule 1.12 "until after 120 hours (5 days) have passed" (both amounts)',
        fallback=False,
    ),
    Param(
        "max_pending",
        "1.8",
        "count",
        "a Wizard has at most {v} proposals pending",
        (r"already has {v} Proposals? pending",),
        'rule 1.8 "already has 2 Proposals pending"',
        fallback=False,
    ),
    Param(
        "max_per_day",
        "1.8",
        "count",
        "a Wizard makes at most {v} proposals a day",
        (r"already made {v} Proposals? that day",),
        'rule 1.8 "has already made 3 Proposals that day"',
        fallback=False,
    ),
    Param(
        "dormant_below",
        "3.5",
        "count",
        "BlogNomic is Dormant with fewer than {v} Wizards",
        (r"fewer than {v} Wizards",),
        'rule 3.5 "If there are fewer than five Wizards"',
        fallback=False,
    ),
    Param(
        "downtime",
        "3.4",
        "dates",
        "Seasonal Downtime runs {v} (month-day, UTC)",
        (r"on {a}, and remains in hiatus until {b}", r"from {a} (?:to|until) {b}"),
        'rule 3.4 "on December 24th, and remains in hiatus until December 27th"',
    ),
    Param(
        "rejoin_after",
        "1.2",
        "span",
        "one who left may rejoin after {v}",
        (r"again within the following {v}",),
        'rule 1.2 "may not become a Wizard again within the following two weeks"',
        fallback=False,
    ),
    Param(
        "unidle_after",
        "1.3",
        "span",
        "no unidling within {v} of idling",
        (r"Idle within the previous {v}",),
        'rule 1.3 "asked to become (or rendered themselves) Idle within the ' 'previous four days"',
        fallback=False,
    ),
)

IMPERIAL = (
    Param(
        "vote_period",
        "6",
        "span",
        "voting lasts {v} from posting",
        (r"which is {v} from",),
        'rule 6 "a voting deadline ... which is 4 days from the day THS posts the proposal"',
    ),
    Param(
        "max_undecided",
        "12",
        "count",
        "a Senator's fourth undecided proposal replaces the oldest at {v}",
        (r"submitted {v} undecided proposals",),
        'rule 12 "has submitted three undecided proposals"',
        fallback=False,
    ),
    Param(
        "first_b_rule",
        "15",
        "boundary",
        'rules numbered {v} or higher are "B" rules',
        (r"1 through {v} inclusive", r"numbered {v} or higher"),
        'rule 15 "Rules number 1 through 20 inclusive ... rules numbered 21 or higher" '
        "(both must agree)",
    ),
)


def by_rule(table: tuple[Param, ...]) -> dict[str, tuple[str, ...]]:
    """Rule number -> the parameters it states."""
    out: dict[str, tuple[str, ...]] = {}
    for p in table:
        out[p.rule] = out.get(p.rule, ()) + (p.name,)
    return out
