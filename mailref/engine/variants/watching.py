"""Watchers: people who follow a game without playing it. `[Watch]` by anyone is answered with
a confirmation to that address, as a join is (variants/joining.py); the reply to it makes the
address a watcher, who gets the game's announcements and results (outgoing.py) and never its
ballots, orders, press or private mail. `[Unwatch]`, or the List-Unsubscribe of a watcher's
mail, ends it; `watching=off` keeps a game to its players."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any, Protocol

from mailref.engine.context import Ctx, Refused
from mailref.engine.state import GameState, OtherAction
from mailref.engine.variants.actions import action
from mailref.timeutil import iso, parse_iso

# How long a confirmation to watch can be answered: as long as a join's.
CONFIRM_FOR = timedelta(days=7)
# A game keeps at most this many watchers: each is mailed every announcement.
MOST_WATCHERS = 500

if TYPE_CHECKING:
    from mailref.engine.variants.players import Players


class WatchingHost(Protocol):
    """What watching asks of the game: its parameters and its players by address."""

    @property
    def players(self) -> Players: ...

    def parameter(self, state: GameState, name: str) -> object: ...


class Watching:
    """The game's watchers (`watchers`) and the requests to watch awaiting their reply
    (`watch_asked`)."""

    def __init__(self, game: WatchingHost) -> None:
        self.game = game

    @action("watch")
    def on_watch(self, state: GameState, action: OtherAction, ctx: Ctx) -> None:
        """A [Watch]: answered with the confirmation that the address's reply makes it a
        watcher."""
        if self.game.parameter(state, "watching") is False:
            raise Refused("watching_off", game=state["name"])
        address = str(action.get("address") or "").lower()
        if self.game.players.by_address(state, address) is not None:
            raise Refused("player_watches_already", game=state["name"])
        if address in watchers(state):
            raise Refused("watches_already", game=state["name"])
        if len(watchers(state)) >= MOST_WATCHERS:
            raise Refused("watchers_full", game=state["name"], most=MOST_WATCHERS)
        waiting = [e for e in self.fresh(state, ctx) if e["address"] != address]
        waiting.append({"address": address, "token": action["token"], "asked": iso(ctx.now)})
        state["watch_asked"] = waiting
        ctx.reply(
            "confirm",
            "watch_confirm.txt",
            game=state,
            address=address,
            code=action["token"],
            until=ctx.now + CONFIRM_FOR,
            confirm_subject=f"[Confirm] Watch {state['name']}",
        )

    @action("watch_confirm")
    def on_watch_confirm(self, state: GameState, action: OtherAction, ctx: Ctx) -> None:
        """The reply to a confirmation to watch: the address watches from now on."""
        address = str(action.get("address") or "").lower()
        tokens = action.get("tokens") or []
        waiting = self.fresh(state, ctx)
        entry = next((e for e in waiting if e["address"] == address and e["token"] in tokens), None)
        if entry is None:
            raise Refused("no_watch_waiting", address=address, days=CONFIRM_FOR.days)
        if action.get("consents") is False:
            raise Refused("watch_reply_is_no_consent")
        state["watch_asked"] = [e for e in waiting if e is not entry]
        if address not in watchers(state):
            kept = state.get("watchers") or []
            state["watchers"] = [*kept, {"address": address, "since": iso(ctx.now)}]
        ctx.ack(
            f"You watch {state['name']} now: its announcements and results come to you. "
            "Send [Unwatch] to stop."
        )
        ctx.note(f"A watcher joined ({len(watchers(state))} now).")

    @action("unwatch")
    def on_unwatch(self, state: GameState, action: OtherAction, ctx: Ctx) -> None:
        """[Unwatch], or a watcher's List-Unsubscribe: no more of the game's mail."""
        address = str(action.get("address") or "").lower()
        if address not in watchers(state):
            raise Refused("not_watching", address=address, game=state["name"])
        state["watchers"] = [w for w in state.get("watchers") or [] if w["address"] != address]
        ctx.ack(f"You no longer watch {state['name']}: none of its mail comes to you now.")
        ctx.note(f"A watcher left ({len(watchers(state))} now).")

    def fresh(self, state: GameState, ctx: Ctx) -> list[dict[str, Any]]:
        """The requests to watch that can still be answered."""
        kept = state.get("watch_asked") or []
        return [e for e in kept if (at := parse_iso(e["asked"])) and at + CONFIRM_FOR > ctx.now]


def watchers(state: GameState | dict[str, Any]) -> list[str]:
    """The addresses that watch the game of STATE."""
    return [str(w["address"]) for w in state.get("watchers") or []]


def watching_asked(state: GameState | dict[str, Any], tokens: list[str]) -> bool:
    """Whether one of TOKENS is the code of a request to watch the game of STATE."""
    return any(e.get("token") in tokens for e in state.get("watch_asked") or [])


def watchers_of(state: GameState | dict[str, Any], kind: str, to: list[str] | str) -> list[str]:
    """The watchers a game's mail of KIND to TO goes to as well: an announcement to all the
    players, and a turn's results (Eire mails them to those who played it, the eliminated
    too; the GM's preview is another kind)."""
    public = kind == "announcement" and to == "all" or kind == "results" and to != "gm"
    if not public or not state.get("watchers"):
        return []
    # One who watched and then joined reads the game as a player, once.
    playing = {a.lower() for p in state["players"] if p["status"] != "left" for a in p["addresses"]}
    return [a for a in watchers(state) if a not in playing]
