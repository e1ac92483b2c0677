"""Who plays: players found by name or address, joining and rejoining, leaving, being
removed, absence. Held by the game as `players`; what follows a change of them is the game's
(its hooks `after_join`, `join_news`, `new_player_fields`, `before_leaving_order`,
`after_status_change`, declared on `Variant`)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol, cast

from mailref.engine.context import Ctx, Refused
from mailref.engine.state import Action, GameState, JoinAction, OtherAction, Player
from mailref.engine.variants.actions import Handler, action
from mailref.timeutil import iso

if TYPE_CHECKING:
    from mailref.engine.variants.absence import Absence
    from mailref.engine.variants.deadlines import Deadlines
    from mailref.engine.variants.joining import Consent
    from mailref.engine.variants.record import Record


class PlayersHost(Protocol):
    """What the players' comings and goings ask of the game: consent to join, absence, the
    record, how it words a deadline, its announcements, its own [Quit], and its hooks."""

    @property
    def actions(self) -> dict[str, Handler]: ...

    @property
    def consent(self) -> Consent: ...

    @property
    def absence(self) -> Absence: ...

    @property
    def record(self) -> Record: ...

    @property
    def deadlines(self) -> Deadlines: ...

    def event(self, state: GameState, ctx: Ctx, text: str) -> None: ...

    def announce(self, state: GameState, ctx: Ctx, subject: str, lines: list[str]) -> None: ...

    def new_player_fields(self, state: GameState, action: Action) -> dict[str, Any]: ...

    def after_join(self, state: GameState, player: Player, action: Action, ctx: Ctx) -> None: ...

    def before_leaving_order(self, state: GameState, player: Player, ctx: Ctx) -> None: ...

    def after_status_change(self, state: GameState, player: Player, ctx: Ctx) -> None: ...


class Players:
    """Players and their comings and goings."""

    def __init__(self, game: PlayersHost) -> None:
        self.game = game

    @staticmethod
    def player(state: GameState, name: str) -> Player | None:
        want = name.strip().lower()
        return next((p for p in state["players"] if p["name"].lower() == want), None)

    @staticmethod
    def by_address(state: GameState, address: str) -> Player | None:
        a = address.lower()
        return next(
            (p for p in state["players"] if a in p["addresses"] and p["status"] != "left"), None
        )

    @staticmethod
    def same_name(state: GameState, name: str, keys: list[str]) -> Player | None:
        """The player whose name is NAME or folds to one of KEYS (look-alike letters)."""
        want = set(keys) | {name.lower()}
        return next(
            (
                p
                for p in state["players"]
                if want & (set(p.get("name_keys") or []) | {p["name"].lower()})
            ),
            None,
        )

    def must_player(self, state: GameState, name: str) -> Player:
        p = self.player(state, name)
        if p is None or p["status"] == "left":
            raise Refused(
                "no_player",
                name=name,
                players=[q["name"] for q in state["players"] if q["status"] != "left"],
            )
        return p

    @staticmethod
    def active(state: GameState) -> list[Player]:
        return [p for p in state["players"] if p["status"] == "active"]

    @staticmethod
    def present(state: GameState) -> list[Player]:
        return [p for p in state["players"] if p["status"] != "left"]

    def tell_away_voter(self, state: GameState, name: str, ctx: Ctx, otherwise: str = "") -> None:
        """An away player's ballot counts as cast; their ack says so, once a mail, and what
        OTHERWISE would have been counted for them."""
        p = self.player(state, name)
        line = "You are away, and your vote counts all the same" + (
            f": it stands in place of {otherwise}." if otherwise else "."
        )
        if p and p["status"] == "away" and line not in ctx.ack_lines:
            ctx.ack(line)

    def holder(self, state: GameState, office: str) -> Player | None:
        return next(
            (p for p in state["players"] if office in p["offices"] and p["status"] != "left"), None
        )

    @action("join")
    def on_join(self, state: GameState, action: Action, ctx: Ctx) -> None:
        """A [Join] by mail (it carries a `token`) asks the address first (SPEC §2.3): the
        player exists once the confirmation is answered. An admin's join, and a join journaled
        before confirmations, takes the player in at once."""
        if action.get("token") and not action.get("by"):
            self.game.consent.ask(state, cast("JoinAction", action), ctx)
            return
        self.admit(state, action, ctx)

    def check_join(self, state: GameState, action: Mapping[str, Any]) -> str:
        """The name ACTION joins under, or the refusal of a join that cannot be."""
        name = " ".join(str(action.get("name") or "").split())
        address = action["address"].lower()
        if not name or not re.fullmatch(r"[\w][\w .'\-]{0,39}", name):
            # The hint names exactly what the pattern above takes.
            raise Refused("bad_player_name", name=name)
        known = self.by_address(state, address)
        if known:
            raise Refused("address_plays_already", address=address, name=known["name"])
        keys = action.get("name_keys") or [name.lower()]
        old = self.same_name(state, name, keys)
        if old and old["status"] != "left":
            looks = "" if old["name"].lower() == name.lower() else old["name"]
            raise Refused("name_taken", name=name, looks_like=looks)
        if old and address not in old["addresses"] and not action.get("by"):
            # A name stays its holder's after they leave: only they (or an admin) bring it back.
            raise Refused("name_of_one_who_left", name=name, owner=old["name"])
        return name

    def admit(self, state: GameState, action: Action, ctx: Ctx) -> None:
        """Take in the player ACTION names (a confirmed or approved join, or the admin's)."""
        name = self.check_join(state, action)
        join = cast("Mapping[str, Any]", action)  # a join, or an admin's player_add
        address = join["address"].lower()
        self.game.consent.forget_join_requests(state, address)
        keys = join.get("name_keys") or [name.lower()]
        old = self.same_name(state, name, keys)
        player: Player
        if old:  # a returning player keeps their record but starts afresh, as a newcomer does
            fields = self.game.new_player_fields(state, action)
            # Sidekick rule 19: "This includes players that join after the game has begun": 0
            # points.
            old.update(
                {
                    "status": "active",
                    "addresses": list(
                        dict.fromkeys(
                            [address]
                            + old["addresses"]
                            + [a for a in join.get("more", []) if a != address]
                        )
                    ),
                    "score": 0,
                    "rejoined": iso(ctx.now),
                }
            )
            old.update(cast("Player", fields))
            player = old
        else:
            player = {
                "name": name,
                "addresses": [address] + [a.lower() for a in join.get("more", [])],
                "status": "active",
                "score": 0,
                "offices": [],
                "joined": iso(ctx.now),
                "name_keys": keys,
            }
            player.update(cast("Player", self.game.new_player_fields(state, action)))
            state["players"].append(player)
        # Logged before what the join sets off, so the digest lists "Bob joined" above
        # "Turn order drawn: Alice, Bob".
        self.game.event(state, ctx, f"{name} joined.")
        self.game.after_join(state, player, action, ctx)
        ctx.ack(f"{name} joined {state['name']} ({', '.join(player['addresses'])}).")

    @action("player_add")
    def on_player_add(self, state: GameState, action: Action, ctx: Ctx) -> None:
        sent = len(ctx.out)
        self.on_join(state, action, ctx)
        self.welcome_added(state, action, ctx, sent)

    def welcome_added(self, state: GameState, action: Action, ctx: Ctx, sent: int) -> None:
        """A player the admin added (`mailref player add`) learns it in one mail of their own,
        since the join's answer goes to the admin's terminal: their addresses, their place in the
        turn order, how to play, and the news the others are told (once, in this mail)."""
        p = self.by_address(state, cast("JoinAction", action)["address"])
        if p is None:
            return
        lines = [
            f"Your address{'es' if len(p['addresses']) > 1 else ''} here: "
            f"{', '.join(p['addresses'])}."
        ]
        if p["name"] in state.get("order") or []:
            lines.append(
                f"You are at place {state['order'].index(p['name']) + 1} of the turn order: "
                f"{', '.join(state['order'])}."
            )
        others = [q["name"] for q in self.present(state) if q["name"] != p["name"]]
        for o in ctx.out[sent:]:
            if (
                o.to == "all"
            ):  # the others' announcement; its news (a turn order drawn) goes in the welcome
                o.to = others
                said = [
                    x
                    for x in o.vars.get("lines", [])
                    if x != f"{p['name']} has joined {state['name']}."
                ]
                if (
                    said
                ):  # Eire's "Maeve of the Plainsmen, Red, rises in Donal.", a turn order drawn
                    lines += ["", *said]
        lines += [
            "",
            f"Write to {state['address']}: send [Help] for the commands, [Rules] for the rules, "
            "[Status] for the game's state.",
        ]
        ctx.send(
            "announcement",
            [p["name"]],
            f"Welcome to {state['name']}",
            "notice.txt",
            game=state,
            heading=f"{p['name']}, the admin has added you to {state['name']}.",
            lines=lines,
        )

    @action("quit")
    def on_quit(self, state: GameState, action: Action, ctx: Ctx) -> None:
        p = self.must_player(state, _named(action))
        p["status"], p["left_at"] = "left", iso(ctx.now)
        for office in list(p["offices"]):
            p["offices"].remove(office)
        if p["name"] in state["order"]:
            self.game.before_leaving_order(state, p, ctx)
            state["order"].remove(p["name"])
        ctx.ack(f"{p['name']} has left {state['name']}.")
        self.game.event(state, ctx, f"{p['name']} left the game.")
        self.game.announce(
            state, ctx, f"{p['name']} leaves the game", [f"{p['name']} has left the game."]
        )
        self.game.after_status_change(state, p, ctx)

    @action("player_remove")
    def on_player_remove(self, state: GameState, action: Action, ctx: Ctx) -> None:
        # The game's own [Quit]: an orders game withdraws the orders, Eire frees the lands.
        self.game.actions["quit"](self.game, state, action, ctx)
        self.tell_removed(state, action, ctx)

    def tell_removed(self, state: GameState, action: Action, ctx: Ctx) -> None:
        """The admin removed a player: the others read "X leaves the game", and X is told of the
        removal and its reason in a mail of their own, as a [Quit] is answered."""
        p = self.player(state, _named(action))  # left now: must_player would not find them
        if p is None:
            return
        ctx.send(
            "announcement",
            [p["name"]],
            "You have been removed from the game",
            "notice.txt",
            game=state,
            heading=f"{p['name']}, the admin has removed you from {state['name']}.",
            lines=[
                f"Reason: {action.get('reason') or 'none given'}.",
                "Mail from you to this game is no longer acted on; write to the GM "
                f"({state.get('gm') or 'the admin'}) if this is a mistake.",
            ],
        )

    @action("away")
    def on_away(self, state: GameState, action: Action, ctx: Ctx) -> None:
        if action.get("dates"):  # "[Away] until 6 Jan": variants/absence.py
            self.game.absence.away_dated(state, cast("OtherAction", action), ctx)
            return
        self.set_away(state, action, ctx, "away")

    @action("back")
    def on_back(self, state: GameState, action: Action, ctx: Ctx) -> None:
        self.set_away(state, action, ctx, "active")

    @action("player_status")
    def on_player_status(self, state: GameState, action: Action, ctx: Ctx) -> None:
        self.set_away(state, action, ctx, cast("OtherAction", action)["status"])

    def whose_absence(self, state: GameState, action: Action) -> Player:
        """The player ACTION sets away or back: the sender, or the one an admin names."""
        p = self.must_player(state, str(action.get("name") or "") or _named(action))
        if (
            action.get("player")
            and action.get("name")
            and p["name"] != action["player"]
            and not action.get("by")
        ):
            raise Refused("only_of_yourself", name=p["name"])
        return p

    def set_away(self, state: GameState, action: Action, ctx: Ctx, status: str) -> None:
        p = self.whose_absence(state, action)
        word = {"away": "away", "active": "back", "idle": "idle"}[status]
        # Away or back by hand ends any dated absence, set or still ahead.
        planned = p.pop("away_from", None)
        p.pop("away_until", None)
        if p["status"] == status:
            if planned:
                ctx.ack(
                    f"The absence set for {self.game.deadlines.when(state, planned)} is cancelled."
                )
            ctx.ack(f"{p['name']} is already {word}; nothing changed.")
            return
        self.change_status(state, p, ctx, status)

    def change_status(
        self, state: GameState, p: Player, ctx: Ctx, status: str, text: str = ""
    ) -> None:
        """P becomes STATUS: the ack, the log, everybody told (TEXT, else the usual words)."""
        word = {"away": "away", "active": "back", "idle": "idle"}[status]
        p["status"] = status
        self.game.record.status_changed(state, p, ctx)
        ctx.ack(f"{p['name']} is now {word}.")
        self.game.event(state, ctx, f"{p['name']} is {word}.")
        text = text or (
            f"{p['name']} is away."
            if status == "away"
            else f"{p['name']} has returned."
            if status == "active"
            else f"{p['name']} is {word}."
        )
        self.game.announce(state, ctx, text, [text])
        self.game.after_status_change(state, p, ctx)


def _named(action: Action) -> str:
    """The player ACTION is by or names (`player`, set for every player's action)."""
    return cast("OtherAction", action)["player"] or ""
