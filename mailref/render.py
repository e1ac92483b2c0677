"""The Jinja2 environment over templates/: undefined variables are errors; an installation
may put its own templates in a folder that is searched first."""

from __future__ import annotations

import os
import re
from datetime import datetime
from functools import lru_cache
from operator import methodcaller
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from mailref import resource
from mailref.timeutil import when

_ISO_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:\d\d)?")


@lru_cache(maxsize=4)
def environment(override: str | None = None) -> Environment:
    paths = [
        p
        for p in (override or os.environ.get("MAILREF_TEMPLATES"), str(resource("templates")))
        if p
    ]
    env = Environment(
        loader=FileSystemLoader(paths),
        undefined=StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["indent_all"] = lambda s, n=4: "\n".join(
        " " * n + ln if ln.strip() else "" for ln in str(s).splitlines()
    )
    # {{ proposal.deadline | when(game, now) }} -> "Sat 5 Dec 2026 10:00 UTC, in 4 days" (SPEC §2.6)
    env.filters["when"] = lambda value, game=None, now=None: when(
        value, (game or {}).get("timezone") or "UTC", now if isinstance(now, datetime) else None
    )
    # An event an older mailref logged with a raw time in its text ("to move by
    # 2026-12-05T22:19:32Z") reads as any other time in the digest (SPEC §2.6).
    env.filters["times_for_people"] = lambda text, game=None: _ISO_TIME.sub(
        lambda m: when(m.group(0), (game or {}).get("timezone") or "UTC", None).split(",")[0],
        str(text),
    )
    # The example in a turn mail names a rule number nobody holds (rendered after the whole
    # action, so a rule enacted as the turn moved on is already counted).
    # Mapped, not walked in Python: a turn mail of a game of a thousand rules renders it.
    env.filters["free_rule_number"] = lambda rules: 1 + max(
        map(int, filter(str.isdigit, map(str, map(_NUMBER, rules)))), default=0
    )
    return env


_NUMBER = methodcaller("get", "number", "")


def render(template: str, **vars: Any) -> str:
    return environment().get_template(template).render(**vars)
