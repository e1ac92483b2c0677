"""Reading mail as people write it. Pure functions, nothing of the game.

The names below load on first use (PEP 562): a rule change is read (`mailref.read.rulechanges`)
without loading the email package's parsers, which the command line's start-up would pay for
(SPEC §8 replay). The games' own notations (a rule change's fields, Eire orders) are the
engine's: mailref.engine.change, mailref.engine.orders."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mailref.lazy import lazy_names

if TYPE_CHECKING:
    from mailref.read.ballots import Ballot, BallotReading, read_ballots, vote_meaning
    from mailref.read.bold import bold_orders, bold_spans
    from mailref.read.envelope import Envelope, read_envelope
    from mailref.read.quotes import own_words
    from mailref.read.route import base_address, match_game
    from mailref.read.rulechanges import (
        RuleChangeError,
        read_rule_changes,
        strip_brace_comments,
    )
    from mailref.read.subject import Subject, parse_subject

_WHERE = {
    "Ballot": "ballots",
    "BallotReading": "ballots",
    "read_ballots": "ballots",
    "vote_meaning": "ballots",
    "bold_orders": "bold",
    "bold_spans": "bold",
    "Envelope": "envelope",
    "read_envelope": "envelope",
    "own_words": "quotes",
    "base_address": "route",
    "match_game": "route",
    "RuleChangeError": "rulechanges",
    "read_rule_changes": "rulechanges",
    "strip_brace_comments": "rulechanges",
    "Subject": "subject",
    "parse_subject": "subject",
}
__all__ = [
    "Ballot",
    "BallotReading",
    "Envelope",
    "RuleChangeError",
    "Subject",
    "base_address",
    "bold_orders",
    "bold_spans",
    "match_game",
    "own_words",
    "parse_subject",
    "read_ballots",
    "read_envelope",
    "read_rule_changes",
    "strip_brace_comments",
    "vote_meaning",
]

__getattr__ = lazy_names(__name__, _WHERE)
