"""Durations as players and operators write them (`2s`, `30m`, `1d12h`) and UTC times."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

_PART = re.compile(r"(\d+)\s*([wdhms])", re.I)
_UNITS = {"w": 604800, "d": 86400, "h": 3600, "m": 60, "s": 1}


def parse_duration(text: str) -> timedelta:
    """`1d12h` -> timedelta; raises ValueError naming what is wrong."""
    s = str(text).strip().lower().replace(" ", "")
    if not s:
        raise ValueError("empty duration")
    if s.isdigit():
        return timedelta(seconds=int(s))
    pos, total = 0, 0
    for m in _PART.finditer(s):
        if m.start() != pos:
            break
        total += int(m.group(1)) * _UNITS[m.group(2)]
        pos = m.end()
    if pos != len(s):
        raise ValueError(f"{text!r} is not a duration like 2s, 30m, 12h, 5d or 1d12h")
    return timedelta(seconds=total)


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


def iso(dt: datetime | None) -> str | None:
    if dt is None:
        return None
    return dt.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_iso(text: str | None) -> datetime | None:
    if not text:
        return None
    return datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(UTC)


def utcnow() -> datetime:
    return datetime.now(UTC)
