"""What one player's mail may cost the others: the size of a text, the matters one player
opens a day, and the announcements one player (or a stream of newcomers) causes a day."""

from __future__ import annotations

from typing import Protocol, cast

from mailref.engine.context import Ctx, Refused
from mailref.engine.parameters import Value
from mailref.engine.state import Action, GameState


class LimitsHost(Protocol):
    """What the limits ask of the game: the parameters' defaults, where the GM set none."""

    @property
    def defaults(self) -> dict[str, Value]: ...


class Limits:
    """Caps on what one player's mail sends to everybody."""

    def __init__(self, game: LimitsHost) -> None:
        self.game = game

    def check_text_size(self, state: GameState, action: Action) -> None:
        """A text a player sends is kept in the game and mailed to everybody: it has a size."""
        limit = int(state["parameters"].get("max_text", self.game.defaults["max_text"]))
        sentences = cast(list[str], action.get("sentences") or [])
        size = len(str(action.get("text") or "")) + sum(len(s) for s in sentences)
        if size > limit and not action.get("by"):
            raise Refused("text_too_long", size=size, limit=limit)

    def check_matters_per_day(self, state: GameState, action: Action, ctx: Ctx) -> None:
        """Refuse a matter beyond `matters_per_day` opened by one player this UTC day: each is
        mailed to every player, so one player's (or a forger's) hundreds a day would be hundreds
        of mails to each of the others (Imperial's replacement of the oldest undecided proposal
        limits what is pending, not what is sent). BlogNomic's own rules call more than ten
        entries a day spam."""
        limit = int(
            state["parameters"].get("matters_per_day", self.game.defaults["matters_per_day"])
        )
        opened = state.get("opened") or {}
        who = str(action.get("player") or "").lower()
        if (
            opened.get("day") == ctx.now.strftime("%Y-%m-%d")
            and opened.get("by", {}).get(who, 0) >= limit
        ):
            raise Refused("matters_per_day", limit=limit)

    @staticmethod
    def count_matter(state: GameState, action: Action, ctx: Ctx) -> None:
        day = ctx.now.strftime("%Y-%m-%d")
        opened = state.get("opened") if (state.get("opened") or {}).get("day") == day else None
        opened = opened or {"day": day, "by": {}}
        who = str(action.get("player") or "").lower()
        opened["by"][who] = opened["by"].get(who, 0) + 1
        state["opened"] = opened

    def cap_newcomers(self, state: GameState, ctx: Ctx, sent: int) -> None:
        """Newcomers are announced to everybody at most announcements_per_day times a UTC day
        in all: each [Join] is a new player, whom a per-player cap would not hold, and joins from
        throwaway addresses would each be a mail to every player. Past it, a join still happens
        (journal, digest, the newcomer's answer) and is not announced."""
        mine = [o for o in ctx.out[sent:] if o.kind == "announcement" and o.to == "all"]
        if not mine:
            return
        day = ctx.now.strftime("%Y-%m-%d")
        seen = state.get("newcomers") if (state.get("newcomers") or {}).get("day") == day else None
        seen = seen or {"day": day, "count": 0}
        state["newcomers"] = seen
        limit = int(
            state["parameters"].get(
                "announcements_per_day", self.game.defaults["announcements_per_day"]
            )
        )
        if seen["count"] >= limit:
            for o in mine:
                ctx.out.remove(o)
            ctx.ack(
                f"Not announced to the other players: {limit} newcomers have been announced today "
                "(announcements_per_day); you are in the journal and the GM's digest."
            )
            return
        seen["count"] += 1

    def cap_chatter(self, state: GameState, action: Action, ctx: Ctx, sent: int) -> None:
        """One player's rolls, joins and absences reach everybody at most announcements_per_day
        times a UTC day; past that they are kept (journal, digest) and not mailed."""
        who = str(action.get("player") or action.get("name") or "").lower()
        mine = [o for o in ctx.out[sent:] if o.kind == "announcement" and o.to == "all"]
        if not who or not mine:
            return
        day = ctx.now.strftime("%Y-%m-%d")
        counts = (
            state.get("announced") if (state.get("announced") or {}).get("day") == day else None
        )
        counts = counts or {"day": day, "by": {}}
        state["announced"] = counts
        limit = int(
            state["parameters"].get(
                "announcements_per_day", self.game.defaults["announcements_per_day"]
            )
        )
        if counts["by"].get(who, 0) >= limit:
            for o in mine:
                ctx.out.remove(o)
            ctx.ack(
                f"Not announced to the other players: you have caused {limit} announcements today "
                "(announcements_per_day); this one is in the journal and the GM's digest."
            )
            return
        counts["by"][who] = counts["by"].get(who, 0) + 1
