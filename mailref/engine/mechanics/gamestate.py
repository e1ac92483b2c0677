"""The gamestate by mail (BlogNomic's GNDT): the columns the ruleset declares, every player's
value in each, and `[Update]`, which alters them a line at a time, all lines or none (the
seed's Atomic Actions), answering with the old and new values."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from mailref.engine.context import Ctx, Refused
from mailref.engine.mechanics import columns
from mailref.engine.mechanics.columns import Column
from mailref.engine.state import Action, Alteration, GameState, Player
from mailref.engine.variants.actions import Acting, action
from mailref.timeutil import iso

KEPT = 200  # alterations kept in the state for [Status] and the site; the journal keeps all


def keep_columns(state: GameState) -> None:
    """The columns as the rules now declare them (the GM's own kept), and every player's value in
    each, a newcomer's and a new column's at its default. A game whose rules declare none and
    that never had one carries no gamestate."""
    declared = columns.from_rules(state["rules"])
    gs = state.get("gamestate")
    if gs is None:
        if not declared:
            return
        gs = state["gamestate"] = {"columns": [], "values": {}, "log": []}
    own = [c for c in gs["columns"] if not c.get("rule")]
    cols: list[dict[str, Any]] = [
        *(dict(c) for c in declared),
        *(c for c in own if all(d["slug"] != c["slug"] for d in declared)),
    ]
    gs["columns"] = cols
    slugs = {c["slug"] for c in cols}
    for p in state["players"]:
        row = gs["values"].setdefault(p["name"], {})
        for c in cols:
            if c["slug"] not in row:
                row[c["slug"]] = copy.deepcopy(c["default"])
        for gone in [k for k in row if k not in slugs]:
            del row[gone]  # a repealed column's values stay in the journal


def table_lines(state: GameState) -> list[str]:
    """The gamestate as [Status] shows it: one line a column, each player's value."""
    gs = state.get("gamestate")
    if not gs or not gs["columns"]:
        return []
    lines = ["Gamestate:"]
    names = [p["name"] for p in state["players"] if p["status"] != "left"]
    for c in gs["columns"]:
        values = ", ".join(
            f"{n} {columns.shown(gs['values'].get(n, {}).get(c['slug']))}" for n in names
        )
        lines.append(f"  {c['name']}: {values or '-'}")
    return lines


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


class Gamestate(Acting):
    """`[Update]`: the alterations of one mail checked against their columns and made at once."""

    if TYPE_CHECKING:  # what it asks of the variant it is part of (base.py's concerns)

        def must_player(self, state: GameState, name: str) -> Player: ...

        def event(self, state: GameState, ctx: Ctx, text: str) -> None: ...

    @action("update")
    def on_update(self, state: GameState, action: Action, ctx: Ctx) -> None:
        written: Any = action.get("lines")  # only `update` actions carry lines
        lines: list[dict[str, Any]] = list(written or [])
        if not lines:
            raise Refused("update_empty")
        who = str(action.get("by") or "")
        if not who:
            who = self.must_player(state, str(action.get("player") or ""))["name"]
        source, why = str(action.get("source") or ""), str(action.get("reason") or "")
        for text in alter(state, lines, who, iso(ctx.now), source, why):
            ctx.ack(text)
            self.event(state, ctx, f"{who} updated {text}")


_LACKING = object()  # a list item to take away that is not there


def _altered(column: Column, old: Any, op: str, written: str, line: str) -> Any:
    """OLD altered as a line says: `+ 2`, `- 3` on a number, `+ Fox`, `- Fox` on a list, or
    `= value` (also `: value`) on any kind."""
    try:
        if op == "=":
            return columns.read_value(column, written)
        if column["kind"] == "integer":
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
