"""Alterations of the gamestate's values: lines checked against their columns and made all
together or not at one (the seed's Atomic Actions), each kept with who, when, why and the mail
it came from. `[Update]`, a trade and a CfJ's `Set` line all alter values through here."""

from __future__ import annotations

import copy
from typing import Any

from mailref.engine.context import Refused
from mailref.engine.mechanics import columns
from mailref.engine.mechanics.columns import Column
from mailref.engine.state import Alteration, GameState

KEPT = 200  # alterations kept in the state for [Status] and the site; the journal keeps all


def alter(
    state: GameState, lines: list[dict[str, Any]], who: str, at: str, source: str, why: str = ""
) -> list[str]:
    """Make the alterations LINES ({"line", "column", "of", "op", "value", "because"}) by WHO,
    all or none: the first that its column forbids refuses them all, before anything changes.
    Returns what each did, in words ("Thaum of Ann: 0 -> 3")."""
    gs = state.get("gamestate") or {"columns": [], "values": {}, "log": []}
    players = {p["name"].lower(): p["name"] for p in state["players"] if p["status"] != "left"}
    after: dict[tuple[str, str], Any] = {}
    made: list[tuple[str, Column, Any, Any, str]] = []
    for ln in lines:
        line = str(ln.get("line") or "")
        col = next(
            (c for c in gs["columns"] if c["slug"] == str(ln.get("column", "")).lower()), None
        )
        if col is None:
            raise Refused(
                "no_column",
                column=ln.get("column", ""),
                line=line,
                columns=[c["name"] for c in gs["columns"]],
            )
        column: Column = col  # type: ignore[assignment]
        whose = str(ln.get("of") or who)
        name = players.get(whose.lower())
        if name is None:
            raise Refused("column_no_owner", name=whose, line=line)
        key = (name, column["slug"])
        old = after.get(key, gs["values"].get(name, {}).get(column["slug"]))
        new = _altered(column, old, str(ln.get("op") or "="), str(ln.get("value") or ""), line)
        if new is _LACKING:
            raise Refused(
                "column_lacks", column=column["name"], name=name, value=ln.get("value"), line=line
            )
        if (refused := columns.fault(column, new, list(players.values()), line)) is not None:
            raise refused
        after[key] = new
        made.append((name, column, old, new, str(ln.get("because") or "")))
    told = []
    for name, column, old, new, because in made:
        gs["values"].setdefault(name, {})[column["slug"]] = copy.deepcopy(new)
        entry: Alteration = {
            "at": at,
            "by": who,
            "player": name,
            "column": column["name"],
            "old": old,
            "new": new,
            "why": because or why,
            "source": source,
        }
        gs.setdefault("log", []).append(entry)
        told.append(
            f"{column['name']} of {name}: {columns.shown(old)} -> {columns.shown(new)}"
            + (f" (because {because})" if because else "")
        )
    del gs["log"][:-KEPT]
    state["gamestate"] = gs
    return told


_LACKING = object()  # a list item to take away that is not there


def _altered(column: Column, old: Any, op: str, written: str, line: str) -> Any:
    """OLD altered as a line says: `+ 2`, `- 3` on a number, `+ Fox`, `- Fox` on a list, or
    `= value` (also `: value`) on any kind."""
    try:
        if op == "=":
            return columns.read_value(column, written)
        if column["kind"] in columns.NUMERIC:
            n = int(written)
            return (old or 0) + (n if op == "+" else -n)
        if column["kind"] == "list":
            items = columns.read_value(column, written)
            if op == "+":
                return [*(old or []), *items]
            have = list(old or [])
            for item in items:
                match = next((h for h in have if h.lower() == item.lower()), None)
                if match is None:
                    return _LACKING
                have.remove(match)
            return have
    except ValueError:
        pass
    raise Refused(
        "column_unreadable", column=column["name"], kind=column["kind"], value=written, line=line
    )
