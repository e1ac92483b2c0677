"""The GM's daily digest: what happened, what is pending, who is late or awaited."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any, Protocol
from zoneinfo import ZoneInfo

from mailref.engine.context import Ctx
from mailref.engine.mechanics.gamestate import table_lines
from mailref.engine.state import Action, GameState
from mailref.engine.variants.actions import action
from mailref.timeutil import iso, parse_iso


def next_digest(params: dict[str, Any], tz: str, now: datetime) -> datetime:
    """When the next digest is due: `digest_at` in zone TZ, after NOW."""
    hh, mm = (int(x) for x in params.get("digest_at", "08:00").split(":"))
    if tz == "UTC" and now.tzinfo is UTC:
        # most games: the same moment without zone rules (replay, SPEC §8)
        nxt = now.replace(hour=hh, minute=mm, second=0, microsecond=0)
        return nxt + timedelta(days=1) if nxt <= now else nxt
    local = now.astimezone(ZoneInfo(tz))
    nxt = local.replace(hour=hh, minute=mm, second=0, microsecond=0)
    if nxt <= local:
        nxt += timedelta(days=1)
    return nxt.astimezone(UTC)  # the zone every stored moment is in (timeutil.parse_iso)


class DigestsHost(Protocol):
    """What the digest asks of the game it tells the GM of."""

    def late_players(
        self, state: GameState, now: datetime | None = None
    ) -> list[tuple[str, str | None]]: ...

    def refused_orders(self, state: GameState) -> list[str]: ...

    def status_lines(self, state: GameState, ctx: Ctx | None = None) -> list[str]: ...


class Digests:
    """The digest mailed to the GM at `digest_at` each day."""

    def __init__(self, game: DigestsHost) -> None:
        self.game = game

    @action("digest")
    def on_digest(self, state: GameState, action: Action, ctx: Ctx) -> None:
        self.send(state, ctx)
        ctx.ack("Digest sent to the GM.")

    def send(self, state: GameState, ctx: Ctx) -> None:
        waited = self.game.late_players(state, ctx.now)
        ctx.send(
            "digest",
            "gm",
            "Digest",
            "digest.txt",
            game=state,
            events=list(state["events"]),
            pending=self.game.status_lines(state, ctx) + table_lines(state),
            late=[line for line, due in waited if (at := parse_iso(due)) and at <= ctx.now],
            waiting=[line for line, due in waited if not (at := parse_iso(due)) or at > ctx.now],
            refused=self.game.refused_orders(state),
            facts=ctx.facts,
        )
        state["events"] = []
        state["digest_next"] = iso(next_digest(state["parameters"], state["timezone"], ctx.now))
