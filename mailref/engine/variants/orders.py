"""Any orders game the GM adjudicates: bold orders collected per turn, one digest of all
of them to the GM at the deadline, and the GM's [Results] mail opening the next turn."""

from __future__ import annotations

from typing import Any

from mailref.engine.context import Ctx, Refused
from mailref.engine.state import GameState, OtherAction
from mailref.engine.variants import rule_tables
from mailref.engine.variants.actions import action
from mailref.engine.variants.turns import OrdersGame, open_turn, orders_game, orders_of
from mailref.timeutil import iso


class Orders(OrdersGame):
    name = "orders"
    title = "Orders game"
    parameter_table = rule_tables.ORDERS
    commands = [
        ("[Join]", "with a body line `Name: YourName`, while the game is forming"),
        ("[Orders]", "your orders for this turn: every bold sentence is one order"),
        (
            "[Results]",
            "the GM's results of a turn (from the GM's address): sent to all, the next turn opens",
        ),
        ("[Status], [Rules], [Help], [Quit]", "the state, the game's parameters, this text, leave"),
        ("[Away] / [Back]", "absence, and the return from it"),
        ("[Roll] d6", "a die roll, announced"),
        ("[Press] to NAME, NAME", "words to those players (or to all), copied to the GM"),
        ("[Draw] / [Concede] to NAME", "propose an end shared (or to NAME); all vote by Reply"),
    ]

    def read_orders(
        self, state: GameState, player: str, sentences: list[str], earlier: list[dict[str, Any]]
    ) -> tuple[list[dict[str, Any]], list[tuple[str, str]]]:
        return [{"kind": "free", "text": s} for s in sentences], []

    def resolve_turn(self, state: GameState, ctx: Ctx, why: str, late: str = "") -> None:
        t = open_turn(state)
        t["deadline"], t["closed"], t["awaiting_results"] = None, iso(ctx.now), True
        lines = [f"Turn {t['number']} is closed ({why}). The orders, for you to adjudicate:"] + (
            [late] if late else []
        )
        for name in self.active_names(state):
            lines.append("")
            got = orders_of(state).get(name)
            lines.append(f"{name}:" + ("" if got else " no orders"))
            for o in (got or {}).get("orders", []):
                lines.append(f"  {o['text']}")
            for text, why in (got or {}).get("rejected", []):
                lines.append(f"  refused: {text} — {why}")
        lines += [
            "",
            "Send the results as a mail with the subject [Results] from the GM address (a plain "
            "Reply "
            "to this mail will do); it goes to every player and opens the next turn.",
        ]
        self.event(state, ctx, f"Turn {t['number']} closed ({why}); orders sent to the GM.")
        ctx.send(
            "digest",
            "gm",
            f"[Turn {t['number']}] Orders of all players",
            "notice.txt",
            game=state,
            heading=f"Orders for turn {t['number']} of {state['name']}",
            lines=lines,
        )
        closed = [f"Turn {t['number']} is closed; the GM is adjudicating."]
        missing = [n for n in self.active_names(state) if n not in orders_of(state)]
        if late_ones := (missing if why == "the deadline passed" else []):
            # Those who sent nothing hear that the turn went on without them (kind `late`), once.
            self.announce(
                state,
                ctx,
                f"[Turn {t['number']}] Orders are in",
                closed,
                to=[p["name"] for p in self.players.present(state) if p["name"] not in late_ones],
            )
            ctx.send(
                "late",
                late_ones,
                f"[Turn {t['number']}] Your orders did not arrive",
                "notice.txt",
                game=state,
                heading=f"No orders of yours arrived for turn {t['number']} before its deadline.",
                lines=[
                    *closed,
                    "The GM adjudicates it without orders from you; the next turn's mail comes "
                    "with the results.",
                ],
            )
            return
        self.announce(state, ctx, f"[Turn {t['number']}] Orders are in", closed)

    @action("results")
    def on_results(self, state: GameState, action: OtherAction, ctx: Ctx) -> None:
        gm = (state.get("gm") or "").lower()
        if not gm or action["address"].lower() != gm:
            raise Refused("only_gm_posts_results")
        t = state["turn"]
        if state["status"] != "active" or not t:
            raise Refused("no_turn_awaits_results")
        number = t["number"]
        orders_game(state)["history"].append(
            {"turn": number, "orders": orders_of(state), "results": action["text"]}
        )
        ctx.ack(f"Results of turn {number} sent to every player; turn {number + 1} opens.")
        self.event(state, ctx, f"The GM posted the results of turn {number}.")
        # "[Results] Turn 1" from the GM is titled by its turn alone: not "Turn 1: Turn 1".
        title = (
            ""
            if action["title"].strip(" .:-").lower() in ("", f"turn {number}")
            else action["title"]
        )
        ctx.send(
            "results",
            "all",
            f"[Results] Turn {number}" + (f": {title}" if title else ""),
            "notice.txt",
            game=state,
            heading=f"Results of turn {number}",
            lines=action["text"].splitlines(),
        )
        self.begin_turn(state, ctx, number + 1)
