"""The kinds of value a game's parameters take: each parses what the GM sets (`game set`), reads
the value a rule's text states ("does not move within five days" is 5d), and shows a value as
the GM writes it and as players read it. Values keep the forms the state has always stored:
durations as "2d", Seasonal Downtime as "12-24..12-27", a quorum as "1/2 down +1"."""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import timedelta

from mailref.engine.context import Refused
from mailref.timeutil import TooLong, format_duration, parse_duration

Value = int | str | bool
MAX_SPAN = timedelta(days=365)  # the longest span a game runs by (a turn, a vote, a wait)

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
AMOUNT = r"(?:\d{1,6}|" + "|".join(sorted(_WORDS, key=len, reverse=True)) + r")"
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
_ROUNDING = r"(?:down|up)"


def number(word: str) -> int:
    """An amount as a rule writes it: "12", "twelve", "a hundred"."""
    word = word.strip().lower()
    return int(word) if word.isdigit() else _WORDS[word]


def one(values: Iterable[Value]) -> Value | None:
    """The value every reading agrees on; None where they differ or there is none."""
    found = set(values)
    return found.pop() if len(found) == 1 else None


def found(pattern: str, token: str, text: str) -> list[str]:
    """The values PATTERN finds in TEXT, `{v}` standing for TOKEN."""
    rx = pattern.replace("{v}", f"({token})")
    return [m.group(1) for m in re.finditer(rx, text, re.I | re.S)]


class Kind:
    """A kind of parameter value. TOKEN is the value as a rule writes it, matched where a
    pattern says `{v}`; PLACES names the other placeholders a kind's patterns may hold."""

    token = AMOUNT
    places: dict[str, str] = {}

    def parse(self, key: str, value: object) -> Value:
        """The value the GM set, in its stored form; Refused when it is not one."""
        raise NotImplementedError

    def value_of(self, text: str) -> Value:
        """The value of one match of TOKEN."""
        raise NotImplementedError

    def read(self, patterns: tuple[str, ...], fallback: bool, text: str) -> Value | None:
        """The value the rule TEXT states: every place PATTERNS find agrees (with none, and
        FALLBACK, the one amount of the kind in the whole text); otherwise None."""
        raw = [x for p in patterns for x in found(p, self.token, text)]
        if not raw and fallback:
            raw = found("{v}", self.token, text)
        return one(self.value_of(x) for x in raw)

    def regexes(self, patterns: tuple[str, ...], fallback: bool) -> list[str]:
        """PATTERNS as regular expressions, to find the sentences that state the value."""
        subs = {"{v}": f"({self.token})", **{k: f"({v})" for k, v in self.places.items()}}
        out = []
        for p in patterns or (("{v}",) if fallback else ()):
            for k, v in subs.items():
                p = p.replace(k, v)
            out.append(p)
        return out

    def shown(self, value: Value) -> str:
        """VALUE as the GM writes it (`game set`, the docs' defaults)."""
        return str(value)

    def spoken(self, value: Value) -> str:
        """VALUE as players read it in a sentence ("4 days")."""
        return self.shown(value)


class Whole(Kind):
    """A whole number (a cap the operator sets, a bonus), at least LEAST where one is given."""

    def __init__(self, least: int | None = None) -> None:
        self.least = least

    def parse(self, key: str, value: object) -> Value:
        try:
            n = int(value) if isinstance(value, int | float) else int(str(value))
        except ValueError:
            raise Refused("param_not_whole", key=key, value=value) from None
        if self.least is not None and n < self.least:
            raise Refused("param_below_least", key=key, value=n, least=self.least)
        return n

    def value_of(self, text: str) -> Value:
        return number(text)


class Count(Whole):
    """How many of something ("already has 2 Proposals pending"): never fewer than none."""

    def __init__(self) -> None:
        super().__init__(least=0)


class Points(Whole):
    """Points a rule awards or takes ("receives -5 points"); a score to reach is ABSOLUTE:
    "reach or exceed 100 points" is 100 however the text signs it."""

    token = _SIGN + r"\b" + AMOUNT + r"\s+points?\b"  # "extra points" holds no "a points"

    def __init__(self, absolute: bool = False) -> None:
        super().__init__()
        self.absolute = absolute

    def value_of(self, text: str) -> Value:
        m = re.match(r"(?P<sign>" + _SIGN + r")(?P<n>" + AMOUNT + r")", text.strip(), re.I)
        if not m:
            raise ValueError(f"{text!r} is not an amount of points")
        n = number(m.group("n"))
        return n if self.absolute or not m.group("sign").strip() else -n

    def spoken(self, value: Value) -> str:
        return f"{value} point" + ("" if value in (1, -1) else "s")


class Bonus(Whole):
    """Points beyond a rule's first amount on a condition ("and 5 more points if no player voted
    against it"): PATTERNS find it; a rule that names none gives none (0)."""

    def read(self, patterns: tuple[str, ...], fallback: bool, text: str) -> Value | None:
        raw = [x for p in patterns for x in found(p, self.token, text)]
        return one(number(x) for x in raw) if raw else 0


class Boundary(Whole):
    """The first rule number of a class: `{v}` stands for it, `{last}` for the last number
    before it ("Rules number 1 through {last} inclusive", "numbered {v} or higher")."""

    places = {"{last}": AMOUNT}

    def read(self, patterns: tuple[str, ...], fallback: bool, text: str) -> Value | None:
        values = []
        for p in patterns:
            if "{last}" in p:
                values += [number(x) + 1 for x in found(p.replace("{last}", "{v}"), AMOUNT, text)]
            else:
                values += [number(x) for x in found(p, AMOUNT, text)]
        return one(values)


class OnOff(Kind):
    """A switch: on or off (true/false, yes/no, 1/0)."""

    def parse(self, key: str, value: object) -> Value:
        word = str(value).lower()
        if word in ("on", "true", "yes", "1"):
            return True
        if word in ("off", "false", "no", "0"):
            return False
        raise Refused("param_not_on_off", key=key, value=value)

    def read(self, patterns: tuple[str, ...], fallback: bool, text: str) -> Value | None:
        return None  # no rule states a switch

    def shown(self, value: Value) -> str:
        return "on" if value else "off"


class Span(Kind):
    """A length of time, stored as the GM writes it ("5d", "1d12h"), read from "five days"."""

    token = AMOUNT + r"\s+" + _UNITS + r"\b"

    def __init__(self, times_deadlines: bool = True) -> None:
        # A span that sets a deadline's length (a new one applies from the next deadline), not
        # a cap on what a player asks for.
        self.times_deadlines = times_deadlines

    def parse(self, key: str, value: object) -> Value:
        try:
            length = parse_duration(str(value))
        except TooLong:
            length = None
        except ValueError as e:
            raise Refused("param_not_duration", key=key, why=e) from None
        if length is None or length > MAX_SPAN:
            raise Refused("param_span_too_long", key=key, value=str(value)[:40])
        return format_duration(length)

    def value_of(self, text: str) -> Value:
        n, unit = text.split()[0], text.split()[-1].lower()
        try:
            return format_duration(parse_duration(f"{number(n)}{unit[0]}"))
        except TooLong:  # checked as the GM's value is: refused, the GM told (enactment)
            return f"{number(n)}{unit[0]}"

    def spoken(self, value: Value) -> str:
        secs, parts = int(parse_duration(str(value)).total_seconds()), []
        for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
            n, secs = divmod(secs, size)
            if n:
                parts.append(f"{n} {unit}{'' if n == 1 else 's'}")
        return " ".join(parts) or str(value)


_MONTH_DAY = r"(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])"


class DateSpan(Kind):
    """Days of the year, "12-24..12-27" (month-day), read from "on {a}, ... until {b}"."""

    places = {"{a}": _DATE, "{b}": _DATE}

    def parse(self, key: str, value: object) -> Value:
        text = str(value).strip()
        if not re.fullmatch(_MONTH_DAY + r"\.\." + _MONTH_DAY, text):
            raise Refused("param_not_month_days", key=key, value=value)
        return text

    @staticmethod
    def month_day(text: str) -> str:
        month, day = text.split()[0], re.sub(r"\D", "", text.split()[1])
        return f"{_MONTHS.index(month.lower()) + 1:02d}-{int(day):02d}"

    def read(self, patterns: tuple[str, ...], fallback: bool, text: str) -> Value | None:
        pairs = []
        for p in patterns:
            m = re.search(p.replace("{a}", f"({_DATE})").replace("{b}", f"({_DATE})"), text, re.I)
            if m:
                pairs.append(f"{self.month_day(m.group(1))}..{self.month_day(m.group(2))}")
        return one(pairs)


class Fraction(Kind):
    """A share in words, "half" or "two thirds", stored as "1/2"."""

    token = _FRACTION

    def parse(self, key: str, value: object) -> Value:
        text = str(value).strip()
        if not re.fullmatch(r"[1-9]\d*/[1-9]\d*", text):
            raise Refused("param_not_share", key=key, value=value)
        return text

    def value_of(self, text: str) -> Value:
        return _FRACTIONS[" ".join(text.lower().split())]


class Rounding(Kind):
    """Which way a share is rounded: down or up."""

    token = _ROUNDING

    def parse(self, key: str, value: object) -> Value:
        word = str(value).strip().lower()
        if word not in ("down", "up"):
            raise Refused("param_not_rounding", key=key, value=value)
        return word

    def value_of(self, text: str) -> Value:
        return text.lower()


class Quorum(Kind):
    """A share of the players, rounded, plus a number: "1/2 down +1", read from "half the
    number of Wizards ..., rounded down, plus one" ({f} share, {r} rounding, {n} plus)."""

    places = {"{f}": _FRACTION, "{r}": _ROUNDING, "{n}": AMOUNT}

    def parse(self, key: str, value: object) -> Value:
        text = " ".join(str(value).split())
        if not re.fullmatch(r"[1-9]\d*/[1-9]\d* (down|up) \+\d+", text):
            raise Refused("param_not_quorum", key=key, value=value)
        return text

    def read(self, patterns: tuple[str, ...], fallback: bool, text: str) -> Value | None:
        values = []
        for p in patterns:
            rx = (
                p.replace("{f}", f"(?P<f>{_FRACTION})")
                .replace("{r}", f"(?P<r>{_ROUNDING})")
                .replace("{n}", f"(?P<n>{AMOUNT})")
            )
            for m in re.finditer(rx, text, re.I):
                plus = number(m.group("n")) if m.groupdict().get("n") else 0
                share = Fraction().value_of(m.group("f"))
                values.append(f"{share} {m.group('r').lower()} +{plus}")
        return one(values)


def quorum_of(formula: str, count: int) -> int:
    """The quorum of COUNT players by a formula read from the text ("1/2 down +1")."""
    share, rounding, plus = formula.split()
    num, den = (int(x) for x in share.split("/"))
    whole = -(-count * num // den) if rounding == "up" else count * num // den
    return whole + int(plus)


class Choice(Kind):
    """One of a few words. The refusal names them ("is not a or b"), or LISTED, lists them ("is
    one of a, b, c"); STRICT words are taken only as written (no case folding)."""

    def __init__(self, *words: str, listed: bool = False, strict: bool = False) -> None:
        self.words, self.listed, self.strict = words, listed, strict

    def parse(self, key: str, value: object) -> Value:
        word = str(value) if self.strict else str(value).lower()
        if word not in self.words:
            if self.listed:
                raise Refused("param_is_one_of", key=key, words=list(self.words))
            raise Refused("param_not_either", key=key, value=value, words=list(self.words))
        return word

    def read(self, patterns: tuple[str, ...], fallback: bool, text: str) -> Value | None:
        return None  # an operator's setting: no rule states it


class TimeOfDay(Kind):
    """A time of day, "08:00"."""

    def parse(self, key: str, value: object) -> Value:
        if not re.fullmatch(r"([01]?\d|2[0-3]):[0-5]\d", str(value)):
            raise Refused("param_not_time", key=key, value=value)
        return str(value)

    def read(self, patterns: tuple[str, ...], fallback: bool, text: str) -> Value | None:
        return None  # an operator's setting: no rule states it


class Text(Kind):
    """Words taken as the GM writes them (a mailing list's id)."""

    def parse(self, key: str, value: object) -> Value:
        return str(value)

    def read(self, patterns: tuple[str, ...], fallback: bool, text: str) -> Value | None:
        return None  # an operator's setting: no rule states it


# A negation inside a form's match ("a tie does not pass") leaves the switch to the GM.
_NEGATED = r"\b(?:not|never|no longer|neither|nor)\b|n't\b"


class Switch(Kind):
    """A way the game is played, one of a few words ("a tie passes" or "fails"), read from the
    sentence forms players word it in: FORMS pairs a regular expression with the word it says.
    A rule says the word only where every form found in it agrees and none is negated; one that
    says none of them says SILENT (where given) to a parameter read with FALLBACK: rule 12,
    silent on abstaining, counts only "for" and "against"."""

    def __init__(self, *forms: tuple[str, str], silent: str | None = None) -> None:
        self.forms, self.silent = forms, silent
        self.words = tuple(dict.fromkeys([w for _, w in forms] + ([silent] if silent else [])))

    def parse(self, key: str, value: object) -> Value:
        word = str(value).strip().lower()
        if word not in self.words:
            if len(self.words) > 2:
                raise Refused("param_is_one_of", key=key, words=list(self.words))
            raise Refused("param_not_either", key=key, value=value, words=list(self.words))
        return word

    def read(self, patterns: tuple[str, ...], fallback: bool, text: str) -> Value | None:
        said = []
        for rx, word in self.forms:
            for m in re.finditer(rx, text, re.I):
                if re.search(_NEGATED, m.group(0), re.I):
                    return None
                said.append(word)
        if not said and fallback and self.silent:
            return self.silent
        return one(said)

    def regexes(self, patterns: tuple[str, ...], fallback: bool) -> list[str]:
        return [rx for rx, _ in self.forms]
