"""Each kind of parameter, as a table: the rule sentences it reads and the value it reads there,
the sentences it must leave to the GM (None), what the GM may set and what is refused, and how
a value is shown."""

from __future__ import annotations

import pytest

from mailref.engine.context import Refused
from mailref.engine.parameters import (
    Boundary,
    Choice,
    Count,
    DateSpan,
    Fraction,
    OnOff,
    Points,
    Quorum,
    Rounding,
    Span,
    Text,
    TimeOfDay,
    Whole,
    quorum_of,
)
from mailref.engine.ruleparams import read
from mailref.engine.variants.rule_tables import BLOGNOMIC, IMPERIAL, SIDEKICK

pytestmark = pytest.mark.spec("5.1")

# (table, parameter, the rule's text) -> the value the referee runs by; None: left to the GM.
READINGS = [
    # points: signed, in figures or words; a score to reach is never negative
    (SIDEKICK, "fail_points", "When a player's proposal fails, he/she receives -5 points.", -5),
    (SIDEKICK, "fail_points", "When a proposal fails, its author loses three points.", -3),
    (SIDEKICK, "fail_points", "When a proposal fails, its author receives minus 2 points.", -2),
    (SIDEKICK, "pass_points", "When a proposal passes, he/she receives 10 points.", 10),
    (SIDEKICK, "pass_points", "He/she receives twelve points.", 12),
    (SIDEKICK, "pass_points", "The author receives 10 points, or 20 points on a Sunday.", None),
    (SIDEKICK, "pass_points", "The author is praised.", None),
    (SIDEKICK, "win_score", "The first player to reach or exceed 100 points wins.", 100),
    (SIDEKICK, "win_score", "The first player to reach -150 points wins.", 150),
    # spans: figures or words and a unit; the one span in the rule when no pattern matches
    (SIDEKICK, "turn_timeout", "If a player does not move within five days, skip.", "5d"),
    (SIDEKICK, "turn_timeout", "If a player does not move within 36 hours, skip.", "1d12h"),
    (SIDEKICK, "turn_timeout", "A mover has two weeks to move.", "14d"),
    (SIDEKICK, "turn_timeout", "A mover has 3 days, or 4 days when ill.", None),
    (SIDEKICK, "turn_timeout", "A mover has as long as the others allow.", None),
    (SIDEKICK, "vote_timeout", "If a player does not vote within 90 minutes, abstain.", "1h30m"),
    # without a fallback, only the patterns count
    (BLOGNOMIC, "stale_after", "A proposal pending for more than 9 days is failed.", "9d"),
    (BLOGNOMIC, "stale_after", "A proposal is failed after 9 days.", None),
    (
        BLOGNOMIC,
        "dov_cooldown",
        "cannot make another DoV until after 96 hours (4 days) have passed",
        "4d",
    ),
    (
        BLOGNOMIC,
        "dov_cooldown",
        "cannot make another DoV until after 96 hours (5 days) have passed",
        None,
    ),
    (BLOGNOMIC, "unidle_after", "asked to become Idle within the previous six days", "6d"),
    # counts
    (BLOGNOMIC, "max_pending", "unless the Wizard already has 2 Proposals pending", 2),
    (BLOGNOMIC, "max_pending", "unless the Wizard already has one Proposal pending", 1),
    (BLOGNOMIC, "max_pending", "A Wizard may have few Proposals.", None),
    (BLOGNOMIC, "dormant_below", "If there are fewer than five Wizards, it is Dormant.", 5),
    (
        BLOGNOMIC,
        "dormant_below",
        "If there are fewer than five Wizards, or fewer than 3 Wizards online, it is Dormant.",
        None,
    ),
    (IMPERIAL, "max_undecided", "has submitted three undecided proposals", 3),
    # a boundary between classes of rules: both places must agree
    (
        IMPERIAL,
        "first_b_rule",
        'Rules number 1 through 20 inclusive are "A" rules; rules numbered 21 or higher are "B".',
        21,
    ),
    (IMPERIAL, "first_b_rule", "Rules numbered 31 or higher are B rules.", 31),
    (
        IMPERIAL,
        "first_b_rule",
        "Rules number 1 through 20 inclusive are A rules; rules numbered 25 or higher are B.",
        None,
    ),
    # days of the year
    (
        BLOGNOMIC,
        "downtime",
        "BlogNomic goes into hiatus on December 24th, and remains in hiatus until December 27th.",
        "12-24..12-27",
    ),
    (BLOGNOMIC, "downtime", "It is in hiatus from December 20 to January 2nd.", "12-20..01-02"),
    (
        BLOGNOMIC,
        "downtime",
        "It is in hiatus from December 20 to January 2nd, and on December 24th, and remains in "
        "hiatus until December 27th.",
        None,
    ),
    (BLOGNOMIC, "downtime", "It rests over the holidays.", None),
    # a quorum: share, rounding, plus
    (
        BLOGNOMIC,
        "quorum",
        "The Quorum of a subset of Wizards is half the number of Wizards in that subset, "
        "rounded down, plus one.",
        "1/2 down +1",
    ),
    (
        BLOGNOMIC,
        "quorum",
        "The Quorum of a subset of Wizards is two thirds the number of Wizards in that subset, "
        "rounded up.",
        "2/3 up +0",
    ),
    (BLOGNOMIC, "quorum", "The Quorum is most of the Wizards.", None),
]


@pytest.mark.parametrize(("table", "name", "text", "value"), READINGS)
def test_a_rule_sentence_gives_its_value_or_is_left_to_the_gm(table, name, text, value):
    assert read(table[name], text) == value


def test_a_value_split_across_lines_reads_as_one_sentence():
    assert read(SIDEKICK["turn_timeout"], "does not move\n   within   five\ndays") == "5d"


# (kind, what the GM sets) -> the stored value
PARSED = [
    (Whole(), "20000", 20000),
    (Whole(), " 7 ", 7),
    (Whole(), 3, 3),
    (Count(), "0", 0),
    (Points(), "-5", -5),
    (Boundary(), "21", 21),
    (OnOff(), "on", True),
    (OnOff(), "Yes", True),
    (OnOff(), "0", False),
    (OnOff(), "false", False),
    (Span(), "36h", "1d12h"),
    (Span(), "2d", "2d"),
    (Span(), "90", "1m30s"),
    (DateSpan(), "12-20..01-02", "12-20..01-02"),
    (Fraction(), "2/3", "2/3"),
    (Rounding(), "UP", "up"),
    (Quorum(), "1/2  down +1", "1/2 down +1"),
    (Choice("relay", "off"), "Relay", "relay"),
    (Choice("refuse", "add", strict=True), "add", "add"),
    (TimeOfDay(), "8:30", "8:30"),
    (Text(), "nomic.lists.example", "nomic.lists.example"),
]


@pytest.mark.parametrize(("kind", "given", "stored"), PARSED)
def test_what_the_gm_sets_is_stored_in_the_kinds_form(kind, given, stored):
    assert kind.parse("x", given) == stored


# (kind, what the GM sets) -> the refusal, worded as `game set` always said it
REFUSED = [
    (Whole(), "many", "x: 'many' is not a whole number"),
    (Count(), "-1", "x: -1 is less than 0"),
    (OnOff(), "maybe", "x: 'maybe' is not on/off"),
    (Span(), "soon", "x: 'soon' is not a duration like 2s, 30m, 12h, 5d or 1d12h"),
    (DateSpan(), "Christmas", "x: 'Christmas' is not month-days like 12-24..12-27"),
    (Fraction(), "half", "x: 'half' is not a share like 1/2"),
    (Rounding(), "sideways", "x: 'sideways' is not down or up"),
    (Quorum(), "most", "x: 'most' is not a quorum like 1/2 down +1"),
    (Choice("relay", "off"), "loud", "x: 'loud' is not relay or off"),
    (
        Choice("refuse", "add", "replace", listed=True, strict=True),
        "Add",
        "x is one of refuse, add, replace",
    ),
    (TimeOfDay(), "25:00", "x: '25:00' is not a time like 08:00"),
]


@pytest.mark.parametrize(("kind", "given", "refusal"), REFUSED)
def test_what_is_not_of_the_kind_is_refused(kind, given, refusal):
    with pytest.raises(Refused) as e:
        kind.parse("x", given)
    assert e.value.reason == refusal


@pytest.mark.parametrize(
    ("kind", "value", "shown", "spoken"),
    [
        (Span(), "4d", "4d", "4 days"),
        (Span(), "1d12h", "1d12h", "1 day 12 hours"),
        (Span(), "1h", "1h", "1 hour"),
        (OnOff(), True, "on", "on"),
        (OnOff(), False, "off", "off"),
        (Points(), -1, "-1", "-1 point"),
        (Points(), 10, "10", "10 points"),
        (Whole(), 21, "21", "21"),
        (Quorum(), "1/2 down +1", "1/2 down +1", "1/2 down +1"),
    ],
)
def test_a_value_is_shown_as_the_gm_writes_it_and_spoken_as_players_read_it(
    kind, value, shown, spoken
):
    assert (kind.shown(value), kind.spoken(value)) == (shown, spoken)


@pytest.mark.parametrize(
    ("text", "value"),
    [("a half", "1/2"), ("Two  Thirds", "2/3"), ("three quarters", "3/4")],
)
def test_a_share_in_words_reads_as_a_fraction(text, value):
    assert Fraction().value_of(text) == value


@pytest.mark.parametrize(
    ("formula", "count", "quorum"),
    [("1/2 down +1", 5, 3), ("1/2 down +1", 4, 3), ("2/3 up +0", 4, 3), ("1/3 down +0", 2, 0)],
)
def test_a_quorum_formula_counts_the_players(formula, count, quorum):
    assert quorum_of(formula, count) == quorum


def test_a_kind_that_no_rule_states_reads_nothing():
    for kind in (OnOff(), Choice("a", "b"), TimeOfDay(), Text()):
        assert kind.read(("{v}",), True, "on a b 08:00 text") is None
