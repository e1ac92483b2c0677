"""Substitutes: a seat whose player is gone is marked open (the GM's `[Vacate] NAME` or
`mailref player vacate`, or the game itself after `abandon_after` turns missed in a row), and a
newcomer's `[Takeover] NAME`, confirmed by reply as a join is (variants/joining.py) and approved
by the GM where joins are, takes the seat with its holdings and score. The deadline running then
moves once by `takeover_extension`; the seat keeps each tenure (who held it, from when to when)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from mailref.engine.context import Ctx, Refused
from mailref.engine.state import GameState, Matter, OtherAction, Player, Turn
from mailref.engine.variants.actions import action
from mailref.engine.variants.joining import CONFIRM_FOR
from mailref.timeutil import format_duration, iso, parse_duration, parse_iso

# What the holder of a vacant seat may still ask: nothing that plays the seat.
READ_ONLY = frozenset({"status", "rules", "help", "history", "stats"})

if TYPE_CHECKING:
    from mailref.engine.variants.deadlines import Deadlines
    from mailref.engine.variants.players import Players


class SubstitutesHost(Protocol):
    """What substitutes ask of the game: its players, its checks of a join, the deadline
    running now, and its words and announcements."""

    @property
    def players(self) -> Players: ...

    def parameter(self, state: GameState, name: str) -> object: ...

    def current_deadline_holder(self, state: GameState) -> Turn | Matter | None: ...

    def after_status_change(self, state: GameState, player: Player, ctx: Ctx) -> None: ...

    @property
    def deadlines(self) -> Deadlines: ...

    def event(self, state: GameState, ctx: Ctx, text: str) -> None: ...

    def announce(self, state: GameState, ctx: Ctx, subject: str, lines: list[str]) -> None: ...


def holder(seat: Player) -> str:
    """Who holds SEAT now: its last tenure's holder, else the one who joined as it."""
    tenures = seat.get("tenures") or []
    return str(tenures[-1]["holder"]) if tenures else seat["name"]


def tenures(seat: Player) -> list[dict[str, Any]]:
    """Each holder of SEAT with the time they held it (`to` None: holds it now)."""
    return seat.get("tenures") or [
        {
            "holder": seat["name"],
            "address": seat["addresses"][0],
            "from": seat.get("rejoined") or seat["joined"],
            "to": None,
        }
    ]


class Substitutes:
    """Open seats (`vacant` on the player) and the newcomers who take them over."""

    def __init__(self, game: SubstitutesHost) -> None:
        self.game = game

    @action("vacate")
    def on_vacate(self, state: GameState, action: OtherAction, ctx: Ctx) -> None:
        """The GM marks NAME's seat open to a [Takeover]."""
        seat = self.game.players.must_player(state, str(action.get("name") or ""))
        if seat.get("vacant"):
            raise Refused("seat_open_already", name=seat["name"])
        self.vacate(state, seat, ctx, "the GM opened it")
        ctx.ack(f"The seat of {seat['name']} is open: [Takeover] {seat['name']} takes it.")

    def vacate(self, state: GameState, seat: Player, ctx: Ctx, why: str) -> None:
        """SEAT is open from now: its holder's tenure ends and the game no longer waits for it."""
        kept = tenures(seat)
        kept[-1] = {**kept[-1], "to": iso(ctx.now)}
        seat["tenures"] = kept
        seat["vacant"] = iso(ctx.now)
        seat["status"] = "away"
        text = f"The seat of {seat['name']} is open ({why})."
        self.game.event(state, ctx, text)
        self.game.announce(
            state,
            ctx,
            f"The seat of {seat['name']} is open",
            [
                text,
                f"Anyone not playing may take it over, with its holdings and score: send "
                f"[Takeover] {seat['name']} to {state['address']}.",
            ],
        )
        # The game's mail stops reaching the one who held it (outgoing.py): this says so, once.
        ctx.send(
            "announcement",
            [seat["addresses"][0]],
            f"Your seat of {seat['name']} is open",
            "notice.txt",
            game=state,
            heading="",
            lines=[
                text,
                "The game's mail no longer comes to you; [Status], [Rules], [History] and "
                "[Stats] still answer.",
            ],
        )
        self.game.after_status_change(state, seat, ctx)

    @action("takeover")
    def on_takeover(self, state: GameState, action: OtherAction, ctx: Ctx) -> None:
        """A newcomer's [Takeover] NAME: answered with a confirmation to their address, as a
        join is; the reply to it (and the GM's [Approve] where joins wait for it) seats them."""
        seat = self.open_seat(state, str(action.get("seat") or ""))
        given: dict[str, Any] = dict(action)
        join: dict[str, Any] = {k: given[k] for k in ("name", "address", "name_keys") if k in given}
        name = self.game.players.check_join(state, {**join, "type": "join"})
        address = str(action.get("address") or "").lower()
        waiting = [e for e in state.get("joining") or [] if e["address"] != address]
        asked: dict[str, Any] = {"type": "join", **join, "name": name, "seat": seat["name"]}
        waiting.append(
            {"address": address, "token": action["token"], "asked": iso(ctx.now), "join": asked}
        )
        state["joining"] = waiting
        ctx.reply(
            "confirm",
            "takeover_confirm.txt",
            game=state,
            name=name,
            seat=seat["name"],
            address=address,
            code=action["token"],
            until=ctx.now + CONFIRM_FOR,
            confirm_subject=f"[Confirm] Take over {seat['name']} in {state['name']} as {name}",
            approval=state["parameters"].get("join_approval") == "gm",
        )

    def open_seat(self, state: GameState, name: str) -> Player:
        seat = self.game.players.player(state, name)
        if seat is None or seat["status"] == "left" or not seat.get("vacant"):
            raise Refused(
                "no_open_seat",
                name=name,
                open=[p["name"] for p in state["players"] if p.get("vacant")],
            )
        return seat

    def take_seat(self, state: GameState, join: dict[str, Any], ctx: Ctx) -> None:
        """The confirmed (and approved) newcomer of JOIN holds the seat it names from now."""
        seat = self.open_seat(state, str(join["seat"]))
        name = self.game.players.check_join(state, join)
        address = str(join["address"]).lower()
        seat["tenures"] = [
            *tenures(seat),
            {"holder": name, "address": address, "from": iso(ctx.now), "to": None},
        ]
        seat["addresses"] = [address]
        seat["status"] = "active"
        del seat["vacant"]
        lines = [
            f"{name} has taken over the seat of {seat['name']}, with its holdings and score.",
            f"Mail to and from {seat['name']} is {name}'s from now on.",
        ]
        if moved := self.extend(state, ctx):
            lines.append(moved)
        self.game.event(state, ctx, f"{name} took over the seat of {seat['name']}.")
        self.game.announce(state, ctx, f"{name} takes over the seat of {seat['name']}", lines)
        ctx.ack(
            f"You hold the seat of {seat['name']} in {state['name']} now: the game's mail to "
            f"{seat['name']} comes to you, and your mail plays it."
        )
        # An orders game sends the newcomer the open turn's mail, as it does a late join.
        tell = getattr(self.game, "tell_newcomer_the_turn", None)
        if tell is not None:
            tell(state, seat, ctx)

    def extend(self, state: GameState, ctx: Ctx) -> str:
        """The deadline running now moves by `takeover_extension`, once however many seats
        are taken over before it; the line that says so, or none."""
        target = self.game.current_deadline_holder(state)
        length = parse_duration(str(self.game.parameter(state, "takeover_extension")))
        due = parse_iso(target.get("deadline")) if target else None
        if target is None or due is None or not length or target.get("takeover_extended"):
            return ""
        target["deadline"] = iso(due + length)
        target["takeover_extended"] = True
        return (
            f"The deadline moves once, by {format_duration(length)}, to "
            f"{self.game.deadlines.when(state, target['deadline'], ctx)}."
        )

    def missed(self, state: GameState, names: list[str], ctx: Ctx) -> None:
        """NAMES missed the turn that closed; a seat missing `abandon_after` in a row opens."""
        most = int(str(self.game.parameter(state, "abandon_after") or 0))
        for p in state["players"]:
            if p["status"] != "active":
                continue
            if p["name"] not in names:
                p.pop("missed_in_a_row", None)
                continue
            p["missed_in_a_row"] = p.get("missed_in_a_row", 0) + 1
            if most and p["missed_in_a_row"] >= most and state["status"] == "active":
                del p["missed_in_a_row"]
                self.vacate(state, p, ctx, f"{most} turns in a row passed without its orders")

    @staticmethod
    def check_holder(state: GameState, action: Any) -> None:
        """The one who left an open seat no longer plays it (its mail reads the game only)."""
        if action.get("by") or action["type"] in READ_ONLY:
            return
        name = str(action.get("player") or "").lower()
        seat = next((p for p in state["players"] if p["name"].lower() == name), None)
        if seat is not None and seat.get("vacant"):
            raise Refused("seat_is_open", name=seat["name"])
