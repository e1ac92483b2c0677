"""The gamestate by mail (BlogNomic's GNDT): the columns the ruleset declares, every player's
value in each, and `[Update]`, which alters them a line at a time, all lines or none (the
seed's Atomic Actions), answering with the old and new values."""

from __future__ import annotations

import copy
import re
from typing import Any

from mailref.engine.context import Ctx, Refused
from mailref.engine.mechanics import columns, named_rolls
from mailref.engine.mechanics.alterations import alter
from mailref.engine.mechanics.trades import Trading
from mailref.engine.state import Action, GameState
from mailref.engine.variants.actions import action
from mailref.timeutil import iso

_DICE = re.compile(r"(?i)dice\s*(\d{1,21})")


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


def _columns(state: GameState) -> list[dict[str, Any]]:
    gs = state.get("gamestate")
    return gs["columns"] if gs else []


class Gamestate(Trading):
    """`[Update]`: the alterations of one mail checked against their columns and made at once;
    `[Trade]` (mechanics/trades.py). Held by the game as `gamestate`."""

    def own_data_only(self, state: GameState) -> bool:
        """Whether the game restricts a player's updates to their own values (`own_data_only`);
        else "Any Wizard may update any Wizard's data", as the seed's rule 4.2 has it."""
        known = "own_data_only" in self.game.parameter_table.params
        return bool(known and self.game.parameter(state, "own_data_only"))

    @action("update")
    def on_update(self, state: GameState, action: Action, ctx: Ctx) -> None:
        written: Any = action.get("lines")  # only `update` actions carry lines
        lines: list[dict[str, Any]] = list(written or [])
        if not lines:
            raise Refused("update_empty")
        officer = bool(action.get("by") or action.get("gm"))  # the GM, by mail or command
        who = str(action.get("by") or "")
        if not who:
            who = "the GM" if action.get("gm") else ""
            who = (
                who or self.game.players.must_player(state, str(action.get("player") or ""))["name"]
            )
        if not officer:
            ledgers = {c["slug"]: c["name"] for c in _columns(state) if c["kind"] == "asset"}
            for ln in lines:
                if (slug := str(ln.get("column") or "").lower()) in ledgers:
                    line = str(ln.get("line") or "")
                    raise Refused("asset_by_transfer_only", column=ledgers[slug], line=line)
        if not officer and self.own_data_only(state):
            for ln in lines:
                if ln.get("of") and str(ln["of"]).lower() != who.lower():
                    raise Refused("column_not_yours", name=ln["of"], line=ln.get("line", ""))
        source, why = str(action.get("source") or ""), str(action.get("reason") or "")
        # The seed's GNDT rolls in place: a `DICE6` line is a roll, `Thaum +DICE6` adds one.
        rolled: list[tuple[int, int, str, bool]] = []  # sides, value, why, used in place
        altered: list[dict[str, Any]] = []
        taken: set[int] = set()  # rolls of earlier mails this one names
        for ln in lines:
            if not ln.get("roll") and named_rolls.named(str(ln.get("value") or "")) is not None:
                altered.append(named_rolls.take(state, ln, who, officer, taken))
                continue
            m = _DICE.fullmatch(str(ln.get("value") or "")) if ln.get("op") in ("+", "-") else None
            sides = int(ln.get("roll") or (m.group(1) if m else 0))
            if sides:
                if not 1 <= sides < 10**21:
                    raise Refused("unreadable_roll", dice=f"DICE{sides}", generators=[])
                value = ctx.randint(1, sides)
                rolled.append((sides, value, str(ln.get("because") or ""), bool(m)))
            if ln.get("roll"):
                continue
            altered.append({**ln, "value": str(rolled[-1][1])} if m else ln)
        for text in alter(state, altered, who, iso(ctx.now), source, why) if altered else []:
            ctx.ack(text)
            self.game.event(state, ctx, f"{who} updated {text}")
        named_rolls.mark_used(state, taken, source)
        for sides, value, because, used in rolled:
            roll = {"dice": f"DICE{sides}", "values": [value], "why": because or "[Update]"}
            roll |= {"used": source or "used"} if used else {}
            state["rolls"].append({"at": iso(ctx.now), "player": who, **roll})  # type: ignore[typeddict-item]
            ctx.ack(f"{who} rolled DICE{sides}: {value} (roll {len(state['rolls'])})")
            self.game.event(state, ctx, f"{who} rolled DICE{sides}: {value} (in an [Update])")

    @action("column")
    def on_column(self, state: GameState, action: Action, ctx: Ctx) -> None:
        """`mailref column add SLUG NAME KIND` or the GM's `[Column]`: a column where no rule's
        sentence is read as one; it stays whatever the rules say, unless a rule declares it."""
        if not action.get("by") and not action.get("gm"):
            raise Refused("only_gm_declares_columns")
        fields: Any = action.get("fields") or {}
        name, kind = str(action.get("name") or "").strip(), str(fields.get("kind") or "")
        if kind not in columns.KINDS:
            raise Refused("column_kind_unknown", kind=kind, kinds=list(columns.KINDS))
        if not re.fullmatch(r"[A-Za-z][\w-]{0,39}", name):
            raise Refused("column_name_unreadable", name=name)
        gs = state.get("gamestate") or {"columns": [], "values": {}, "log": []}
        if any(c["slug"] == name.lower() for c in gs["columns"]):
            raise Refused("column_exists", name=name)
        column: columns.Column = {
            "slug": name.lower(),
            "name": name,
            "kind": kind,
            "default": "",
            "rule": "",
        }
        if kind in columns.NUMERIC:
            low = 0 if kind == "asset" else fields.get("min")  # a ledger never goes below zero
            column["min"], column["max"], column["default"] = low, fields.get("max"), 0
        elif kind == "list":
            column["max_len"], column["default"] = fields.get("max_len"), []
        elif kind == "choice":
            column["choices"] = list(fields.get("choices") or [])
            if not column["choices"]:
                raise Refused("column_needs_choices", name=name)
            column["default"] = column["choices"][0]
        if fields.get("default") is not None:
            try:
                column["default"] = columns.read_value(column, str(fields["default"]))
            except ValueError:
                raise Refused(
                    "column_unreadable", column=name, kind=kind, value=fields["default"], line=""
                ) from None
            names = [p["name"] for p in state["players"]]
            if (refused := columns.fault(column, column["default"], names)) is not None:
                raise refused
        gs["columns"].append(dict(column))
        state["gamestate"] = gs
        keep_columns(state)
        start = columns.shown(column["default"])
        text = f"The GM declared the column {name} ({kind}), starting at {start}."
        ctx.ack(text)
        self.game.event(state, ctx, text)

    @action("transfer")
    def on_transfer(self, state: GameState, action: Action, ctx: Ctx) -> None:
        """`[Transfer] 5 Thaum to Ben`: "subtract X from A's V and add X to B's V" (the seed's
        Clarifications), both sides in one alteration, never below the column's bound."""
        written: Any = action.get("lines")
        lines: list[dict[str, Any]] = list(written or [])
        if not lines:
            raise Refused("update_empty")
        me = self.game.players.must_player(state, str(action.get("player") or ""))["name"]
        gs: Any = state.get("gamestate") or {"columns": []}
        made: list[dict[str, Any]] = []
        for ln in lines:
            line, amount, name = str(ln["line"]), int(ln["amount"]), str(ln["column"])
            col = next((c for c in gs["columns"] if c["slug"] == name.lower()), None)
            if col is not None and col["kind"] not in columns.NUMERIC:
                raise Refused("transfer_not_an_amount", column=col["name"], line=line)
            if amount <= 0:
                raise Refused("transfer_not_positive", line=line)
            if str(ln["to"]).lower() == me.lower():
                raise Refused("transfer_to_oneself", line=line)
            because = str(ln.get("because") or "")
            made.append(
                {"line": line, "column": name, "op": "-", "value": str(amount), "because": because}
            )
            made.append(
                {"line": line, "column": name, "of": ln["to"], "op": "+", "value": str(amount)}
                | {"because": because}
            )
        source, why = str(action.get("source") or ""), str(action.get("reason") or "")
        for text in alter(state, made, me, iso(ctx.now), source, why):
            ctx.ack(text)
            self.game.event(state, ctx, f"{me} transferred: {text}")
