"""Eire (seed 001), fully adjudicated: Grain, Defend / Invest / Attack, d10 combat drawn from
the game's journaled random source, tribes and their perks, High King, Dominion and
Communion. Every gap in the text is a house rule and a parameter (docs/games/eire.md)."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from mailref import resource
from mailref.engine.context import Ctx, Refused
from mailref.engine.orders import Order, fold, order_like, read_eire_orders
from mailref.engine.state import Action, GameState, Player
from mailref.engine.variants import rule_tables
from mailref.engine.variants.actions import action
from mailref.engine.variants.components import Held
from mailref.engine.variants.eire_resolution import EireResolution, eire_game
from mailref.engine.variants.preview import Preview
from mailref.engine.variants.turns import OrdersGame

COLORS = ["Red", "Gold", "Green", "Cyan", "Orange", "Silver", "Purple", "White", "Teal", "Lavender"]
TRIBES = {"plainsmen": "Plainsmen", "merfolk": "Merfolk", "woodkin": "Woodkin", "sidhe": "Sidhe"}


def load_map() -> list[dict]:
    return json.loads((resource("data") / "eire_map.json").read_text())["lands"]


class Eire(OrdersGame):
    adjudication = Held(EireResolution)
    preview = Held(Preview)

    name = "eire"
    title = "Eire"
    min_players = 2
    example_order = "**Defend Donal with 5 Grain.**"
    parameter_table = rule_tables.EIRE
    commands = [
        (
            "[Join]",
            "body lines `Name: …`, `Color: …`, `Tribe: Plainsmen|Merfolk|Woodkin|Sidhe`, `Origin: "
            "LAND`",
        ),
        (
            "[Orders]",
            "bold orders: Defend LAND with N Grain / Invest N Grain in LAND / Attack LAND with N "
            "Grain / Declare High King",
        ),
        (
            "[Status], [Rules], [Help], [Quit]",
            "the map, your Grain and the turn; the rules and parameters; this text; leave",
        ),
        ("[Away] / [Back]", "absence, and the return from it"),
        ("[Roll] d6", "a die roll, announced"),
        ("[Press] to NAME, NAME", "words to those players (or to all), copied to the GM"),
        ("[Draw] / [Concede] to NAME", "propose an end shared (or to NAME); all vote by Reply"),
        (
            "[Publish]",
            "the GM, with gm_preview=on: send the turn's results the GM has seen to every player",
        ),
    ]

    def initial_state(self, *args: Any, **kw: Any) -> GameState:
        state = eire_game(super().initial_state(*args, **kw))
        state["lands"] = [
            {
                "name": m["name"],
                "type": m["type"],
                "coast": m["coast"],
                "owner": None,
                "output": m["output"],
                "neighbours": m["neighbours"],
            }
            for m in load_map()
        ]
        state["grain"], state["high_king"] = {}, None
        return state

    @staticmethod
    def land(state: GameState, name: str) -> dict:
        return next(x for x in eire_game(state)["lands"] if x["name"] == name)

    @staticmethod
    def owned(state: GameState, player: str) -> list[dict]:
        return [x for x in eire_game(state)["lands"] if x["owner"] == player]

    def find_land(self, state: GameState, text: str) -> dict | None:
        want = fold(text)
        return next((x for x in eire_game(state)["lands"] if fold(x["name"]) == want), None)

    # ---- joining -----------------------------------------------------------------
    def new_player_fields(self, state: GameState, action: Action) -> dict:
        asked: Mapping[str, Any] = action  # a [Join]'s choices, or none (the admin's add)
        choices = {k.lower(): v.strip() for k, v in (asked.get("choices") or {}).items()}
        if len(self.players.active(state)) >= state["parameters"]["max_players"]:
            raise Refused("game_full", most=state["parameters"]["max_players"])
        taken = {p.get("color") for p in state["players"] if p["status"] != "left"}
        free_colors = [c for c in COLORS if c not in taken]
        given = choices.get("color", "")
        color = next((c for c in COLORS if c.lower() == given.lower()), None)
        if color is None or color in taken:
            raise Refused("choose_color", color=color, given=given, free=free_colors)
        tribe = TRIBES.get(choices.get("tribe", "").lower())
        if tribe is None:
            raise Refused("choose_tribe")
        free = [
            x
            for x in eire_game(state)["lands"]
            if x["owner"] is None and self.origin_fits(tribe, x)
        ]
        origin = self.find_land(state, choices.get("origin", ""))
        if origin is None or origin not in free:
            raise Refused(
                "choose_origin",
                origin=origin and origin["name"],
                taken=bool(origin and origin["owner"]),
                rule=self.origin_rule(tribe) if origin else "",
                given=choices.get("origin", ""),
                tribe=tribe,
                free=[x["name"] for x in free],
            )
        return {"color": color, "tribe": tribe, "origin": origin["name"]}

    @staticmethod
    def origin_fits(tribe: str, land: dict) -> bool:
        return {
            "Merfolk": land["coast"],
            "Woodkin": land["type"] == "Deep Forest",
            "Sidhe": land["type"] == "Menhir Valley",
        }.get(tribe, True)

    @staticmethod
    def origin_rule(tribe: str) -> str:
        return {
            "Merfolk": "on the coast",
            "Woodkin": "in a Deep Forest",
            "Sidhe": "in a Menhir Valley",
        }.get(tribe, "anywhere")

    def after_join(self, state: GameState, player: Player, action: Action, ctx: Ctx) -> None:
        player.pop("eliminated", None)  # one who returns has chosen anew
        self.land(state, player["origin"])["owner"] = player["name"]
        eire_game(state)["grain"][player["name"]] = state["parameters"]["start_grain"]
        if state["status"] == "active":  # a newcomer during play takes an independent land
            eire_game(state)["grain"][player["name"]] += self.income(state, player["name"])
        self.announce(
            state,
            ctx,
            f"{player['name']} joins Eire",
            [
                f"{player['name']} of the {player['tribe']}, {player['color']}, rises in "
                f"{player['origin']}."
            ],
        )
        self.tell_newcomer_the_turn(state, player, ctx)

    def before_leaving_order(self, state: GameState, player: Player, ctx: Ctx) -> None:
        pass

    @action("quit")
    def on_quit(self, state: GameState, action: Action, ctx: Ctx) -> None:
        name = str(action["player"])  # the handler names the sender
        self.players.must_player(state, name)
        for x in self.owned(state, name):
            x["owner"] = None  # the lands of a player who leaves become independent
        # Then leave: the turn may resolve at once (the others have ordered), on the map without
        # them.
        super().on_quit(state, action, ctx)

    # ---- the turn resolved: adjudication, through the GM's preview ----------------
    def resolve_turn(self, state: GameState, ctx: Ctx, why: str, late: str = "") -> None:
        self.preview.resolve_turn(state, ctx, why, late)

    def resolve(self, state: GameState, ctx: Ctx, why: str, late: str = "") -> None:
        """Adjudicate the open turn and mail the results (eire_resolution.py)."""
        self.adjudication.resolve(state, ctx, why, late)

    def check_victory(self, state: GameState, ctx: Ctx, lines: list[str] | None = None) -> None:
        self.adjudication.check_victory(state, ctx, lines)

    def handle(self, state: GameState, action: Action, ctx: Ctx) -> None:
        super().handle(state, action, ctx)
        self.preview.correct_preview(state, action, ctx)

    def late_players(
        self, state: GameState, now: datetime | None = None
    ) -> list[tuple[str, str | None]]:
        return super().late_players(state, now) + self.preview.waiting(state)

    def after_undo(self, before: GameState, state: GameState, ctx: Ctx) -> None:
        self.preview.after_undo(before, state, ctx)

    # ---- economy -----------------------------------------------------------------
    def income(self, state: GameState, name: str) -> int:
        p = self.players.player(state, name)
        if p is None:
            raise KeyError(f"{name} plays no part in {state['name']}")
        prm = state["parameters"]
        lands = self.owned(state, name)
        total = sum(x["output"] for x in lands)
        if p["tribe"] == "Plainsmen" and any(x["name"] == p["origin"] for x in lands):
            total += prm["plainsmen_bonus"]
        if p["tribe"] == "Merfolk":
            total += prm["merfolk_bonus"] * sum(1 for x in lands if x["coast"])
        if eire_game(state)["high_king"] == name:
            total += prm["high_king_bonus"]
        return total

    def begin_turn(self, state: GameState, ctx: Ctx, number: int) -> None:
        for p in self.players.active(state):
            inc = self.income(state, p["name"])
            keep = (
                eire_game(state)["grain"].get(p["name"], 0)
                if state["parameters"]["carry_over"]
                else 0
            )
            eire_game(state)["grain"][p["name"]] = keep + inc
        super().begin_turn(state, ctx, number)

    def turn_lines(self, state: GameState) -> list[str]:
        """Who holds what, with the neighbours each may attack: enough to write orders from."""
        out, grain = [], eire_game(state)["grain"]
        for p in self.players.active(state):
            lands = self.owned(state, p["name"])
            out.append(
                f"{p['name']} ({p['color']}, {p['tribe']}): {grain.get(p['name'], 0)} "
                "Grain, "
                f"{plural(len(lands), 'land')}"
            )
            for x in lands:
                out.append(
                    f"  {x['name']} (output {x['output']}), next to " + ", ".join(x["neighbours"])
                )
        return out + [
            "",
            "Orders, one bold sentence each: Defend LAND with N Grain / Invest N Grain in LAND / "
            "Attack LAND with N Grain / Declare High King",
        ]

    # ---- orders ------------------------------------------------------------------
    def orders_not_bold(self, lines: list[str], bold: list[str]) -> list[str]:
        return order_like(lines, bold, eire=True)

    def read_orders(
        self, state: GameState, player: str, sentences: list[str], earlier: list[dict]
    ) -> tuple[list[dict], list[tuple[str, str]]]:
        reading = read_eire_orders(sentences, [x["name"] for x in eire_game(state)["lands"]])
        budget = eire_game(state)["grain"].get(player, 0) - sum(
            o.get("grain") or 0 for o in earlier
        )
        accepted, rejected = [], list(reading.rejected)
        for o in reading.orders:
            why = self.check_order(state, player, o)
            if why is None and o.grain and o.grain > budget:
                why = f"only {budget} Grain left for this turn"
            if why:
                rejected.append((o.text, why))
                continue
            budget -= o.grain or 0
            accepted.append({"kind": o.kind, "land": o.land, "grain": o.grain, "text": o.text})
            if o.kind == "high-king" and (
                lacking := self.adjudication.high_king_lacking(state, player)
            ):
                # Judged at resolution, after this turn's combats; said now so nobody is surprised.
                accepted[-1]["note"] = (
                    "decided at resolution; as things stand you lack " + ", ".join(lacking)
                )
        return accepted, rejected

    def check_order(self, state: GameState, player: str, o: Order) -> str | None:
        prm = state["parameters"]
        if o.kind == "high-king":
            return None  # judged at resolution, when Grain and lands are known
        land = self.land(state, o.land or "")  # every order but the High King's names one
        if o.kind in ("defend", "invest") and land["owner"] != player:
            return f"you do not hold {land['name']}"
        if o.kind == "attack":
            if land["owner"] == player:
                return f"{land['name']} is already yours"
            bases = [
                self.land(state, n)
                for n in land["neighbours"]
                if self.land(state, n)["owner"] == player
            ]
            if not bases:
                return f"{land['name']} does not border any land of yours"
            if not any(b["output"] >= prm["min_attack_output"] for b in bases):
                return (
                    f"your lands bordering {land['name']} produce below "
                    f"{prm['min_attack_output']} Grain "
                    "and cannot support an attack"
                )
        return None

    def holdings(self, state: GameState) -> list[str]:
        """The map in words: each player's lands, then the independent ones."""
        out = []
        for p in state["players"]:
            names = [x["name"] for x in self.owned(state, p["name"])]
            if p.get("status") == "left" and not names:
                continue
            out += _wrapped(f"{p['name']} ({p['color']}): {plural(len(names), 'land')}", names)
        free = [x["name"] for x in eire_game(state)["lands"] if x["owner"] is None]
        out += _wrapped(f"independent: {plural(len(free), 'land')}", free)
        return out

    def player_colors(self, state: GameState) -> dict[str, str]:
        return {p["name"]: p["color"] for p in state["players"]}

    def rules_told(self, state: GameState) -> list[str]:
        q = state["parameters"]
        return [
            "It is played by the rules of Eire's own text, and where the text is silent by the "
            "referee's "
            "house rules (docs/games/eire.md of mailref), each number a parameter below. In short:",
            "Each turn: income, then bold orders until the deadline (turn_length "
            f"{q['turn_length']}; early "
            "when all have ordered), then resolution: Defend LAND with N Grain, Invest N Grain in "
            "LAND, "
            "Attack LAND with N Grain, Declare High King.",
            "Combat: d10 + Grain on each side, the attacker must roll higher; independent lands "
            "defend with "
            f"{q['independent_defense']}; Origin Land +{q['origin_defense_bonus']} when "
            "defending; a land below "
            f"{q['min_attack_output']} supports no attack.",
            f"Investment: +1 output per {q['invest_per_output']} Grain from next turn, up to "
            f"{q['output_cap']}; "
            "conquered output is halved.",
            f"Victory: Dominion ({q['dominion']} contiguous lands) or Communion ({q['communion']} "
            "Menhir Valleys).",
        ]

    def status_lines(self, state: GameState, ctx: Ctx | None = None) -> list[str]:
        lines = super().status_lines(state, ctx)
        lines += [
            f"{p['name']} ({p['color']}, {p['tribe']}, origin {p['origin']}): "
            f"{eire_game(state)['grain'].get(p['name'], 0)} Grain, "
            f"lands: {', '.join(x['name'] for x in self.owned(state, p['name']))}"
            for p in self.players.active(state)
        ]
        if eire_game(state)["high_king"]:
            lines.append(f"High King of Eire: {eire_game(state)['high_king']}")
        return lines


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _wrapped(head: str, lands: list[str]) -> list[str]:
    """HEAD and the names of LANDS in lines of 76, broken between names, never inside one:
    "Dál / Riata" over two lines read as two lands."""
    text = head + (": " + ", ".join(name.replace(" ", "\x00") for name in lands) if lands else "")
    return [
        line.replace("\x00", " ")
        for line in textwrap.wrap(
            text, 76, initial_indent="  ", subsequent_indent="      ", break_on_hyphens=False
        )
    ]
