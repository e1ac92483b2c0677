"""Deadlines: their lengths, reminders ahead of them, the moments a game must be woken at,
the tick that fires what is due, and how a deadline is written for people. Held by the game
as `deadlines`; what falls due at a tick and when is the game's own (its hooks
`deadline_times`, `fire_deadlines`, `current_deadline_holder`, declared on `Variant`)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Protocol

from mailref.engine.context import Ctx
from mailref.engine.mechanics import trades
from mailref.engine.state import GameState, OtherAction
from mailref.engine.variants import waiting
from mailref.engine.variants.actions import action
from mailref.timeutil import iso, parse_duration, parse_iso, when

if TYPE_CHECKING:
    from mailref.engine.variants.absence import Absence
    from mailref.engine.variants.digests import Digests
    from mailref.engine.variants.inbox import Inbox

LATE_GRACE = timedelta(seconds=90)  # a deadline acted on later than this is announced as late


class DeadlinesHost(trades.TradeHost, Protocol):
    """What the clock asks of the game: when its own deadlines fall and what they do, the
    components that keep time besides (absences, digests, held mail), and its announcements
    (of trades expired)."""

    @property
    def absence(self) -> Absence: ...

    @property
    def digests(self) -> Digests: ...

    @property
    def inbox(self) -> Inbox: ...

    def deadline_times(self, state: GameState, now: datetime) -> list[datetime]: ...

    def fire_deadlines(self, state: GameState, ctx: Ctx) -> None: ...


class Deadlines:
    """When things are due, and the tick that acts on them."""

    def __init__(self, game: DeadlinesHost) -> None:
        self.game = game

    def duration(self, state: GameState, key: str) -> timedelta:
        return parse_duration(state["parameters"][key])

    def reminder_at(self, state: GameState, deadline: datetime, opened: str | None) -> datetime:
        """When to remind of DEADLINE: `reminder_before` ahead of it, but never in the first half
        of the time the players were given (with a 1-day turn and the 1-day default, a reminder
        would otherwise arrive with the very mail it repeats)."""
        at = deadline - self.duration(state, "reminder_before")
        start = parse_iso(opened)
        if start is not None:
            at = max(at, start + (deadline - start) / 2)
        return at

    @staticmethod
    def when(state: GameState, value: datetime | str | None, ctx: Ctx | None = None) -> str:
        """A deadline for people: in the game's zone, UTC beside it, and how far off."""
        return when(value, state.get("timezone") or "UTC", ctx.now if ctx else None)

    def shift_deadlines(self, state: GameState, shift: timedelta) -> None:
        def later(x: str | None) -> str | None:
            at = parse_iso(x)
            return iso(at + shift) if at is not None else x

        turn = state["turn"]
        if turn and turn.get("deadline"):
            turn["deadline"] = later(turn["deadline"])
        for p in state["proposals"] + state["judgements"]:
            if p.get("deadline"):
                p["deadline"] = later(p["deadline"])
            if decidable := p.get("decidable"):  # BlogNomic: the GM's [Deadline] gave it
                p["decidable"] = later(decidable) or decidable
        endings: Any = state.get("endings")  # an orders game's (OrdersState)
        for e in endings or []:  # a draw open to votes
            if e["status"] == "open":
                e["deadline"] = later(e["deadline"])

    def wakeups(self, state: GameState, now: datetime) -> list[datetime]:
        """Every moment this game must be woken at; the earliest is scheduled. A deadline
        still owed (at or before NOW) is included, so it fires as soon as possible."""
        digest = parse_iso(state["digest_next"])
        times = [
            *([digest] if digest is not None else []),
            *self.game.inbox.digest_times(state),
            *waiting.times(state),
        ]
        if state["status"] != "ended":
            times += self.game.absence.times(state)
        if state["status"] in ("paused", "ended"):
            return times
        return times + self.game.deadline_times(state, now) + trades.expiry_times(state)

    @action("tick")
    def on_tick(self, state: GameState, action: OtherAction, ctx: Ctx) -> None:
        if state["status"] != "ended":
            self.game.absence.run(state, ctx)
        if state["status"] not in ("paused", "ended"):
            self.game.fire_deadlines(state, ctx)
            trades.expire(self.game, state, ctx)  # any game whose rules let players trade
        digest = parse_iso(state["digest_next"])
        if digest is not None and ctx.now >= digest:
            self.game.digests.send(state, ctx)
        self.game.inbox.send_digests(state, ctx)
        waiting.send_due(state, ctx)

    def late_note(self, due: datetime, ctx: Ctx) -> str:
        if ctx.now - due > LATE_GRACE:
            return (
                f"(Late: this deadline passed at {when(due)} while the referee could not act; "
                f"acted on at {when(ctx.now)}.)"
            )
        return ""
