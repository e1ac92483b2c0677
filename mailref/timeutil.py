"""Durations as players and operators write them (`2s`, `30m`, `1d12h`) and UTC times."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, tzinfo
from functools import lru_cache
from typing import overload

from mailref.testhooks import CLOCK_FILE, clock_file_time

_PART = re.compile(r"(\d+)\s*([wdhms])", re.I)
_UNITS = {"w": 604800, "d": 86400, "h": 3600, "m": 60, "s": 1}
# The longest length read from anyone's words: a longer one cannot be added to a date (Python's
# calendar ends in 9999), and no game waits that long. Each kind of length has a shorter bound.
MAX_DURATION = timedelta(days=3653)  # ten years


class TooLong(ValueError):
    """A length written correctly, longer than MAX_DURATION."""


@lru_cache(maxsize=256)  # the same few parameters are read on every action and on replay
def parse_duration(text: str) -> timedelta:
    """`1d12h` -> timedelta; raises ValueError naming what is wrong."""
    s = str(text).strip().lower().replace(" ", "")
    if not s:
        raise ValueError("empty duration")
    if s.isdigit():
        return _bounded(text, int(s))
    pos, total = 0, 0
    for m in _PART.finditer(s):
        if m.start() != pos:
            break
        total += int(m.group(1)) * _UNITS[m.group(2)]
        pos = m.end()
    if pos != len(s):
        raise ValueError(f"{text!r} is not a duration like 2s, 30m, 12h, 5d or 1d12h")
    return _bounded(text, total)


def _bounded(text: str, seconds: int) -> timedelta:
    if seconds > MAX_DURATION.total_seconds():
        raise TooLong(f"{str(text).strip()[:40]!r} is longer than ten years")
    return timedelta(seconds=seconds)


def format_duration(td: timedelta) -> str:
    secs = int(td.total_seconds())
    if secs == 0:
        return "0s"
    out = []
    for unit in "dhms":
        n, secs = divmod(secs, _UNITS[unit])
        if n:
            out.append(f"{n}{unit}")
    return "".join(out)


# The same few moments are written and read again and again: an action writes its own time
# many times (events, ballots, matters), and `replay` (SPEC §8) runs thousands of actions at a
# few moments a day. Both conversions are pure; their results are kept, a bounded number.
_ISO: dict[datetime, str] = {}
_PARSED: dict[str, datetime] = {}
_KEEP = 4096


@overload
def iso(dt: datetime) -> str: ...
@overload
def iso(dt: None) -> None: ...
@overload
def iso(dt: datetime | None) -> str | None: ...
def iso(dt: datetime | None) -> str | None:
    if dt is None:
        return None
    if (
        dt.tzinfo is not UTC
    ):  # kept are UTC times only: two local times may compare equal across a fold
        dt = dt.astimezone(UTC)
    text = _ISO.get(dt)
    if text is None:
        # As strftime("%Y-%m-%dT%H:%M:%SZ"), several times faster.
        text = (
            f"{dt.year:04d}-{dt.month:02d}-{dt.day:02d}"
            f"T{dt.hour:02d}:{dt.minute:02d}:{dt.second:02d}Z"
        )
        if len(_ISO) >= _KEEP:
            _ISO.clear()
        _ISO[dt] = text
    return text


def parse_iso(text: str | None) -> datetime | None:
    if not text:
        return None
    dt = _PARSED.get(text)
    if dt is None:
        dt = datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(UTC)
        if len(_PARSED) >= _KEEP:
            _PARSED.clear()
        _PARSED[text] = dt
    return dt


def parse_held_iso(text: str | None) -> datetime:
    """The time TEXT, where the state always holds one (an open vote's deadline); a missing
    one is an error, not a time."""
    dt = parse_iso(text)
    if dt is None:
        raise ValueError(f"no time where one is held: {text!r}")
    return dt


def utcnow() -> datetime:
    if CLOCK_FILE:  # a bench's game time (testhooks.py)
        return clock_file_time()
    return datetime.now(UTC)


def _ago(seconds: float) -> str:
    s = abs(seconds)
    if s < 30:  # a deadline 90 s away is "in 2 minutes", not "now"
        return "now"
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if s >= 2 * size or unit == "minute":
            n = round(s / size)
            break
    text = f"{n} {unit}{'' if n == 1 else 's'}"
    return f"in {text}" if seconds > 0 else f"{text} ago"


def when(value: datetime | str | None, zone: str = "UTC", now: datetime | None = None) -> str:
    """A time as people read it (SPEC §2.6), in the game's zone with UTC beside it when the zone
    differs, and how far off: "Sat 5 Dec 2026 10:00 UTC, in 4 days". JSON keeps ISO 8601."""
    if not value:
        return "none"
    text, dt = _absolute(value, zone or "UTC")
    if now is not None:
        text += f", {_ago((dt - now).total_seconds())}"
    return text


_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


@lru_cache(maxsize=64)
def _zone(name: str) -> tzinfo:
    from zoneinfo import ZoneInfo

    try:
        return ZoneInfo(name)
    except Exception:  # an unknown zone name: UTC rather than no answer
        return UTC


@lru_cache(
    maxsize=4096
)  # a game's few deadlines are written again and again (events, digests, replay)
def _absolute(value: datetime | str, zone: str) -> tuple[str, datetime]:
    dt = parse_iso(value) if isinstance(value, str) else value
    if dt is None:
        raise ValueError("no time to write")
    if zone == "UTC":  # most games: no zone rules to look up, and no UTC beside it
        u = dt if dt.tzinfo is UTC else dt.astimezone(UTC)
        return (
            f"{_DAYS[u.weekday()]} {u.day} {_MONTHS[u.month - 1]} {u.year} "
            f"{u.hour:02d}:{u.minute:02d} UTC",
            dt,
        )
    local = dt.astimezone(_zone(zone))
    text = (
        f"{_DAYS[local.weekday()]} {local.day} {_MONTHS[local.month - 1]} {local.year} "
        f"{local.hour:02d}:{local.minute:02d} {local.tzname()}"
    )
    if local.utcoffset() != dt.astimezone(UTC).utcoffset():
        utc = dt.astimezone(UTC)
        text += f" ({utc.hour:02d}:{utc.minute:02d} UTC)"
    return text, dt
