"""The values a rule's text gives the parameters the referee runs it by (Sidekick rule 22
"When a player's proposal fails, he/she receives -5 points." is fail_points = -5; BlogNomic
rule 1.8 "unless the Wizard already has 2 Proposals pending" is max_pending = 2).

Each variant declares a table of `Param`s: the parameter, the rule that states it, and where
in the text its value stands (patterns around the amount). When an enacted change rewrites such
a rule, the referee reads the new value from the new text and runs the game by it. Only an
unmistakable reading counts: every place the patterns find says the same value (or, where they
find none, the whole rule says exactly one amount of the parameter's kind); anything else is
left to the GM, who is alerted, and the value stays."""

from __future__ import annotations

import re
from dataclasses import dataclass

from mailref.timeutil import format_duration, parse_duration

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
    "a": 1,
    "an": 1,
}
_AMOUNT = r"(?:\d{1,6}|" + "|".join(sorted(_WORDS, key=len, reverse=True)) + r")"
_SIGN = r"(?:[-−–]\s?|minus\s|negative\s|loses?\s|deduct(?:ed)?\s|forfeits?\s)?"
_UNITS = r"(?:days?|hours?|weeks?|minutes?)"
_MONTHS = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
]
_DATE = r"(?:" + "|".join(m.title() for m in _MONTHS) + r")\s+\d{1,2}(?:st|nd|rd|th)?"
_FRACTIONS = {
    "half": "1/2",
    "a half": "1/2",
    "one half": "1/2",
    "a third": "1/3",
    "one third": "1/3",
    "two thirds": "2/3",
    "a quarter": "1/4",
    "three quarters": "3/4",
}
_FRACTION = r"(?:" + "|".join(sorted(_FRACTIONS, key=len, reverse=True)) + r")"

# What a placeholder in a pattern stands for, by the kind of the parameter.
_TOKENS = {
    "points": _SIGN + _AMOUNT + r"\s+points?\b",
    "span": _AMOUNT + r"\s+" + _UNITS + r"\b",
    "count": _AMOUNT,
    "date": _DATE,
    "fraction": _FRACTION,
    "rounding": r"(?:down|up)",
}


@dataclass(frozen=True)
class Param:
    """A parameter the referee runs a rule by. PATTERNS are regular expressions in which `{v}`
    stands for the value as the rule writes it; WHERE says, for the docs, how it is found."""

    name: str
    rule: str
    kind: str  # points | span | count | dates | quorum | boundary
    says: str  # what the referee does by it, for the players: "voting lasts {v}"
    patterns: tuple[str, ...] = ()
    where: str = ""
    fallback: bool = True  # with no pattern found: the one amount of the kind in the whole rule


def _number(word: str) -> int:
    word = word.strip().lower()
    return int(word) if word.isdigit() else _WORDS[word]


def _points(text: str) -> int:
    m = re.match(r"(?P<sign>" + _SIGN + r")(?P<n>" + _AMOUNT + r")", text.strip(), re.I)
    assert m
    return (-1 if m.group("sign").strip() else 1) * _number(m.group("n"))


def _span(text: str) -> str:
    n, unit = text.split()[0], text.split()[-1].lower()
    return format_duration(parse_duration(f"{_number(n)}{unit[0] if unit[0] != 'm' else 'm'}"))


def _date(text: str) -> str:
    month, day = text.split()[0], re.sub(r"\D", "", text.split()[1])
    return f"{_MONTHS.index(month.lower()) + 1:02d}-{int(day):02d}"


def _found(pattern: str, token: str, text: str) -> list[str]:
    rx = pattern.replace("{v}", f"({token})")
    return [m.group(1) for m in re.finditer(rx, text, re.I | re.S)]


def _one(values: set) -> object | None:
    return values.pop() if len(values) == 1 else None


def read(param: Param, text: str) -> int | str | None:
    """PARAM's value in the rule TEXT, or None when the text does not say it unmistakably."""
    text = " ".join(text.split())
    kind = param.kind
    if kind in ("points", "span", "count"):
        token = _TOKENS[kind]
        convert = {"points": _points, "span": _span, "count": _number}[kind]
        raw = [x for p in param.patterns for x in _found(p, token, text)]
        if not raw and param.fallback:
            raw = _found("{v}", token, text)
        values = {convert(x) for x in raw}
        if kind == "points" and param.name == "win_score":
            values = {abs(v) for v in values}  # type: ignore[arg-type]
        return _one(values)  # type: ignore[return-value]
    if kind == "dates":  # "on December 24th, and remains in hiatus until December 27th"
        m = [
            re.search(p.replace("{a}", f"({_DATE})").replace("{b}", f"({_DATE})"), text, re.I)
            for p in param.patterns
        ]
        found = {(_date(x.group(1)), _date(x.group(2))) for x in m if x}
        pair = _one(found)
        return f"{pair[0]}..{pair[1]}" if pair else None  # type: ignore[index]
    if kind == "quorum":  # "half the number of Wizards in that subset, rounded down, plus one"
        found = set()
        for p in param.patterns:
            rx = (
                p.replace("{f}", f"(?P<f>{_FRACTION})")
                .replace("{r}", r"(?P<r>down|up)")
                .replace("{n}", f"(?P<n>{_AMOUNT})")
            )
            for m in re.finditer(rx, text, re.I):
                plus = _number(m.group("n")) if m.groupdict().get("n") else 0
                found.add(f"{_FRACTIONS[m.group('f').lower()]} {m.group('r').lower()} +{plus}")
        return _one(found)  # type: ignore[return-value]
    if kind == "boundary":  # "Rules number 1 through 20 inclusive ... numbered 21 or higher"
        found = set()
        for p in param.patterns:
            for m in re.finditer(p.replace("{v}", f"({_AMOUNT})"), text, re.I):
                n = _number(m.group(1))
                found.add(n + 1 if "through" in p else n)
        return _one(found)  # type: ignore[return-value]
    return None


def quorum_of(formula: str, count: int) -> int:
    """The Quorum of COUNT Wizards by a formula read from the text ("1/2 down +1")."""
    share, rounding, plus = formula.split()
    num, den = (int(x) for x in share.split("/"))
    whole = -(-count * num // den) if rounding == "up" else count * num // den
    return whole + int(plus)


def says(param: Param, value: object) -> str:
    """What the referee does by PARAM at VALUE, in words ("a failed proposal scores -3")."""
    if isinstance(value, int) and "{v:+d}" in param.says:
        return param.says.format(v=value)
    return param.says.replace("{v:+d}", "{v}").format(v=value)


def _regexes(param: Param) -> list[str]:
    token = _TOKENS.get(param.kind, _AMOUNT)
    subs = {
        "{v}": f"({token})",
        "{a}": f"({_DATE})",
        "{b}": f"({_DATE})",
        "{f}": f"({_FRACTION})",
        "{r}": r"(down|up)",
        "{n}": f"({_AMOUNT})",
    }
    out = []
    for p in param.patterns or (("{v}",) if param.fallback else ()):
        for k, v in subs.items():
            p = p.replace(k, v)
        out.append(p)
    return out


def marked(text: str, params: list[tuple[Param, object]]) -> list[dict]:
    """TEXT cut into pieces, each sentence that states one of PARAMS marked with what the
    referee runs it by ("a failed proposal scores -5 (fail_points = -5)"), for the ruleset page."""
    pieces = re.split(r"((?<=[.!?:])\s+|\n\s*)", text)  # sentences, and the lines of a list
    out: list[dict] = []
    for piece in pieces:
        notes = [
            f"{says(p, v)} ({p.name} = {v})"
            for p, v in params
            if piece.strip()
            and any(re.search(rx, " ".join(piece.split()), re.I) for rx in _regexes(p))
        ]
        if out and not notes and not out[-1]["mark"]:
            out[-1]["text"] += piece
        else:
            out.append({"text": piece, "mark": "; ".join(notes)})
    return out
