"""Simultaneous-orders games: players join while the game is forming; each turn collects
bold orders (private until resolution) until the deadline, or until every active player
has ordered; then the variant resolves the turn."""

from __future__ import annotations

import textwrap
from datetime import datetime
from typing import Any, cast

from mailref.engine.context import Ctx, Refused
from mailref.engine.orders import order_like
from mailref.engine.state import Action, GameState, OrdersAction, OrdersState, Player, Turn
from mailref.engine.variants import rule_tables
from mailref.engine.variants.actions import action
from mailref.engine.variants.agreed_end import AgreedEnd
from mailref.engine.variants.base import Variant
from mailref.engine.variants.components import Held
from mailref.engine.variants.dice import committed_line
from mailref.engine.variants.press import Press
from mailref.timeutil import iso, parse_iso


def orders_game(state: GameState) -> OrdersState:
    """The state of an orders game, with this turn's orders and the turns resolved (every
    orders game's `initial_state` below begins them)."""
    return cast(OrdersState, state)


def orders_of(state: GameState) -> dict[str, dict[str, Any]]:
    """This turn's orders, by player."""
    return orders_game(state)["orders"]


def open_turn(state: GameState) -> Turn:
    """The turn in play: a game that has started has one."""
    t = state["turn"]
    if t is None:
        raise RuntimeError(f"{state['name']} has no turn")
    return t


class OrdersGame(Variant):
    nomic = False
    parameter_table = rule_tables.ORDERS_GAME
    min_players = 1
    press = Held(Press)
    agreed_end = Held(AgreedEnd)

    def initial_state(self, *args: Any, **kw: Any) -> GameState:
        state = orders_game(super().initial_state(*args, **kw))
        state["orders"], state["history"] = {}, []
        return state

    def not_a_command(self, state: GameState, tag: str) -> Refused:
        if tag != "withdraw":
            return super().not_a_command(state, tag)
        # A player withdrawing here means their orders: say what this game's orders_final allows.
        final = state["parameters"]["orders_final"]
        return Refused("no_withdrawal_of_orders", game=state["name"], final=final)

    def active_names(self, state: GameState) -> list[str]:
        return [p["name"] for p in self.players.active(state)]

    @action("start")
    def on_start(self, state: GameState, action: Action, ctx: Ctx) -> None:
        if state["status"] != "forming":
            raise Refused("game_not_forming", status=state["status"])
        if len(self.players.active(state)) < self.min_players:
            raise Refused("too_few_to_start", least=self.min_players)
        state["status"] = "active"
        ctx.ack(f"{state['name']} starts with {', '.join(self.active_names(state))}.")
        self.event(state, ctx, "The game started.")
        self.begin_turn(state, ctx, 1)

    def begin_turn(self, state: GameState, ctx: Ctx, number: int) -> None:
        deadline = ctx.now + self.deadlines.duration(state, "turn_length")
        state["turn"] = {
            "number": number,
            "deadline": iso(deadline),
            "started": iso(ctx.now),
            "reminded": False,
        }
        orders_game(state)["orders"] = {}
        self.event(
            state,
            ctx,
            f"Turn {number} opens; orders are due {self.deadlines.when(state, deadline)}.",
        )
        self.send_turn(state, ctx, "all")

    def send_turn(self, state: GameState, ctx: Ctx, to: list[str] | str) -> None:
        """The turn mail: the state of play, and what to send by when."""
        number, deadline = open_turn(state)["number"], open_turn(state)["deadline"]
        ctx.send(
            "turn",
            to,
            f"[Turn {number}] Orders are due {self.deadlines.when(state, deadline)}",
            "notice.txt",
            opens=True,
            game=state,
            heading=f"Turn {number} of {state['name']} is open.",
            lines=[
                *self.turn_lines(state),
                *([""] if self.turn_lines(state) else []),
                "Send your orders in a mail with the subject [Orders] before "
                f"{self.deadlines.when(state, deadline, ctx)}.",
                "Only bold text is read as orders; everything else is chatter. In a plain-text "
                f"mail, write bold with two stars on each side, {self.example_order}, or as "
                "[b]…[/b].",
                *([""] + committed_line(ctx) if ctx.dice else []),
            ],
        )

    def after_join(self, state: GameState, player: Player, action: Action, ctx: Ctx) -> None:
        super().after_join(state, player, action, ctx)
        self.tell_newcomer_the_turn(state, player, ctx)

    def tell_newcomer_the_turn(self, state: GameState, player: Player, ctx: Ctx) -> None:
        """One who joins while a turn is open may order in it: they get its turn mail, which the
        others had when it opened."""
        t = state["turn"]
        if state["status"] == "active" and t and t.get("deadline"):
            self.send_turn(state, ctx, [player["name"]])

    # How an order looks in this game, for the hint of a mail without one (Eire's own form;
    # a GM-adjudicated game takes any bold sentence).
    example_order = "**Your order, in bold.**"

    def turn_lines(self, state: GameState) -> list[str]:
        return []

    def orders_not_bold(self, lines: list[str], bold: list[str]) -> list[str]:
        """The lines of a mail outside its bold text that look like orders (engine/orders.py)."""
        return order_like(lines, bold, eire=False)

    # ---- orders ------------------------------------------------------------------
    @action("orders")
    def on_orders(self, state: GameState, action: OrdersAction, ctx: Ctx) -> None:
        name = str(action["player"])  # the handler names the sender
        t = state["turn"]
        if state["status"] == "active" and t and t.get("closed") and not t.get("deadline"):
            # Late: the turn closed at its deadline and the GM is adjudicating it.
            raise Refused(
                "orders_too_late", turn=t["number"], closed=self.deadlines.when(state, t["closed"])
            )
        if state["status"] != "active" or not state["turn"] or not state["turn"].get("deadline"):
            raise Refused("no_turn_open", forming=state["status"] == "forming")
        p = self.players.must_player(state, name)
        sentences = action.get("sentences") or []
        if p["status"] != "active":
            raise Refused("only_active_order")
        loose = self.orders_not_bold(action.get("loose") or [], sentences)
        if not sentences:
            raise Refused("no_bold_orders", loose=loose, example=self.example_order)
        had = orders_of(state).get(name)
        mode = state["parameters"]["orders_final"]
        # A refused order does not count as sent (SPEC §3.3): while the last mail had one,
        # the author may send the missing orders, added to those accepted, even where orders
        # are final.
        correcting = bool(had and had.get("missing"))
        if had is not None and mode == "refuse" and not correcting:

            def words(x: str) -> str:
                return " ".join(x.split()).rstrip(".").lower()

            if [words(x) for x in sentences] == [words(o["text"]) for o in had["orders"]]:
                # The same mail sent again (Send pressed twice, a second account): nothing is lost.
                raise Refused("orders_sent_again", at=self.deadlines.when(state, had["at"]))
            raise Refused("orders_are_final")
        base = had["orders"] if had and (mode == "add" or correcting and mode == "refuse") else []
        accepted, rejected = self.read_orders(state, name, sentences, base)
        orders_of(state)[name] = {
            "orders": base + accepted,
            "rejected": (had["rejected"] if had else []) + [[t, why] for t, why in rejected],
            "missing": [t for t, _ in rejected],
            "at": iso(ctx.now),
        }
        verb = {"add": "added to", "replace": "replacing"}.get(mode, "added to") if had else "as"
        ctx.ack(
            f"Orders for turn {state['turn']['number']} recorded, {verb} your earlier ones, as I "
            "read them:"
            if had
            else f"Orders for turn {state['turn']['number']} recorded, as I read them:"
        )
        for o in accepted:
            ctx.ack(f"  OK   {o['text']}" + (f" — {o['note']}" if o.get("note") else ""))
        for text, why in rejected:
            ctx.ack(f"  NOT  {text} — {why}")
        if base:  # a second mail: the whole set that now stands, so nobody has to add it up
            ctx.ack("")
            ctx.ack(
                f"Your orders for turn {state['turn']['number']} now: "
                + "; ".join(o["text"] for o in orders_of(state)[name]["orders"])
                + "."
            )
        if loose:
            ctx.ack("")
            for line in loose:
                ctx.ack(f'  Not bold, so not read as an order: "{line}" (in bold: **{line}**)')
        if rejected:
            ctx.ack("")
            which = (
                f"The {len(rejected)} refused orders marked NOT do"
                if len(rejected) > 1
                else "The refused order marked NOT does"
            )
            ctx.ack(
                f"{which} not count as sent: send the missing orders in another [Orders] mail "
                "before "
                f"{self.deadlines.when(state, state['turn']['deadline'], ctx)}; the turn waits "
                "for them."
            )
        self.event(
            state,
            ctx,
            f"{name} sent orders for turn {state['turn']['number']}"
            + (f" ({len(rejected)} refused, awaiting a correction)." if rejected else "."),
        )
        if all(self.has_ordered(state, n) for n in self.active_names(state)):
            self.close_turn(state, ctx, "every player has ordered")

    @action("quit")
    def on_quit(self, state: GameState, action: Action, ctx: Ctx) -> None:
        # Orders of one who leaves are not carried out (in Eire, an attack would take a land for
        # a player no longer in the game).
        p = self.players.must_player(state, str(action["player"]))
        if orders_of(state).pop(p["name"], None) is not None:
            whose = (
                f"{p['name']}'s orders" if action.get("by") else "Your orders"
            )  # `player remove`: the admin reads it
            ctx.ack(
                f"{whose} for turn {open_turn(state)['number']} are withdrawn: they are not "
                "carried out."
            )
        self.players.on_quit(state, action, ctx)

    def after_status_change(self, state: GameState, player: Player, ctx: Ctx) -> None:
        """The one player the turn waited for leaves or goes away: the others have all ordered,
        so the turn resolves now, as it would have on that player's orders (SPEC §5.4: "resolved
        early when all have ordered"), not at the deadline."""
        super().after_status_change(state, player, ctx)
        self.agreed_end.settle_open(state, ctx)  # the one survivor a draw waited for has left
        t = state["turn"]
        names = self.active_names(state)
        if (
            state["status"] == "active"
            and t
            and t.get("deadline")
            and names
            and all(self.has_ordered(state, n) for n in names)
        ):
            self.close_turn(state, ctx, "every player still in the game has ordered")

    @staticmethod
    def has_ordered(state: GameState, name: str) -> bool:
        """Sent orders, none of them refused in the last mail."""
        got = orders_of(state).get(name)
        return got is not None and not got.get("missing")

    def refused_orders(self, state: GameState) -> list[str]:
        """For the GM: the orders refused this turn, and whose correction the turn awaits."""
        out = []
        for name, got in sorted(orders_of(state).items()):
            for text, why in got.get("rejected", []):
                out.append(f"{name}: {text} — {why}")
            if got.get("missing"):
                out.append(f"{name}: may still send the missing orders before the deadline")
        return out

    def read_orders(
        self, state: GameState, player: str, sentences: list[str], earlier: list[dict[str, Any]]
    ) -> tuple[list[dict[str, Any]], list[tuple[str, str]]]:
        """(the orders taken, each a dict; the sentences refused, each (text, why))."""
        raise NotImplementedError

    # ---- timers ------------------------------------------------------------------
    def deadline_times(self, state: GameState, now: datetime) -> list[datetime]:
        t, ends = state["turn"], self.agreed_end.times(state)
        if state["status"] != "active" or not t or not (d := parse_iso(t.get("deadline"))):
            return ends
        return ends + (
            [d]
            if t.get("reminded")
            else [d, self.deadlines.reminder_at(state, d, t.get("started"))]
        )

    def fire_deadlines(self, state: GameState, ctx: Ctx) -> None:
        self.agreed_end.expire(state, ctx)
        t = state["turn"]
        if state["status"] != "active" or not t or not (d := parse_iso(t.get("deadline"))):
            return
        if ctx.now >= d:
            self.close_turn(state, ctx, "the deadline passed", self.deadlines.late_note(d, ctx))
            return
        if not t.get("reminded") and ctx.now >= self.deadlines.reminder_at(
            state, d, t.get("started")
        ):
            t["reminded"] = True
            missing = [n for n in self.active_names(state) if not self.has_ordered(state, n)]
            if missing:
                ctx.send(
                    "reminder",
                    missing,
                    f"[Turn {t['number']}] Reminder: orders are due "
                    f"{self.deadlines.when(state, t['deadline'])}",
                    "reminder.txt",
                    game=state,
                    what=f"your orders for turn {t['number']}",
                    verb="are",
                    deadline=self.deadlines.when(state, t["deadline"], ctx),
                    how="Reply to this mail with your orders, each in bold.",
                )

    def close_turn(self, state: GameState, ctx: Ctx, why: str, late: str = "") -> None:
        """The turn closes: each seat's record counts it, the variant resolves it, and a seat
        that missed `abandon_after` turns in a row opens to a substitute."""
        missing = [n for n in self.active_names(state) if not self.has_ordered(state, n)]
        self.record.turn_closed(state, missing)
        self.resolve_turn(state, ctx, why, late)
        self.substitutes.missed(state, missing, ctx)

    def resolve_turn(self, state: GameState, ctx: Ctx, why: str, late: str = "") -> None:
        raise NotImplementedError

    def late_players(
        self, state: GameState, now: datetime | None = None
    ) -> list[tuple[str, str | None]]:
        t = state["turn"]
        if state["status"] != "active" or not t or not t.get("deadline"):
            return []
        missing = [n for n in self.active_names(state) if not self.has_ordered(state, n)]
        return (
            [
                (
                    f"No orders yet for turn {t['number']} (due "
                    f"{self.deadlines.when(state, t['deadline'])}): {', '.join(missing)}",
                    t["deadline"],
                )
            ]
            if missing
            else []
        )

    def rules_told(self, state: GameState) -> list[str]:
        """How this game is played, for [Rules] and the rules page (an orders game has no rule list
        that proposals change): a first sentence, then points."""
        return [
            "The GM adjudicates every turn from the orders each player sent, and mails the results."
        ]

    def parameter_lines(self, state: GameState) -> list[str]:
        return [
            f"{k} = {self.parameter_table.shown(k, v)}"
            for k, v in sorted(state["parameters"].items())
        ]

    @action("rules")
    def on_rules(self, state: GameState, action: Action, ctx: Ctx) -> None:
        # [Rules] here listed an empty rule list and everybody's score of 0 (SPEC §2.5: "the current
        # ruleset"): say what governs the game instead, and the parameters the GM set.
        first, *points = self.rules_told(state)
        lines = [
            f"{state['name']} has no rule list that proposals change.",
            *textwrap.wrap(first, 100),
        ]
        for point in points:
            lines += textwrap.wrap(point, 100, initial_indent="- ", subsequent_indent="  ")
        lines += [
            "",
            "Its parameters (the GM sets them by mail with [Set] KEY=VALUE, or on the host "
            "with `mailref game set`):",
            *("  " + line for line in self.parameter_lines(state)),
        ]
        ctx.reply(
            "ruleset",
            "notice.txt",
            game=state,
            heading=f"The rules of {state['name']}",
            lines=lines,
        )

    def status_lines(self, state: GameState, ctx: Ctx | None = None) -> list[str]:
        # Not the Nomic lines: no scores, no mover ("Turn 5: -"), no proposals.
        lines = [
            f"Status: {state['status']}",
            "Players: "
            + ", ".join(
                p["name"] + ("" if p["status"] == "active" else f" ({p['status']})")
                for p in self.players.present(state)
            ),
        ]
        t = state["turn"]
        if t and t.get("deadline"):
            lines.append(
                f"Turn {t['number']}: orders are due "
                f"{self.deadlines.when(state, t['deadline'], ctx)}"
            )
        elif t and t.get("closed"):
            lines.append(
                f"Turn {t['number']}: closed {self.deadlines.when(state, t['closed'])}; the GM is "
                "adjudicating it"
            )
        if state["winners"]:
            lines.append("Winners: " + ", ".join(state["winners"]))
        lines += self.agreed_end.status_line(state, ctx)
        if (
            t and t.get("deadline") and state["status"] == "active"
        ):  # not "nobody yet" once it is closed
            have = sorted(n for n in orders_of(state) if self.has_ordered(state, n))
            lines.append(f"Orders received this turn from: {', '.join(have) or 'nobody yet'}")
        return lines
