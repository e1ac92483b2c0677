"""A mail's times in its reader's own zone (SPEC §2.5 `zone:`): each "Sat 5 Dec 2026 10:00
UTC" the game wrote becomes "Sat 5 Dec 2026 11:00 CET (10:00 UTC)", UTC kept beside it."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from mailref.timeutil import when

_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
# A time written in UTC alone (timeutil.when in a UTC game); not the "(10:00 UTC)" beside one.
_UTC_TIME = re.compile(
    r"\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (\d{1,2}) (" + "|".join(_MONTHS) + r") (\d{4}) "
    r"(\d{2}):(\d{2}) UTC\b"
)


def rezone(text: str, zone: str) -> str:
    """TEXT with each UTC-only time written in ZONE with UTC beside it."""
    if not zone or zone == "UTC" or " UTC" not in text:
        return text

    def local(m: re.Match[str]) -> str:
        day, month, year, hh, mm = m.groups()
        dt = datetime(int(year), _MONTHS.index(month) + 1, int(day), int(hh), int(mm), tzinfo=UTC)
        return when(dt, zone)

    return _UTC_TIME.sub(local, text)
