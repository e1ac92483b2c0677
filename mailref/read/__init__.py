"""Reading mail as people write it. Pure functions, nothing of the game.

The names below load on first use (PEP 562): the engine reads rule changes
(`mailref.read.rulechanges`) without loading the email package's parsers, which the command
line's start-up would pay for (SPEC §8 replay)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mailref.lazy import lazy_names

if TYPE_CHECKING:
    from mailref.read.ballots import Ballot, BallotReading, read_ballots, vote_meaning
    from mailref.read.bold import bold_orders, bold_spans
    from mailref.read.change import RuleChange
    from mailref.read.envelope import Envelope, read_envelope
    from mailref.read.orders import Order, OrderReading, read_eire_orders, read_free_orders
    from mailref.read.quotes import own_words
    from mailref.read.route import base_address, match_game
    from mailref.read.rulechanges import (
        RuleChangeError,
        read_rule_changes,
        strip_brace_comments,
    )
    from mailref.read.subject import Subject, parse_subject

_WHERE = {
    "Ballot": "ballots", "BallotReading": "ballots", "read_ballots": "ballots", "vote_meaning": "ballots",
    "bold_orders": "bold", "bold_spans": "bold", "Envelope": "envelope", "read_envelope": "envelope",
    "Order": "orders", "OrderReading": "orders", "read_eire_orders": "orders", "read_free_orders": "orders",
    "own_words": "quotes", "base_address": "route", "match_game": "route", "RuleChange": "change",
    "RuleChangeError": "rulechanges", "read_rule_changes": "rulechanges", "strip_brace_comments": "rulechanges",
    "Subject": "subject", "parse_subject": "subject",
}
__all__ = [
    "Ballot", "BallotReading", "Envelope", "Order", "OrderReading", "RuleChange", "RuleChangeError",
    "Subject", "base_address", "bold_orders", "bold_spans", "match_game", "own_words", "parse_subject",
    "read_ballots", "read_eire_orders", "read_envelope", "read_free_orders", "read_rule_changes",
    "strip_brace_comments", "vote_meaning",
]

__getattr__ = lazy_names(__name__, _WHERE)
