"""Absence with dates (SPEC §2.5 `[Away] until 6 Jan`, `[Away] 24 Dec to 6 Jan`): set now or
ahead, bounded by `max_absence`, and begun and ended by the game's own clock. The dates are
read in the player's zone (`[Settings] zone:`), else the game's. See docs/decisions/time.md."""

from __future__ import annotations

from datetime import datetime, timedelta

from mailref.engine.context import Ctx, Refused
from mailref.engine.dates import read_span
from mailref.engine.state import GameState, OtherAction, Player
from mailref.engine.variants.in_play import GameInPlay
from mailref.engine.variants.inbox import zone_of
from mailref.timeutil import TooLong, format_duration, iso, parse_duration, parse_iso

AHEAD_MOST = timedelta(days=365)  # an absence begins within a year


class Absence:
    """Dated absences: `away_from` (ahead) and `away_until` on the player."""

    def __init__(self, game: GameInPlay) -> None:
        self.game = game

    def max_absence(self, state: GameState) -> timedelta:
        return parse_duration(str(self.game.parameter(state, "max_absence")))

    def away_dated(self, state: GameState, action: OtherAction, ctx: Ctx) -> None:
        p = self.game.players.whose_absence(state, action)
        longest = self.max_absence(state)
        try:
            span = read_span(str(action["dates"]), zone_of(state, p), ctx.now)
        except TooLong as e:
            raise Refused("absence_past_bound", longest=format_duration(longest), why=e) from None
        except ValueError as e:
            raise Refused("unreadable_date", why=e) from None
        if span is None:
            raise Refused("unreadable_absence", dates=action["dates"])
        begins = span.start or ctx.now
        if span.end <= begins:
            raise Refused(
                "absence_ends_before_it_begins", end=self.game.deadlines.when(state, span.end)
            )
        if span.start and span.start - ctx.now > AHEAD_MOST:
            raise Refused("absence_too_far_ahead")
        if span.end - begins > longest:
            raise Refused(
                "absence_too_long",
                longest=format_duration(longest),
                lasts=format_duration(span.end - begins),
                end=self.game.deadlines.when(state, span.end),
            )
        was, p["away_until"] = p.get("away_until"), iso(span.end)
        until = self.game.deadlines.when(state, span.end)
        if span.start:
            p["away_from"] = iso(span.start)
            ctx.ack(
                f"{p['name']} will be away from {self.game.deadlines.when(state, span.start)} "
                f"until {until}. "
                "The game marks you away when it begins and back when it ends; [Back] before "
                "then cancels it."
            )
            self.game.event(
                state,
                ctx,
                f"{p['name']} will be away from {self.game.deadlines.when(state, span.start)}"
                f" until {until}.",
            )
            return
        p.pop("away_from", None)
        text = f"{p['name']} is away until {until}."
        if p["status"] == "away" and was == p["away_until"]:  # a Reply to its own announcement
            ctx.ack(f"{p['name']} is already away until {until}; nothing changed.")
            return
        if p["status"] == "away":
            ctx.ack(
                f"{p['name']} is now away until {self.game.deadlines.when(state, span.end, ctx)}."
            )
            self.game.event(state, ctx, text)
            self.game.announce(state, ctx, text, [text])
            return
        self.game.players.change_status(state, p, ctx, "away", text)
        ctx.ack(f"Your absence ends by itself {self.game.deadlines.when(state, span.end, ctx)}.")

    def lines(self, state: GameState) -> list[str]:
        """The dated absences, for [Status]: who is away until when, and who will be."""
        out = []
        for p in self.game.players.present(state):
            if p.get("away_from"):
                out.append(
                    f"{p['name']} will be away from "
                    f"{self.game.deadlines.when(state, p['away_from'])} until "
                    f"{self.game.deadlines.when(state, p['away_until'])}."
                )
            elif p.get("away_until") and p["status"] == "away":
                out.append(
                    f"{p['name']} is away until {self.game.deadlines.when(state, p['away_until'])}."
                )
        return out

    def times(self, state: GameState) -> list[datetime]:
        """When a dated absence begins or ends: the game is woken then."""
        return [
            at
            for p in state["players"]
            if p["status"] != "left"
            for at in (parse_iso(p.get("away_from")), parse_iso(p.get("away_until")))
            if at
        ]

    def run(self, state: GameState, ctx: Ctx) -> None:
        """Begin and end the dated absences that are due, before any deadline is acted on, so
        that a skip or an abstention follows who is away at that time."""
        for p in state["players"]:
            if p["status"] == "left":
                continue
            if (begins := parse_iso(p.get("away_from"))) and begins <= ctx.now:
                del p["away_from"]
                if p["status"] == "active":
                    self.begin(state, p, ctx)
            if not p.get("away_from") and (ends := parse_iso(p.get("away_until"))):
                if ends <= ctx.now:
                    until = p.pop("away_until")
                    if p["status"] == "away":
                        self.game.players.change_status(
                            state,
                            p,
                            ctx,
                            "active",
                            f"{p['name']} has returned (the absence ended "
                            f"{self.game.deadlines.when(state, until)}).",
                        )

    def begin(self, state: GameState, p: Player, ctx: Ctx) -> None:
        text = f"{p['name']} is away until {self.game.deadlines.when(state, p['away_until'])}."
        self.game.players.change_status(state, p, ctx, "away", text)
