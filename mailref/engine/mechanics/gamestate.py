"""The gamestate by mail (BlogNomic's GNDT): the columns the ruleset declares, every player's
value in each, and `[Update]`, which alters them a line at a time, all lines or none (the
seed's Atomic Actions), answering with the old and new values."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from mailref.engine.context import Ctx, Refused
from mailref.engine.mechanics import columns
from mailref.engine.mechanics.alterations import alter
from mailref.engine.mechanics.trades import Trading
from mailref.engine.state import Action, GameState, Player
from mailref.engine.variants.actions import action
from mailref.timeutil import iso


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


class Gamestate(Trading):
    """`[Update]`: the alterations of one mail checked against their columns and made at once;
    `[Trade]` (mechanics/trades.py)."""

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
