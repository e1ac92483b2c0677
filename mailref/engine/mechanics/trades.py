"""Trades of the gamestate (the seed's rule "Trading"): `[Trade] Ben: my Fox for your Owl`
announced to both, performed when the other accepts within `trade_window` (24 hours), both
items changing hands at once; a trade not accepted in time has expired."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, Protocol

from mailref.engine.context import Ctx, Refused
from mailref.engine.mechanics.alterations import alter
from mailref.engine.state import Action, GameState, Player
from mailref.engine.variants.actions import action
from mailref.timeutil import iso, parse_duration, parse_iso

WINDOW = "24h"  # rule "Trading": "within 24 hours", where a game states no trade_window


def _holder(gs: dict[str, Any], name: str, item: str) -> str | None:
    """The list column in which NAME holds ITEM, or None."""
    for c in gs["columns"]:
        if c["kind"] == "list" and any(
            str(v).lower() == item.lower() for v in gs["values"].get(name, {}).get(c["slug"]) or []
        ):
            return str(c["slug"])
    return None


class GamestateHost(Protocol):
    """What the gamestate's commands ([Update], [Column], [Transfer], [Trade]) ask of the game
    they are played in."""

    parameter_table: Any

    def must_player(self, state: GameState, name: str) -> Player: ...

    def event(self, state: GameState, ctx: Ctx, text: str) -> None: ...

    def parameter(self, state: GameState, name: str) -> object: ...

    def announce(
        self,
        state: GameState,
        ctx: Ctx,
        subject: str,
        lines: list[str],
        kind: str = "announcement",
        to: list[str] | str = "all",
        opens: bool = False,
    ) -> None: ...

    def when(
        self, state: GameState, value: datetime | str | None, ctx: Ctx | None = None
    ) -> str: ...


class Trading:
    """`[Trade]`: an offer of one item for another, and the other's acceptance."""

    def __init__(self, game: GamestateHost) -> None:
        self.game = game

    def trade_window(self, state: GameState) -> timedelta:
        known = "trade_window" in self.game.parameter_table.params
        return parse_duration(str(self.game.parameter(state, "trade_window") if known else WINDOW))

    def open_trade(self, state: GameState, t: dict[str, Any], now: datetime) -> bool:
        opened = parse_iso(t["opened"])
        assert opened is not None  # written by on_trade
        return bool(t["status"] == "open" and now < opened + self.trade_window(state))

    @action("trade")
    def on_trade(self, state: GameState, action: Action, ctx: Ctx) -> None:
        me = self.game.must_player(state, str(action.get("player") or ""))["name"]
        gs: Any = state.get("gamestate") or {"columns": [], "values": {}, "log": []}
        trades: list[dict[str, Any]] = gs.setdefault("trades", [])
        for t in trades:  # those past their window have expired
            if t["status"] == "open" and not self.open_trade(state, t, ctx.now):
                t["status"] = "expired"
        if number := action.get("number"):
            self.accept_trade(state, gs, int(str(number)), me, action, ctx)
            return
        other = self.game.must_player(state, str(action.get("to") or ""))["name"]
        give, take = str(action.get("give") or ""), str(action.get("take") or "")
        if other == me:
            raise Refused("trade_with_oneself")
        column = _holder(gs, me, give)
        if column is None:
            raise Refused("trade_not_held", name=me, item=give)
        if _holder(gs, other, take) != column:
            raise Refused("trade_not_held", name=other, item=take)
        t = {
            "number": len(trades) + 1,
            "from": me,
            "to": other,
            "column": column,
            "give": give,
            "take": take,
            "opened": iso(ctx.now),
            "status": "open",
        }
        trades.append(t)
        state["gamestate"] = gs
        text = f"{me} offers {other} a trade: {me}'s {give} for {other}'s {take}"
        until = self.game.when(state, ctx.now + self.trade_window(state), ctx)
        ctx.ack(f"Trade {t['number']}: {text}; {other} may accept it until {until}.")
        self.game.event(state, ctx, f"Trade {t['number']}: {text}.")
        self.game.announce(
            state,
            ctx,
            f"[Trade {t['number']}] {me}'s {give} for {other}'s {take}",
            [
                f"{text}.",
                f"{other} accepts it by sending [Trade] Accept {t['number']} until {until};",
                "until then both items must stay in their hands.",
            ],
            to=[me, other],
        )

    def accept_trade(
        self, state: GameState, gs: Any, number: int, me: str, action: Action, ctx: Ctx
    ) -> None:
        t = next((t for t in gs.get("trades") or [] if t["number"] == number), None)
        if t is None or t["to"] != me:
            raise Refused("no_trade_for_you", number=number)
        if t["status"] != "open":
            raise Refused("trade_closed", number=number, status=t["status"])
        column = next(c["name"] for c in gs["columns"] if c["slug"] == t["column"])
        lines = [
            {"line": f"{column} of {t['from']} - {t['give']}", "of": t["from"], "op": "-"},
            {"line": f"{column} of {t['to']} - {t['take']}", "of": t["to"], "op": "-"},
            {"line": f"{column} of {t['from']} + {t['take']}", "of": t["from"], "op": "+"},
            {"line": f"{column} of {t['to']} + {t['give']}", "of": t["to"], "op": "+"},
        ]
        for ln, item in zip(lines, (t["give"], t["take"], t["take"], t["give"]), strict=True):
            ln.update(column=column, value=item)
        why = f"trade {number}"
        done = alter(state, lines, me, iso(ctx.now), str(action.get("source") or ""), why)
        t["status"] = "done"
        ctx.ack(f"Trade {number} is done:")
        for text in done:
            ctx.ack("  " + text)
            self.game.event(state, ctx, f"{text} (trade {number})")
        self.game.announce(
            state,
            ctx,
            f"[Trade {number}] done",
            [f"{me} accepted trade {number}: {t['from']}'s {t['give']} for {me}'s {t['take']}."],
            to=[t["from"], me],
        )
