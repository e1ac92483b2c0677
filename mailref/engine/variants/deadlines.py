"""Deadlines: their lengths, reminders ahead of them, the moments a game must be woken at,
the tick that fires what is due, and how a deadline is written for people."""

from __future__ import annotations

from datetime import datetime, timedelta

from mailref.engine.context import Ctx
from mailref.engine.mechanics import trades
from mailref.engine.state import Action, GameState, Matter, Turn
from mailref.engine.variants import waiting
from mailref.engine.variants.actions import Acting, action
from mailref.timeutil import iso, parse_duration, parse_iso, when

LATE_GRACE = timedelta(seconds=90)  # a deadline acted on later than this is announced as late


class Deadlines(Acting):
    """When things are due, and the tick that acts on them."""

    def duration(self, state: GameState, key: str) -> timedelta:
        return parse_duration(state["parameters"][key])

    def reminder_at(self, state: GameState, deadline: datetime, opened: str | None) -> datetime:
        """When to remind of DEADLINE: `reminder_before` ahead of it, but never in the first half
        of the time the players were given (with a 1-day turn and the 1-day default, a reminder
        would otherwise arrive with the very mail it repeats)."""
        at = deadline - self.duration(state, "reminder_before")
        if opened:
            start = parse_iso(opened)
            at = max(at, start + (deadline - start) / 2)
        return at

    @staticmethod
    def when(state: GameState, value: datetime | str | None, ctx: Ctx | None = None) -> str:
        """A deadline for people: in the game's zone, UTC beside it, and how far off."""
        return when(value, state.get("timezone") or "UTC", ctx.now if ctx else None)

    def current_deadline_holder(self, state: GameState) -> Turn | Matter | None:
        return state["turn"] if state["turn"] and state["turn"].get("deadline") else None

    def shift_deadlines(self, state: GameState, shift: timedelta) -> None:
        def later(x: str | None) -> str | None:
            return iso(parse_iso(x) + shift) if x else x

        if state["turn"] and state["turn"].get("deadline"):
            state["turn"]["deadline"] = later(state["turn"]["deadline"])
        for p in state["proposals"] + state["judgements"]:
            if p.get("deadline"):
                p["deadline"] = later(p["deadline"])
            if p.get("decidable"):  # BlogNomic: the moment the GM's [Deadline] gave it
                p["decidable"] = later(p["decidable"])
        for e in state.get("endings") or []:  # an orders game's draw open to votes
            if e["status"] == "open":
                e["deadline"] = later(e["deadline"])

    def wakeups(self, state: GameState, now: datetime) -> list[datetime]:
        """Every moment this game must be woken at; the earliest is scheduled. A deadline
        still owed (at or before NOW) is included, so it fires as soon as possible."""
        times = [
            parse_iso(state["digest_next"]),
            *self.inbox.digest_times(state),
            *waiting.times(state),
        ]
        if state["status"] != "ended":
            times += self.absence.times(state)
        if state["status"] in ("paused", "ended"):
            return times
        return times + self.deadline_times(state, now) + trades.expiry_times(state)

    def deadline_times(self, state: GameState, now: datetime) -> list[datetime]:
        return []

    @action("tick")
    def on_tick(self, state: GameState, action: Action, ctx: Ctx) -> None:
        if state["status"] != "ended":
            self.absence.run(state, ctx)
        if state["status"] not in ("paused", "ended"):
            self.fire_deadlines(state, ctx)
            trades.expire(self, state, ctx)  # any game whose rules let players trade
        if ctx.now >= parse_iso(state["digest_next"]):
            self.digests.send(state, ctx)
        self.inbox.send_digests(state, ctx)
        waiting.send_due(state, ctx)

    def fire_deadlines(self, state: GameState, ctx: Ctx) -> None:
        pass

    def late_note(self, due: datetime, ctx: Ctx) -> str:
        if ctx.now - due > LATE_GRACE:
            return (
                f"(Late: this deadline passed at {when(due)} while the referee could not act; "
                f"acted on at {when(ctx.now)}.)"
            )
        return ""
