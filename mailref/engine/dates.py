"""Dates and times as players write them in mail ("6 Jan", "Fri 18:00", "2027-01-06",
"tomorrow"), read in a zone against the time of the action, and the spans of an absence
("until 6 Jan", "24 Dec to 6 Jan", "for 3 days"). See docs/decisions/time.md."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Literal, overload
from zoneinfo import ZoneInfo

from mailref.timeutil import parse_duration

MONTHS = {
    name: i + 1
    for i, names in enumerate(
        (
            ("jan", "january"),
            ("feb", "february"),
            ("mar", "march"),
            ("apr", "april"),
            ("may",),
            ("jun", "june"),
            ("jul", "july"),
            ("aug", "august"),
            ("sep", "sept", "september"),
            ("oct", "october"),
            ("nov", "november"),
            ("dec", "december"),
        )
    )
    for name in names
}
WEEKDAYS = {
    name: i
    for i, names in enumerate(
        (
            ("mon", "monday"),
            ("tue", "tues", "tuesday"),
            ("wed", "wednesday"),
            ("thu", "thur", "thurs", "thursday"),
            ("fri", "friday"),
            ("sat", "saturday"),
            ("sun", "sunday"),
        )
    )
    for name in names
}
_MON = "|".join(sorted(MONTHS, key=len, reverse=True))
_WD = "|".join(sorted(WEEKDAYS, key=len, reverse=True))
_TIME = r"(?P<h>\d{1,2})(?:[:.h](?P<min>\d{2}))?\s*(?P<ap>am|pm)?|(?P<word>noon|midnight)"
_AT = rf"(?:\s+(?:at\s+)?(?:{_TIME}))?"
_FORMS = [
    re.compile(rf"^(?P<iso>\d{{4}}-\d{{1,2}}-\d{{1,2}})(?:[t\s]+(?:at\s+)?(?:{_TIME}))?$", re.I),
    re.compile(
        rf"^(?:(?P<wd>{_WD})\.?\s+)?(?:the\s+)?(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?"
        rf"(?P<mon>{_MON})\.?(?:\s+(?P<y>\d{{4}}))?{_AT}$",
        re.I,
    ),
    re.compile(
        rf"^(?:(?P<wd>{_WD})\.?\s+)?(?P<mon>{_MON})\.?\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?"
        rf"(?:\s+(?P<y>\d{{4}}))?{_AT}$",
        re.I,
    ),
    re.compile(rf"^(?:next\s+)?(?P<wd>{_WD})\.?{_AT}$", re.I),
    re.compile(rf"^(?P<rel>today|tonight|tomorrow){_AT}$", re.I),
    re.compile(rf"^(?:{_TIME})$", re.I),
]
HOW = (
    'write a date like "6 Jan", "Jan 6 2027", "2027-01-06" or "Fri", with a time if you like '
    '("Fri 18:00", "6 Jan 9am")'
)


@dataclass(frozen=True)
class Span:
    """An absence: from START (None: now) to END, the moment it ends by itself."""

    start: datetime | None
    end: datetime


def _clean(text: str) -> str:
    return " ".join(text.replace(",", " ").strip(" .!;").split())


def looks_like_moment(text: str) -> bool:
    """Whether TEXT has the form of a moment ("Fri 18:00", "6 Jan"), the calendar unchecked."""
    s, _ = _as_written(_clean(text), "UTC")
    return any(form.match(s) for form in _FORMS)


# How the game writes a time (timeutil.when): "Fri 4 Dec 2026 11:00 CET (10:00 UTC), in 3 days".
_HOW_FAR = re.compile(r"\s+(?:in\s+\d+\s+\w+|\d+\s+\w+\s+ago|now)$", re.I)
_UTC_BESIDE = re.compile(r"\s*\(\d{1,2}:\d{2}\s+UTC\)$", re.I)
_ABBREVIATION = re.compile(r"\s+(?P<abbr>[A-Z]{2,5}|[+-]\d{2})$")


def _as_written(s: str, zone: str) -> tuple[str, str]:
    """S without what the game writes beside a time (how far off, UTC beside the zone's, the
    zone's abbreviation), and the zone to read it in: UTC where S says "UTC" or "GMT"."""
    s = _HOW_FAR.sub("", s)
    s = _UTC_BESIDE.sub("", s)
    m = _ABBREVIATION.search(s)
    if m and m.group("abbr").lower() not in {*MONTHS, *WEEKDAYS, "am", "pm"}:
        s = s[: m.start()]
        if m.group("abbr") in ("UTC", "GMT"):
            zone = "UTC"
    return s, zone


def _clock(m: re.Match) -> time | None:
    """The time of day a match names, or None when it names none."""
    if m.groupdict().get("word"):
        return time(12) if m.group("word").lower() == "noon" else time(0)
    if m.groupdict().get("h") is None:
        return None
    h, minute, ap = int(m.group("h")), int(m.group("min") or 0), (m.group("ap") or "").lower()
    if ap:
        if not 1 <= h <= 12:
            raise ValueError(f"{h}{ap} is not a time")
        h = h % 12 + (12 if ap == "pm" else 0)
    if h > 23 or minute > 59:
        raise ValueError(f"{m.group(0)!r} is not a time of day")
    return time(h, minute)


def _at(day: date, clock: time | None, zone: ZoneInfo, day_end: bool) -> datetime:
    """DAY at CLOCK in ZONE, in UTC; a day without a time is its start, or with DAY_END the
    start of the next day (the day named is included)."""
    try:  # 31 Dec 9999 ends past the last day of Python's calendar
        if clock is None:
            day, clock = (day + timedelta(days=1), time(0)) if day_end else (day, time(0))
        return datetime.combine(day, clock, tzinfo=zone).astimezone(UTC)
    except OverflowError:
        raise ValueError(f"{day.isoformat()} is past the dates a game keeps") from None


def read_moment(
    text: str,
    zone: str,
    now: datetime,
    *,
    day_end: bool = False,
    after: datetime | None = None,
    nearest: bool = False,
) -> datetime:
    """The moment TEXT names in ZONE, in UTC. A date without a year is the first one after
    AFTER (default NOW), or with NEAREST the one nearest to NOW; a weekday or a time alone is
    the first one after AFTER. Raises ValueError saying what could not be read."""
    s, zone = _as_written(_clean(text), zone)
    tz = ZoneInfo(zone or "UTC")
    after = after or now
    local = now.astimezone(tz).date()
    for form in _FORMS:
        m = form.match(s)
        if m:
            break
    else:
        raise ValueError(f"I could not read {text.strip()!r} as a date")
    g = {k: v.lower() if isinstance(v, str) else v for k, v in m.groupdict().items()}
    clock = _clock(m)
    if g.get("iso"):
        y, mo, d = (int(x) for x in g["iso"].split("-"))
        return _at(_day(y, mo, d, text), clock, tz, day_end)
    if g.get("mon"):
        mo, d = MONTHS[g["mon"]], int(g["d"])
        if g.get("y"):
            day = _day(int(g["y"]), mo, d, text)
        else:
            years = range(local.year - 1, local.year + 3)
            days = [x for y in years if (x := _day(y, mo, d, text, leap_ok=True)) is not None]
            if nearest:
                day = min(days, key=lambda x: abs(_at(x, clock, tz, day_end) - now))
            else:
                day = next(x for x in days if _at(x, clock, tz, day_end) > after)
        if g.get("wd") and WEEKDAYS[g["wd"]] != day.weekday():
            raise ValueError(
                f"{day.day} {day.strftime('%b %Y')} is a {day.strftime('%A')}, "
                f"not a {_weekday_name(g['wd'])}"
            )
        return _at(day, clock, tz, day_end)
    if g.get("wd") or g.get("rel"):
        if g.get("rel"):
            start = local + timedelta(days=1 if g["rel"] == "tomorrow" else 0)
            return _at(start, clock, tz, day_end)
        want = WEEKDAYS[g["wd"]]
        day = local + timedelta(days=(want - local.weekday()) % 7)
        while _at(day, clock, tz, day_end) <= after:
            day += timedelta(days=7)
        return _at(day, clock, tz, day_end)
    day = local  # a time alone: today's, else tomorrow's
    while _at(day, clock, tz, day_end) <= after:
        day += timedelta(days=1)
    return _at(day, clock, tz, day_end)


def _weekday_name(word: str) -> str:
    return date(2024, 1, 1 + WEEKDAYS[word]).strftime("%A")


@overload
def _day(y: int, mo: int, d: int, text: str, leap_ok: Literal[False] = False) -> date: ...
@overload
def _day(y: int, mo: int, d: int, text: str, leap_ok: bool) -> date | None: ...
def _day(y: int, mo: int, d: int, text: str, leap_ok: bool = False) -> date | None:
    try:
        return date(y, mo, d)
    except ValueError:
        if leap_ok and mo == 2 and d == 29:
            return None  # 29 Feb, only in leap years
        raise ValueError(f"{text.strip()!r} is no date of the calendar") from None


_SPAN_WORDS = r"(?:until|till|til|through|thru)"
_LEAD = r"(?:(?:i\s+am|i'm|im|i\s+will\s+be|i'll\s+be)\s+)?(?:away\s+)?"
_UNTIL = re.compile(rf"^{_LEAD}(?P<word>{_SPAN_WORDS})\s+(?P<end>.+)$", re.I)
_FOR = re.compile(rf"^{_LEAD}for\s+(?P<for>.+)$", re.I)
_FROM_TO = re.compile(
    rf"^{_LEAD}(?:from\s+)?(?P<start>.+?)\s+(?P<word>to|-|–|—|{_SPAN_WORDS})\s+(?P<end>.+)$",
    re.I,
)
_ATTEMPT = re.compile(rf"^{_LEAD}(?:{_SPAN_WORDS}|from|for)\b", re.I)
_UNITS = {"minute": "m", "hour": "h", "day": "d", "week": "w"}


def names_a_span(text: str) -> bool:
    """Whether TEXT sets out to name an absence's dates ("until …", "from …", "for …")."""
    return bool(_ATTEMPT.match(_clean(text)))


_DAYLIKE = re.compile(rf"\d|\b(?:{_MON}|{_WD}|today|tonight|tomorrow|noon|midnight)\b", re.I)


def names_a_day(text: str) -> bool:
    """Whether TEXT holds a number or the name of a month or day ("until 6 Jna", "until Fri")."""
    return bool(_DAYLIKE.search(_clean(text)))


def read_span(text: str, zone: str, now: datetime) -> Span | None:
    """The absence TEXT names, or None when it names none; ValueError when it sets out to
    name one ("until …") and its date cannot be read."""
    s = _clean(text)
    if m := _FOR.match(s):
        return Span(None, now + read_length(m.group("for")))
    if m := _UNTIL.match(s):
        return Span(
            None, read_moment(m.group("end"), zone, now, day_end=_through(m.group("word").lower()))
        )
    if m := _FROM_TO.match(s):
        try:
            start = read_moment(m.group("start"), zone, now, nearest=True)
            end = read_moment(
                m.group("end"), zone, now, day_end=_through(m.group("word").lower()), after=start
            )
        except ValueError:
            if names_a_span(s):
                raise
            return None
        return Span(start if start > now else None, end)
    if names_a_span(s):
        raise ValueError(f"I could not read {text.strip()!r} as the dates of an absence")
    return None


def _through(word: str) -> bool:
    """ "until 6 Jan": back on 6 Jan; "24 Dec to 6 Jan", "through 6 Jan": 6 Jan is away too."""
    return word not in ("until", "till", "til")


def read_length(text: str) -> timedelta:
    """A length as people write it: "3d", "3 days", "1 week" (digits, not words)."""
    s = _clean(text).lower()
    words = re.fullmatch(r"(\d+)\s*(minute|hour|day|week)s?", s)
    if words:
        s = words.group(1) + _UNITS[words.group(2)]
    return parse_duration(s)
