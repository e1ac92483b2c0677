"""Each variant's parameter table gives a new game its values, checks what the GM sets, and
says which parameters a rule states: the values and refusals as games have always had them."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from mailref.engine.context import Refused
from mailref.engine.variants import get_variant

SHARED = {
    "reminder_before": "1d",
    "digest_at": "08:00",
    "require_auth": False,
    "max_text": 20000,
    "announcements_per_day": 10,
    "matters_per_day": 10,
    "mails_per_player_day": 60,
    "joins_per_day": 10,
    "join_approval": "auto",
    "discussion": "relay",
    "max_absence": "30d",
    "max_extension": 2,
    "watching": True,
    "takeover_extension": "1d",
}
ORDERS_GAME = {
    **SHARED,
    "turn_length": "2d",
    "reminder_before": "12h",
    "max_players": 10,
    "press": "white",
    "draw_ballots": "secret",
    "draw_length": "2d",
    "abandon_after": 0,
}
DEFAULTS = {
    "sidekick": {
        **SHARED,
        "turn_timeout": "5d",
        "vote_timeout": "5d",
        "win_score": 100,
        "pass_points": 10,
        "fail_points": -5,
        "founders": 2,
    },
    "blognomic": {
        **SHARED,
        "popular_after": "48h",
        "min_open": "12h",
        "stale_after": "7d",
        "dov_open_min": "12h",
        "dov_open_sure": "24h",
        "dov_cooldown": "120h",
        "max_pending": 2,
        "max_per_day": 3,
        "dormant_below": 5,
        "seasonal_downtime": True,
        "rejoin_after": "14d",
        "unidle_after": "4d",
        "quorum": "1/2 down +1",
        "downtime": "12-24..12-27",
    },
    "imperial": {
        **SHARED,
        "vote_period": "4d",
        "max_undecided": 3,
        "playtest": False,
        "judge_reminder_every": "1d",
        "first_b_rule": 21,
    },
    "orders": {**ORDERS_GAME, "orders_final": "replace"},
    "eire": {
        **ORDERS_GAME,
        "orders_final": "refuse",
        "start_grain": 0,
        "carry_over": True,
        "independent_defense": 10,
        "origin_defense_bonus": 5,
        "plainsmen_bonus": 5,
        "merfolk_bonus": 2,
        "woodkin_bonus": 5,
        "high_king_bonus": 5,
        "high_king_grain": 50,
        "invest_per_output": 5,
        "output_cap": 30,
        "min_attack_output": 5,
        "dominion": 22,
        "communion": 7,
        "walk_in": True,
        "gm_preview": False,
    },
}


@pytest.mark.parametrize("variant", sorted(DEFAULTS))
def test_a_new_game_starts_with_the_values_games_always_started_with(variant):
    assert get_variant(variant).defaults == DEFAULTS[variant]


@pytest.mark.parametrize(
    ("variant", "lengths"),
    [
        ("sidekick", {"reminder_before", "turn_timeout", "vote_timeout"}),
        ("imperial", {"reminder_before", "vote_period", "judge_reminder_every"}),
        ("eire", {"reminder_before", "turn_length"}),
        ("orders", {"reminder_before", "turn_length"}),
    ],
)
def test_the_lengths_of_deadlines_are_the_spans_but_the_longest_absence(variant, lengths):
    assert get_variant(variant).duration_params == lengths


@pytest.mark.parametrize(
    ("variant", "rules"),
    [
        (
            "sidekick",
            {"8": ("turn_timeout",), "21": ("pass_points", "unopposed_bonus")}
            | {"11": ("vote_timeout", "mover_vote"), "12": ("tie", "abstain")}
            | {"22": ("fail_points",), "23": ("win_score",)}
            | {"17": ("judge",), "4": ("penalty",)},
        ),
        (
            "imperial",
            {"6": ("vote_period", "majority"), "12": ("max_undecided",), "15": ("first_b_rule",)}
            | {"3": ("senators",), "7": ("veto",)},
        ),
        ("eire", {}),
    ],
)
def test_each_rule_names_the_parameters_it_states(variant, rules):
    assert get_variant(variant).enactment.rule_parameters == rules


@pytest.mark.parametrize(
    ("variant", "key", "given", "stored"),
    [
        ("sidekick", "turn_timeout", "48h", "2d"),
        ("sidekick", "fail_points", "-3", -3),
        ("sidekick", "require_auth", "yes", True),
        ("sidekick", "discussion", "OFF", "off"),
        ("sidekick", "list_id", "nomes.lists.example", "nomes.lists.example"),
        ("blognomic", "quorum", "2/3 up +0", "2/3 up +0"),
        ("blognomic", "downtime", "12-20..01-02", "12-20..01-02"),
        ("eire", "walk_in", "off", False),
        ("orders", "orders_final", "add", "add"),
    ],
)
def test_what_the_gm_sets_is_stored_as_games_store_it(variant, key, given, stored):
    assert get_variant(variant).check_param(key, given) == stored


@pytest.mark.parametrize(
    ("variant", "key", "given", "refusal"),
    [
        ("sidekick", "max_text", "lots", "max_text: 'lots' is not a whole number"),
        ("sidekick", "join_approval", "vote", "join_approval: 'vote' is not auto or gm"),
        ("sidekick", "digest_at", "noon", "digest_at: 'noon' is not a time like 08:00"),
        ("eire", "orders_final", "Replace", "orders_final is one of refuse, add, replace"),
        ("blognomic", "quorum", "most", "quorum: 'most' is not a quorum like 1/2 down +1"),
        ("blognomic", "max_pending", "-1", "max_pending: -1 is less than 0"),
        (
            "blognomic",
            "downtime",
            "Christmas",
            "downtime: 'Christmas' is not month-days like 12-24..12-27",
        ),
    ],
)
def test_what_the_gm_sets_that_the_game_cannot_run_by_is_refused(variant, key, given, refusal):
    with pytest.raises(Refused) as e:
        get_variant(variant).check_param(key, given)
    assert e.value.reason == refusal


def test_an_unknown_parameter_is_refused_naming_the_known_ones():
    with pytest.raises(Refused) as e:
        get_variant("orders").check_param("turn_timeout", "2d")
    assert e.value.reason == "unknown parameter 'turn_timeout' for orders"
    assert e.value.hint == "known: " + ", ".join(
        sorted({*DEFAULTS["orders"], "list_id", "max_relayed"})
    )


def test_a_parameter_declared_after_games_began_is_its_default_until_the_gm_sets_it():
    """BlogNomic's `quiet_after` (the digest's Late Wizards) was read with a default of its own
    and could not be set; new games' states still do not hold it, so older ones replay alike."""
    blognomic = get_variant("blognomic")
    assert "quiet_after" not in blognomic.defaults
    state = {"parameters": dict(blognomic.defaults)}
    assert blognomic.parameter(state, "quiet_after") == "7d"
    state["parameters"]["quiet_after"] = blognomic.check_param("quiet_after", "72h")
    assert blognomic.parameter(state, "quiet_after") == "3d"
    assert "quiet_after" not in blognomic.duration_params


def test_game_show_lists_every_value_the_game_runs_by():
    """`game show --json` `parameters` showed only what the state held: a game begun before a
    parameter was declared runs by its default, and now shows it too."""
    from mailref.engine.public import public_view

    state = get_variant("blognomic").initial_state(
        "blog",
        "Blog",
        "blog@ref.example",
        None,
        "UTC",
        {"min_open": "6h"},
        datetime(2026, 3, 2, tzinfo=UTC),
    )
    del state["parameters"]["max_extension"]  # as in a state from before it was declared
    shown = public_view(state)["parameters"]
    assert shown == {
        **DEFAULTS["blognomic"],
        "min_open": "6h",
        "quiet_after": "7d",
        "trade_window": "24h",
        "own_data_only": False,
        "max_relayed": 6000,
        "deferential": "historian",
        "dov_historian": "author",
        "self_kill": "kills",
        "abstain_vote": "none",
        "abstain": "nothing",
    }
