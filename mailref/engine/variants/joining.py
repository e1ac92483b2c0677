"""Consent to join (SPEC §2.3): a [Join] by mail is answered with a confirmation to the
address that would play, and the player exists once a reply to it comes back; the GM may
hold each confirmed join (`join_approval=gm`) for an `[Approve] NAME`; a game takes in at
most `joins_per_day` newcomers a UTC day."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any, Protocol, cast

from mailref.engine.context import Ctx, Refused
from mailref.engine.parameters import Value
from mailref.engine.state import ConfirmAction, GameState, JoinAction, OtherAction
from mailref.engine.variants.actions import Handler, action
from mailref.engine.variants.watching import watchers
from mailref.timeutil import iso, parse_iso

if TYPE_CHECKING:
    from mailref.engine.variants.players import Players
    from mailref.engine.variants.substitutes import Substitutes

# How long a confirmation can be answered.
CONFIRM_FOR = timedelta(days=7)
# What a confirmed join keeps of the [Join]: the rest (its token, its counts) is the mail's.
_KEPT = ("type", "name", "address", "more", "choices", "name_keys", "capped", "seat")


class ConsentHost(Protocol):
    """What consent asks of the game: its checks of a join, and the join itself."""

    @property
    def actions(self) -> dict[str, Handler]: ...

    @property
    def players(self) -> Players: ...

    @property
    def defaults(self) -> dict[str, Value]: ...

    def new_player_fields(self, state: GameState, action: Any) -> dict[str, Any]: ...

    @property
    def substitutes(self) -> Substitutes: ...


class Consent:
    """Joins that wait for their address's confirmation, and for the GM's approval."""

    def __init__(self, game: ConsentHost) -> None:
        self.game = game

    def ask(self, state: GameState, action: JoinAction, ctx: Ctx) -> None:
        """Check the [Join] as a join, then keep it and answer with the confirmation."""
        name = self.game.players.check_join(state, action)
        self.game.new_player_fields(state, action)  # the variant's own choices, refused at once
        if self.join_approval(state) == "auto":
            self.check_joins_per_day(state, ctx)
        address = action["address"].lower()
        waiting = [e for e in self.fresh(state, "joining", ctx) if e["address"] != address]
        asked: dict[str, Any] = dict(action)
        join = {k: asked[k] for k in _KEPT if k in asked}
        waiting.append({"address": address, "token": action["token"], "asked": iso(ctx.now)})
        waiting[-1]["join"] = {**join, "name": name}
        state["joining"] = waiting
        until = ctx.now + CONFIRM_FOR
        ctx.reply(
            "confirm",
            "confirm.txt",
            game=state,
            name=name,
            address=address,
            code=action["token"],
            until=until,
            approval=self.join_approval(state) == "gm",
        )

    @action("confirm")
    def on_confirm(self, state: GameState, action: ConfirmAction, ctx: Ctx) -> None:
        """The reply to a confirmation: the join it confirms goes ahead (or waits for the GM)."""
        address = str(action.get("address") or "").lower()
        waiting = self.fresh(state, "joining", ctx)
        mine = [e for e in waiting if e["address"] == address]
        entry = next((e for e in mine if e["token"] in (action.get("tokens") or ())), None)
        if entry is None:
            if mine:
                raise Refused("confirms_nothing_sent")
            if address in watchers(state):  # a watcher's second yes to the [Watch] they made
                raise Refused("watches_already", game=state["name"])
            raise Refused("no_join_waiting", address=address, days=CONFIRM_FOR.days)
        if action.get("consents") is False:
            raise Refused("reply_is_no_consent")
        join = dict(entry["join"])
        if self.join_approval(state) == "gm":
            self.game.players.check_join(state, join)
            state["joining"] = [e for e in waiting if e is not entry]
            held = [e for e in state.get("awaiting_gm") or [] if e["address"] != address]
            held.append({**entry, "confirmed": iso(ctx.now)})
            state["awaiting_gm"] = held
            ctx.ack(
                f"Your join as {join['name']} is confirmed. The GM of {state['name']} takes in "
                "each newcomer; you will get word by mail."
            )
            asks = f"to take over the seat of {join['seat']}" if join.get("seat") else "to join"
            ctx.alert(
                f"{join['name']} ({address}) asks {asks} {state['name']}: send [Approve] "
                f"{join['name']} to take them in, or on the host: `mailref player add`."
            )
            return
        self.check_joins_per_day(state, ctx)
        state["joining"] = [e for e in waiting if e is not entry]
        self.take_in(state, join, ctx)  # the variant's checks run again: a name may be taken now
        self.count_newcomer(state, ctx)

    @action("approve")
    def on_approve(self, state: GameState, action: OtherAction, ctx: Ctx) -> None:
        """The GM's [Approve] NAME takes in a confirmed join that waits for the GM."""
        held = state.get("awaiting_gm") or []
        want = str(action.get("name") or "").strip().lower()
        entry = next((e for e in held if e["join"]["name"].lower() == want), None)
        if entry is None:
            raise Refused(
                "no_join_to_approve",
                name=action.get("name"),
                waiting=[e["join"]["name"] for e in held],
            )
        state["awaiting_gm"] = [e for e in held if e is not entry]
        self.take_in(state, dict(entry["join"]), ctx)

    def take_in(self, state: GameState, join: dict[str, Any], ctx: Ctx) -> None:
        """A confirmed newcomer joins, or takes the open seat their [Takeover] names."""
        if join.get("seat"):
            self.game.substitutes.take_seat(state, join, ctx)
        else:
            # The game's own [Join] (BlogNomic bars a Wizard who left lately).
            self.game.actions["join"](self.game, state, join, ctx)

    def forget_join_requests(self, state: GameState, address: str) -> None:
        """An address that plays now (the admin added it) waits for nothing."""
        for key in ("joining", "awaiting_gm"):
            if state.get(key):
                state[key] = [e for e in state[key] if e["address"] != address.lower()]

    @staticmethod
    def join_approval(state: GameState) -> str:
        return str(state["parameters"].get("join_approval") or "auto")

    @staticmethod
    def fresh(state: GameState, key: str, ctx: Ctx) -> list[dict[str, Any]]:
        """The requests kept under KEY that can still be answered."""
        kept = cast(list[dict[str, Any]], state.get(key) or [])
        return [e for e in kept if (at := parse_iso(e["asked"])) and at + CONFIRM_FOR > ctx.now]

    def check_joins_per_day(self, state: GameState, ctx: Ctx) -> None:
        limit = int(state["parameters"].get("joins_per_day", self.game.defaults["joins_per_day"]))
        taken = state.get("taken") or {}
        if taken.get("day") == ctx.now.strftime("%Y-%m-%d") and taken.get("count", 0) >= limit:
            raise Refused("joins_per_day", game=state["name"], limit=limit, days=CONFIRM_FOR.days)

    @staticmethod
    def count_newcomer(state: GameState, ctx: Ctx) -> None:
        day = ctx.now.strftime("%Y-%m-%d")
        taken = state.get("taken") or {}
        state["taken"] = {
            "day": day,
            "count": (taken.get("count", 0) if taken.get("day") == day else 0) + 1,
        }
