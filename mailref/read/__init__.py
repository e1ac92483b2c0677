"""Reading mail as people write it. Pure functions, nothing of the game."""

from mailref.read.ballots import Ballot, BallotReading, read_ballots, vote_meaning
from mailref.read.bold import bold_orders, bold_spans
from mailref.read.envelope import Envelope, read_envelope
from mailref.read.orders import Order, OrderReading, read_eire_orders, read_free_orders
from mailref.read.quotes import own_words
from mailref.read.route import base_address, match_game
from mailref.read.rulechanges import (
    RuleChange,
    RuleChangeError,
    read_rule_changes,
    strip_brace_comments,
)
from mailref.read.subject import Subject, parse_subject

__all__ = [
    "Ballot", "BallotReading", "Envelope", "Order", "OrderReading", "RuleChange", "RuleChangeError",
    "Subject", "base_address", "bold_orders", "bold_spans", "match_game", "own_words", "parse_subject",
    "read_ballots", "read_eire_orders", "read_envelope", "read_free_orders", "read_rule_changes",
    "strip_brace_comments", "vote_meaning",
]
