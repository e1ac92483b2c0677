"""Times as the pages show them: in the game's zone with UTC beside it, and ISO for <time>."""

from __future__ import annotations

from functools import lru_cache
from zoneinfo import ZoneInfo

from mailref.timeutil import iso, parse_iso


def when(text: str | None, zone: str = "UTC") -> dict[str, str] | None:
    """A time for people, in the game's zone with UTC beside it, and ISO for <time>."""
    return dict(shown) if text and (shown := _when(text, zone)) else None


@lru_cache(maxsize=8192)  # a long game's page shows thousands of times, the same each build
def _when(text: str, zone: str) -> dict[str, str] | None:
    t = parse_iso(text)
    if t is None:
        return None
    fmt = "%a %-d %b %Y %H:%M"
    local = t.astimezone(ZoneInfo(zone))
    shown = (
        t.strftime(fmt) + " UTC"
        if zone == "UTC"
        else f"{local.strftime(fmt)} {local.tzname()} ({t.strftime('%H:%M')} UTC)"
    )
    return {"iso": iso(t), "text": shown}
