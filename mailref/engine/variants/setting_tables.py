"""The settings every game runs by and those of the simultaneous-orders games: none is stated by
a rule, so the GM sets each (`game create --set`, `game set`); the Nomics' tables
(rule_tables.py) extend SHARED."""

from __future__ import annotations

from dataclasses import replace

from mailref.engine.parameters import Choice, OnOff, Span, Text, TimeOfDay, Whole
from mailref.engine.ruleparams import Param, Table

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
        "watching",
        OnOff(),
        True,
        "on: anyone may [Watch] the game and get its announcements and results; off: only its "
        "players",
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
        "press",
        Choice("off", "white", "grey"),
        "white",
        "[Press] between players: off, white (naming its sender), or grey (white, or without "
        "the sender's name)",
    ),
    Param(
        "draw_ballots",
        Choice("secret", "counts"),
        "secret",
        "the result of a [Draw] or [Concede] tells the outcome alone (secret) or the counts",
    ),
    Param(
        "draw_length",
        Span(times_deadlines=False),
        "2d",
        "a [Draw] or [Concede] is open to votes for {v}",
    ),
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
