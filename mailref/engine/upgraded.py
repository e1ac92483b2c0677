"""What a newer mailref writes differently from the one that wrote a game's live state.

After an upgrade, `mailref replay` rebuilds each game with today's rules from a journal an
older version wrote, and compares with the state that older version kept. Two kinds of
difference then say nothing about the journal: a field today's code adds that the old state
lacks (a player's `name_keys`), and the wording of the game's log lines (`events[].text`,
e.g. a deadline once written in ISO, now "Sat 5 Dec 2026 10:00 UTC"). Every game showed as
DIFFERS after an upgrade; these are now set apart and named, and only real differences count
(a value that differs, a field only the live state has, a matter more or less, a live log line
missing). Log lines today's code adds beside every older one (BlogNomic now says when Dormancy
ends) are set apart too.

This is for games begun before states had a schema (their initial state has no `schema`):
since then a change of the state's shape is an ordered step of engine/schema.py, and
`mailref replay` sets nothing apart for a game begun later."""

from __future__ import annotations

import copy
from collections import Counter


def set_apart(live: object, rebuilt: object) -> tuple[object, list[str]]:
    """REBUILT with today's additions dropped and the log's wording taken from LIVE, and what
    was set apart, in words ("players[].name_keys added (5)"). An addition is a field of the
    state itself, or a field every record of a list has in REBUILT that a record lacks in LIVE;
    a key of a collection keyed by name (a ballot in `votes`) is never one: it is a real
    difference."""
    rebuilt = copy.deepcopy(rebuilt)
    added: Counter = Counter()
    worded = [0]
    logged_more = [0]

    def walk(a: object, b: object, path: str) -> None:
        if isinstance(a, dict) and isinstance(b, dict):
            if not path:  # the state's own fields
                for k in [k for k in b if k not in a]:
                    added[k] += 1
                    del b[k]
            for k in a:
                if k in b:
                    walk(a[k], b[k], f"{path}.{k}")
        elif (
            isinstance(a, list)
            and isinstance(b, list)
            and path.endswith(".events")
            and len(b) > len(a)
            and (kept := _older_lines_among(a, b)) is not None
        ):
            # Lines today's code adds to the game's log (BlogNomic saying when Dormancy ends),
            # every older line still there, in order: the rest is compared as usual.
            logged_more[0] += len(b) - len(kept)
            b[:] = [b[i] for i in kept]
            walk(a, b, path)
        elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
            if b and all(isinstance(x, dict) for x in a + b):
                # A field of these records (every rebuilt one has it) that an older record lacks:
                # records the newer version wrote since (a player who joined after the upgrade)
                # have it live too.
                fields = set.intersection(*(set(y) for y in b))
                for x, y in zip(a, b, strict=True):
                    for k in fields - set(x):
                        del y[k]
                        added[f"{path.lstrip('.')}[].{k}"] += 1
            logged = path.endswith(".events")
            for i, (x, y) in enumerate(zip(a, b, strict=True)):
                if (
                    logged
                    and isinstance(x, dict)
                    and isinstance(y, dict)
                    and x.get("at") == y.get("at")
                    and isinstance(x.get("text"), str)
                    and x.get("text") != y.get("text")
                ):
                    y["text"] = x["text"]
                    worded[0] += 1
                walk(x, y, f"{path}[{i}]")

    walk(live, rebuilt, "")
    notes = [f"{p} added ({n})" for p, n in sorted(added.items())]
    if worded[0]:
        notes.append(f"{worded[0]} log line(s) worded differently")
    if logged_more[0]:
        notes.append(f"{logged_more[0]} log line(s) this version adds")
    return rebuilt, notes


def _older_lines_among(live: list, rebuilt: list) -> list[int] | None:
    """The indexes in REBUILT of LIVE's log lines, in order (matched by time, and by text unless
    reworded), or None when some live line is not there: then it is a real difference."""
    kept, j = [], 0
    for x in live:
        if not isinstance(x, dict):
            return None
        while j < len(rebuilt) and not (
            isinstance(rebuilt[j], dict)
            and rebuilt[j].get("at") == x.get("at")
            and (
                rebuilt[j].get("text") == x.get("text")
                or j + 1 >= len(rebuilt)
                or rebuilt[j + 1].get("at") != x.get("at")
            )
        ):
            j += 1
        if j == len(rebuilt):
            return None
        kept.append(j)
        j += 1
    return kept
