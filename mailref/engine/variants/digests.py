"""The GM's daily digest: what happened, what is pending, who is late or awaited."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from mailref.engine.context import Ctx
from mailref.engine.mechanics.gamestate import table_lines
from mailref.engine.state import Action, GameState
from mailref.engine.variants.actions import Acting, action
from mailref.timeutil import iso, parse_iso


class Digests(Acting):
    """The digest mailed to the GM at `digest_at` each day."""

    def _next_digest(self, params: dict, tz: str, now: datetime) -> datetime:
        hh, mm = (int(x) for x in params.get("digest_at", "08:00").split(":"))
        if (
            tz == "UTC" and now.tzinfo is UTC
        ):  # most games: the same moment without zone rules (replay, SPEC §8)
            nxt = now.replace(hour=hh, minute=mm, second=0, microsecond=0)
            return nxt + timedelta(days=1) if nxt <= now else nxt
        local = now.astimezone(ZoneInfo(tz))
        nxt = local.replace(hour=hh, minute=mm, second=0, microsecond=0)
        if nxt <= local:
            nxt += timedelta(days=1)
        return nxt.astimezone(parse_iso(iso(now)).tzinfo)

    @action("digest")
    def on_digest(self, state: GameState, action: Action, ctx: Ctx) -> None:
        self.send_digest(state, ctx)
        ctx.ack("Digest sent to the GM.")

    def send_digest(self, state: GameState, ctx: Ctx) -> None:
        waited = self.late_players(state, ctx.now)
        ctx.send(
            "digest",
            "gm",
            "Digest",
            "digest.txt",
            game=state,
            events=list(state["events"]),
            pending=self.status_lines(state) + table_lines(state),
            late=[line for line, due in waited if due and parse_iso(due) <= ctx.now],
            waiting=[line for line, due in waited if not due or parse_iso(due) > ctx.now],
            refused=self.refused_orders(state),
            facts=ctx.facts,
        )
        state["events"] = []
        state["digest_next"] = iso(
            self._next_digest(state["parameters"], state["timezone"], ctx.now)
        )

    def late_players(
        self, state: GameState, now: datetime | None = None
    ) -> list[tuple[str, str | None]]:
        """(line, deadline) of everyone the game waits for; the digest lists under "Late" only
        those whose deadline has passed, the rest under "Waiting for"."""
        return []

    def refused_orders(self, state: GameState) -> list[str]:
        return []
