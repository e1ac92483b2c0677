"""Trades of the gamestate (the seed's rule "Trading"): `[Trade] Ben: my Fox for your Owl`
announced to both, performed when the other accepts within `trade_window` (24 hours), both
items changing hands at once; declined or withdrawn by a "no"; a trade not accepted in time
expires at its window, by the game's timer, and both are told."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, Protocol

from mailref.engine.context import Ctx, Refused
from mailref.engine.mechanics.alterations import alter
from mailref.engine.state import Action, GameState, Player
from mailref.engine.variants.actions import action
from mailref.timeutil import iso, parse_duration, parse_iso

WINDOW = "24h"  # rule "Trading": "within 24 hours", where a game states no trade_window


class TradeHost(Protocol):
    """What an expiring trade asks of the game it was offered in."""

    def event(self, state: GameState, ctx: Ctx, text: str) -> None: ...

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


def _trades(state: GameState) -> list[dict[str, Any]]:
    gs: Any = state.get("gamestate")
    return list(gs.get("trades") or []) if gs else []


def _until(t: dict[str, Any]) -> datetime:
    """When trade T's window closes (an offer kept before it was written: 24 hours)."""
    if until := parse_iso(t.get("until")):
        return until
    opened = parse_iso(t["opened"])
    assert opened is not None  # written by on_trade
    return opened + parse_duration(WINDOW)


def expiry_times(state: GameState) -> list[datetime]:
    """When the open trades' windows close: the game is woken then to say they expired."""
    return [_until(t) for t in _trades(state) if t["status"] == "open"]


def expire(game: TradeHost, state: GameState, ctx: Ctx) -> None:
    """Every open trade whose window has closed expires, and both its sides are told."""
    for t in _trades(state):
        if t["status"] != "open" or ctx.now < _until(t):
            continue
        t["status"] = "expired"
        what = f"{t['from']}'s {t['give']} for {t['to']}'s {t['take']}"
        text = f"Trade {t['number']} ({what}) has expired: {t['to']} did not accept it in time."
        game.event(state, ctx, text)
        game.announce(state, ctx, f"[Trade {t['number']}] expired", [text], to=[t["from"], t["to"]])


def _holder(gs: dict[str, Any], name: str, item: str) -> str | None:
    """The list column in which NAME holds ITEM, or None."""
    for c in gs["columns"]:
        if c["kind"] == "list" and any(
            str(v).lower() == item.lower() for v in gs["values"].get(name, {}).get(c["slug"]) or []
        ):
            return str(c["slug"])
    return None


class DeadlineWords(Protocol):
    """How the game words a deadline for people."""

    def when(
        self, state: GameState, value: datetime | str | None, ctx: Ctx | None = None
    ) -> str: ...


class Roster(Protocol):
    """The game's players, found by name."""

    def must_player(self, state: GameState, name: str) -> Player: ...


class GamestateHost(TradeHost, Protocol):
    """What the gamestate's commands ([Update], [Column], [Transfer], [Trade]) ask of the game
    they are played in: what an expiring trade asks, and more."""

    parameter_table: Any

    @property
    def players(self) -> Roster: ...

    def parameter(self, state: GameState, name: str) -> object: ...

    @property
    def deadlines(self) -> DeadlineWords: ...


class Trading:
    """`[Trade]`: an offer of one item for another, and the other's acceptance."""

    def __init__(self, game: GamestateHost) -> None:
        self.game = game

    def trade_window(self, state: GameState) -> timedelta:
        known = "trade_window" in self.game.parameter_table.params
        return parse_duration(str(self.game.parameter(state, "trade_window") if known else WINDOW))

    @action("trade")
    def on_trade(self, state: GameState, action: Action, ctx: Ctx) -> None:
        me = self.game.players.must_player(state, str(action.get("player") or ""))["name"]
        gs: Any = state.get("gamestate") or {"columns": [], "values": {}, "log": []}
        trades: list[dict[str, Any]] = gs.setdefault("trades", [])
        expire(self.game, state, ctx)  # a window closed while the timer could not run
        if number := action.get("number"):
            if action.get("answer") == "decline":
                self.decline_trade(state, gs, int(str(number)), me, ctx)
            else:
                self.accept_trade(state, gs, int(str(number)), me, action, ctx)
            return
        other = self.game.players.must_player(state, str(action.get("to") or ""))["name"]
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
            "until": iso(ctx.now + self.trade_window(state)),
            "status": "open",
        }
        trades.append(t)
        state["gamestate"] = gs
        text = f"{me} offers {other} a trade: {me}'s {give} for {other}'s {take}"
        until = self.game.deadlines.when(state, str(t["until"]), ctx)
        ctx.ack(f"Trade {t['number']}: {text}; {other} may accept it until {until}.")
        self.game.event(state, ctx, f"Trade {t['number']}: {text}.")
        self.game.announce(
            state,
            ctx,
            f"[Trade {t['number']}] {me}'s {give} for {other}'s {take}",
            [
                f"{text}.",
                f"{other} accepts it by replying yes (or sending [Trade] Accept {t['number']}) "
                f"until {until}, or declines it by replying no; {me} may withdraw it by replying "
                "no. Until then both items must stay in their hands.",
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

    def decline_trade(self, state: GameState, gs: Any, number: int, me: str, ctx: Ctx) -> None:
        """The one offered declines an open trade, or the one who offered withdraws it."""
        t = next((t for t in gs.get("trades") or [] if t["number"] == number), None)
        if t is None or me not in (t["to"], t["from"]):
            raise Refused("no_trade_for_you", number=number)
        if t["status"] != "open":
            raise Refused("trade_closed", number=number, status=t["status"])
        t["status"] = "declined" if me == t["to"] else "withdrawn"
        what = f"{t['from']}'s {t['give']} for {t['to']}'s {t['take']}"
        text = f"{me} {t['status']} trade {number} ({what}); nothing changes hands."
        ctx.ack(text)
        self.game.event(state, ctx, text)
        self.game.announce(
            state, ctx, f"[Trade {number}] {t['status']}", [text], to=[t["from"], t["to"]]
        )
