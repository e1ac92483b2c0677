"""What `game set` refuses: a parameter the game has not, a value not of its kind."""

from mailref.engine.refusals.wording import Wording as W

NOT = "{{ key }}: {{ value|repr }} is not "

WORDS = {
    "unknown_parameter": W(
        "unknown parameter {{ key|repr }} for {{ variant }}", "known: {{ known|join(', ') }}"
    ),
    "param_not_whole": W(NOT + "a whole number"),
    "param_below_least": W("{{ key }}: {{ value }} is less than {{ least }}"),
    "param_not_on_off": W(NOT + "on/off"),
    # WHY: the duration reader's own sentence (engine/dates.py).
    "param_not_duration": W("{{ key }}: {{ why }}"),
    "param_span_too_long": W(
        "{{ key }}: {{ value|repr }} is longer than a year, the longest span a game runs by",
        "a deadline a year away is as good as none: set a shorter one",
    ),
    "param_not_month_days": W(NOT + "month-days like 12-24..12-27"),
    "param_not_share": W(NOT + "a share like 1/2"),
    "param_not_rounding": W(NOT + "down or up"),
    "param_not_quorum": W(NOT + "a quorum like 1/2 down +1"),
    "param_not_either": W(NOT + "{{ words|join(' or ') }}"),
    "param_is_one_of": W("{{ key }} is one of {{ words|join(', ') }}"),
    "param_not_time": W(NOT + "a time like 08:00"),
    # `game bind`: a parameter bound to the rule that states it (docs/rulesets.md)
    "bind_no_rules": W(
        "{{ slug }} is an orders game: it keeps no rules to bind a parameter to",
        "`mailref game set` its parameters",
    ),
    "bind_no_rule": W("there is no rule {{ rule }} in {{ slug }}"),
    "bind_not_stated": W(
        "rule {{ rule }} does not state {{ key }} once and plainly",
        "bind {{ key }} to the rule that does, or `mailref game set` it",
    ),
}
