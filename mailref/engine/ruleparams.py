"""The value a rule's text gives a parameter the referee runs it by (Sidekick rule 22
"When a player's proposal fails, he/she receives -5 points." is fail_points = -5).

When a passed proposal rewrites such a rule, the referee reads the new value from the new
text and runs the game by it, so that the results never cite a rule they contradict. Only
an unmistakable reading counts: exactly one amount of the parameter's kind in the text;
anything else is left to the GM (who is alerted)."""

from __future__ import annotations

import re

_WORDS = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "fifteen": 15,
    "twenty": 20,
    "thirty": 30,
    "fifty": 50,
    "hundred": 100,
    "a hundred": 100,
    "one hundred": 100,
}
_AMOUNT = r"(?P<n>\d{1,6}|" + "|".join(sorted(_WORDS, key=len, reverse=True)) + r")"
_POINTS = re.compile(
    r"(?P<sign>[-−–]\s?|minus\s|negative\s|loses?\s|deduct(?:ed)?\s|forfeits?\s)?"
    + _AMOUNT
    + r"\s+points?\b",
    re.I,
)
_SPAN = re.compile(_AMOUNT + r"\s+(?P<unit>days?|hours?|weeks?)\b", re.I)
_UNIT = {"d": "d", "h": "h", "w": "w"}

# How each parameter is written in a rule: an amount of points, or a span of time.
KINDS = {
    "pass_points": "points",
    "fail_points": "points",
    "win_score": "points",
    "turn_timeout": "span",
    "vote_timeout": "span",
}

# What the referee does by each, for the players ("a failed proposal scores -3").
SAYS = {
    "pass_points": "a passed proposal scores {v:+d}",
    "fail_points": "a failed proposal scores {v:+d}",
    "win_score": "the first to reach {v} points wins",
    "turn_timeout": "a mover has {v} to move",
    "vote_timeout": "voting lasts {v}",
}


def _number(word: str) -> int:
    return int(word) if word.isdigit() else _WORDS[word.lower()]


def read_value(param: str, text: str) -> int | str | None:
    """PARAM's value in the rule TEXT, or None when the text does not say it unmistakably."""
    kind = KINDS.get(param)
    if kind == "points":
        found = {
            (-1 if m.group("sign") else 1) * _number(m.group("n")) for m in _POINTS.finditer(text)
        }
        if param == "win_score":
            found = {abs(v) for v in found}
    elif kind == "span":
        found = set()
        for m in _SPAN.finditer(text):
            n, unit = _number(m.group("n")), m.group("unit")[0].lower()
            found.add(f"{n * 7}d" if unit == "w" else f"{n}{_UNIT[unit]}")
    else:
        return None
    return found.pop() if len(found) == 1 else None
