"""Eire (seed 001), fully adjudicated: Grain, Defend / Invest / Attack, d10 combat drawn from
the game's journaled random source, tribes and their perks, High King, Dominion and
Communion. Every gap in the text is a house rule and a parameter (docs/games/eire.md)."""

from __future__ import annotations

import json
import textwrap
from collections import defaultdict

from mailref import resource
from mailref.engine.context import Ctx, Refused
from mailref.engine.orders import Order, fold, read_eire_orders
from mailref.engine.state import Action, GameState, Player
from mailref.engine.variants.actions import action
from mailref.engine.variants.dice import revealed_lines
from mailref.engine.variants.eire_svg import map_svg
from mailref.engine.variants.preview import Preview
from mailref.engine.variants.turns import OrdersGame
from mailref.timeutil import iso

COLORS = ["Red", "Gold", "Green", "Cyan", "Orange", "Silver", "Purple", "White", "Teal", "Lavender"]
TRIBES = {"plainsmen": "Plainsmen", "merfolk": "Merfolk", "woodkin": "Woodkin", "sidhe": "Sidhe"}


def load_map() -> list[dict]:
    return json.loads((resource("data") / "eire_map.json").read_text())["lands"]


class Eire(Preview, OrdersGame):
    name = "eire"
    title = "Eire"
    min_players = 2
    example_order = "**Defend Donal with 5 Grain.**"
    defaults = {
        **OrdersGame.defaults,
        "orders_final": "refuse",
        "start_grain": 0,
        "carry_over": True,
        "independent_defense": 10,
        "origin_defense_bonus": 5,
        "plainsmen_bonus": 5,
        "merfolk_bonus": 2,
        "woodkin_bonus": 5,
        "high_king_bonus": 5,
        "high_king_grain": 50,
        "invest_per_output": 5,
        "output_cap": 30,
        "min_attack_output": 5,
        "dominion": 22,
        "communion": 7,
        "walk_in": True,
        "gm_preview": False,
    }
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
        (
            "[Publish]",
            "the GM, with gm_preview=on: send the turn's results the GM has seen to every player",
        ),
    ]

    def initial_state(self, *args, **kw) -> GameState:
        state = super().initial_state(*args, **kw)
        state.update(
            lands=[
                {
                    "name": m["name"],
                    "type": m["type"],
                    "coast": m["coast"],
                    "owner": None,
                    "output": m["output"],
                    "neighbours": m["neighbours"],
                }
                for m in load_map()
            ],
            grain={},
            high_king=None,
        )
        return state

    @staticmethod
    def land(state: GameState, name: str) -> dict:
        return next(x for x in state["lands"] if x["name"] == name)

    @staticmethod
    def owned(state: GameState, player: str) -> list[dict]:
        return [x for x in state["lands"] if x["owner"] == player]

    def find_land(self, state: GameState, text: str) -> dict | None:
        want = fold(text)
        return next((x for x in state["lands"] if fold(x["name"]) == want), None)

    # ---- joining -----------------------------------------------------------------
    def new_player_fields(self, state: GameState, action: Action) -> dict:
        choices = {k.lower(): v.strip() for k, v in (action.get("choices") or {}).items()}
        if len(self.active(state)) >= state["parameters"]["max_players"]:
            raise Refused(f"the game has its {state['parameters']['max_players']} players")
        taken = {p.get("color") for p in state["players"] if p["status"] != "left"}
        free_colors = [c for c in COLORS if c not in taken]
        given = choices.get("color", "")
        color = next((c for c in COLORS if c.lower() == given.lower()), None)
        if color is None or color in taken:
            why = (
                f"{color} is taken"
                if color
                else f"{given} is not a color of this game"
                if given
                else "choose a Color"
            )
            raise Refused(
                f"{why}; the free colors: {', '.join(free_colors)}",
                f"add a body line `Color: {free_colors[0] if free_colors else 'Red'}`",
            )
        tribe = TRIBES.get(choices.get("tribe", "").lower())
        if tribe is None:
            raise Refused(
                "choose a Tribe: Plainsmen, Merfolk, Woodkin or Sidhe",
                "add a body line `Tribe: Woodkin`",
            )
        free = [x for x in state["lands"] if x["owner"] is None and self.origin_fits(tribe, x)]
        origin = self.find_land(state, choices.get("origin", ""))
        if origin is None or origin not in free:
            given = choices.get("origin", "")
            why = (
                f"{origin['name']} is taken"
                if origin and origin["owner"]
                else f"a {tribe} must start {self.origin_rule(tribe)}"
                if origin
                else f"there is no land {given!r}"
                if given
                else "you gave none"
            )
            raise Refused(
                f"choose an Origin Land ({why}); free for {tribe}: "
                f"{', '.join(x['name'] for x in free)}",
                f"add a body line `Origin: {free[0]['name'] if free else 'LAND'}` (a land free "
                f"for {tribe})",
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
        state["grain"][player["name"]] = state["parameters"]["start_grain"]
        if state["status"] == "active":  # a newcomer during play takes an independent land
            state["grain"][player["name"]] += self.income(state, player["name"])
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
        self.must_player(state, action["player"])
        for x in self.owned(state, action["player"]):
            x["owner"] = None  # the lands of a player who leaves become independent
        # Then leave: the turn may resolve at once (the others have ordered), on the map without
        # them.
        super().on_quit(state, action, ctx)

    # ---- economy -----------------------------------------------------------------
    def income(self, state: GameState, name: str) -> int:
        p = self.player(state, name)
        prm = state["parameters"]
        lands = self.owned(state, name)
        total = sum(x["output"] for x in lands)
        if p["tribe"] == "Plainsmen" and any(x["name"] == p["origin"] for x in lands):
            total += prm["plainsmen_bonus"]
        if p["tribe"] == "Merfolk":
            total += prm["merfolk_bonus"] * sum(1 for x in lands if x["coast"])
        if state["high_king"] == name:
            total += prm["high_king_bonus"]
        return total

    def begin_turn(self, state: GameState, ctx: Ctx, number: int) -> None:
        for p in self.active(state):
            inc = self.income(state, p["name"])
            keep = state["grain"].get(p["name"], 0) if state["parameters"]["carry_over"] else 0
            state["grain"][p["name"]] = keep + inc
        super().begin_turn(state, ctx, number)

    def turn_lines(self, state: GameState) -> list[str]:
        """Who holds what, with the neighbours each may attack: enough to write orders from."""
        out = []
        for p in self.active(state):
            lands = self.owned(state, p["name"])
            out.append(
                f"{p['name']} ({p['color']}, {p['tribe']}): {state['grain'].get(p['name'], 0)} "
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
    def read_orders(
        self, state: GameState, player: str, sentences: list[str], earlier: list[dict]
    ) -> tuple[list[dict], list[tuple[str, str]]]:
        reading = read_eire_orders(sentences, [x["name"] for x in state["lands"]])
        budget = state["grain"].get(player, 0) - sum(o.get("grain") or 0 for o in earlier)
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
            if o.kind == "high-king" and (lacking := self.high_king_lacking(state, player)):
                # Judged at resolution, after this turn's combats; said now so nobody is surprised.
                accepted[-1]["note"] = (
                    "decided at resolution; as things stand you lack " + ", ".join(lacking)
                )
        return accepted, rejected

    def check_order(self, state: GameState, player: str, o: Order) -> str | None:
        prm = state["parameters"]
        if o.kind == "high-king":
            return None  # judged at resolution, when Grain and lands are known
        land = self.land(state, o.land)
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

    # ---- resolution --------------------------------------------------------------
    def resolve(self, state: GameState, ctx: Ctx, why: str, late: str = "") -> None:
        """Adjudicate the open turn and mail the results to the players (or, through Preview,
        to the GM first)."""
        prm = state["parameters"]
        t = state["turn"]
        lines = [f"Turn {t['number']} is resolved ({why})."] + ([late] if late else [])
        start_grain = dict(state["grain"])
        orders = {n: o["orders"] for n, o in state["orders"].items()}
        for name, os_ in orders.items():
            state["grain"][name] -= sum(o.get("grain") or 0 for o in os_)
        lines += ["", "Orders:"] + [
            f"  {n}: " + "; ".join(o["text"] for o in os_)
            for n, os_ in sorted(orders.items())
            if os_
        ]
        silent = sorted(p["name"] for p in self.active(state) if not orders.get(p["name"]))
        # Whose orders were all refused is said (how many, not what: orders stay private).
        refused = {n: len(o.get("rejected") or []) for n, o in state["orders"].items()}
        lines += (
            [
                f"  {n}: no valid orders ({refused[n]} refused)"
                if refused.get(n)
                else f"  {n}: no orders"
                for n in silent
            ]
            if any(orders.values()) or any(refused.values())
            else ["  none: nobody sent orders"]
        )
        self.claim_high_king(state, ctx, orders, start_grain, lines)
        defend = defaultdict(int)
        attacks: dict[str, list[tuple[str, int]]] = defaultdict(list)
        invest = defaultdict(int)
        for name, os_ in orders.items():
            for o in os_:
                if o["kind"] == "defend":
                    defend[o["land"]] += o["grain"]
                elif o["kind"] == "attack":
                    attacks[o["land"]].append((name, o["grain"]))
                elif o["kind"] == "invest":
                    invest[(name, o["land"])] += o["grain"]
        lines += ["", "Combats:"]
        # "The turns of all Players are SIMULTANEOUS": every combat is fought on the map as the
        # turn began (owners, Sidhe valleys), and the conquests change hands only after all of them.
        start_owners = {x["name"]: x["owner"] for x in state["lands"]}
        conquests: list[tuple[dict, str]] = []
        for land_name in sorted(
            attacks, key=lambda n: [x["name"] for x in state["lands"]].index(n)
        ):
            land = self.land(state, land_name)
            out, winner = self.combat(
                state, ctx, land, attacks[land_name], defend[land_name], start_owners
            )
            lines += out
            if winner:
                conquests.append((land, winner))
        for land, winner in conquests:
            land["owner"], land["output"] = winner, land["output"] // 2
        if not attacks:
            lines.append("  none")
        lines += ["", "Investments:"]
        for (name, land_name), g in sorted(invest.items()):
            land = self.land(state, land_name)
            if land["owner"] != name:
                lines.append(
                    f"  {name}'s {g} Grain in {land_name} is lost: the land fell this turn."
                )
                continue
            before = land["output"]
            land["output"] = min(prm["output_cap"], before + g // prm["invest_per_output"])
            lines.append(
                f"  {name} invests {g} Grain in {land_name}: output {before} -> {land['output']}"
                + (
                    f" (cap {prm['output_cap']})"
                    if before + g // prm["invest_per_output"] > prm["output_cap"]
                    else ""
                )
            )
        if not invest:
            lines.append("  none")
        fought = [p["name"] for p in self.active(state)]
        self.eliminate(state, ctx, lines)
        self.check_high_king(state, ctx, lines)
        state["history"].append(
            {"turn": t["number"], "orders": state["orders"], "rolls": ctx.draws[:]}
        )
        t.update(deadline=None, closed=iso(ctx.now))
        self.check_victory(state, ctx, lines)
        lines += ["", "Grain after the turn (next turn's income is added when it opens):"] + [
            f"  {p['name']}: {state['grain'][p['name']]}" for p in self.active(state)
        ]
        self.event(state, ctx, f"Turn {t['number']} resolved.")
        lines += ["", "Who holds which land (as on the map):"] + self.holdings(state)
        if revealed := revealed_lines(ctx):
            lines += ["", *revealed]
        # Everybody who played the turn, those it eliminated too: they learn it from this mail.
        readers = [
            p["name"] for p in state["players"] if p["status"] != "left" or p["name"] in fought
        ]
        out = ctx.send(
            "results",
            readers,
            f"[Results] Turn {t['number']}",
            "notice.txt",
            game=state,
            heading=f"Results of turn {t['number']}",
            lines=lines,
        )
        svg = map_svg(state, self.player_colors(state))
        cid = f"eire-map-{state['slug']}-{t['number']}@mailref"
        out.images.append((cid, f"eire-turn-{t['number']}", svg))
        out.html = (
            "<html><body><pre>" + "\n".join(_esc(x) for x in lines) + "</pre>"
            f'<p><img src="cid:{cid}" alt="The map of Eire after turn '
            f'{t["number"]}"></p></body></html>'
        )
        if state["status"] != "ended":
            self.begin_turn(state, ctx, t["number"] + 1)

    def combat(
        self,
        state: GameState,
        ctx: Ctx,
        land: dict,
        attackers: list[tuple[str, int]],
        defence: int,
        owners: dict[str, str | None],
    ) -> tuple[list[str], str | None]:
        """One land's combat on the start-of-turn map OWNERS: (result lines, the conqueror or None).
        The conquest itself is applied by the caller once every combat is fought."""
        prm = state["parameters"]
        owner = owners[land["name"]]
        attackers = sorted(attackers, key=lambda a: (-a[1], a[0]))
        head = f"  {land['name']} ({owner or 'independent'}) attacked by " + ", ".join(
            f"{a} with {g}" for a, g in attackers
        )
        out = [head]
        if owner is None:
            defence = prm["independent_defense"]
        won: list[tuple[str, int, int]] = []
        if owner is not None and defence == 0 and prm["walk_in"]:
            out.append("    undefended: the attackers walk in")
            won = [(a, g, g) for a, g in attackers]
        else:
            k = len(attackers)
            shares = [defence // k] * k
            shares[0] += defence - sum(shares)  # the leftover stands against the largest attack
            bonus = 0
            if owner is not None:
                op = self.player(state, owner)
                bonus += prm["origin_defense_bonus"] if land["name"] == op["origin"] else 0
                bonus += (
                    prm["woodkin_bonus"]
                    if op["tribe"] == "Woodkin" and land["type"] == "Deep Forest"
                    else 0
                )
                bonus += self.sidhe_bonus(state, owner, owners)
            for (a, g), share in zip(attackers, shares, strict=True):
                ra, rd = ctx.randint(1, 10), ctx.randint(1, 10)
                sidhe = self.sidhe_bonus(state, a, owners)
                at_total = g + ra + sidhe
                df_total = share + rd + bonus
                result = "wins" if at_total > df_total else "is repelled"
                out.append(
                    f"    {a}: {g} Grain + d10 {ra}"
                    + (f" + {sidhe} Sidhe" if sidhe else "")
                    + f" = {at_total} against {share} + d10 {rd}"
                    + (f" + {bonus} bonus" if bonus else "")
                    + f" = {df_total}: {result}"
                )
                if at_total > df_total:
                    won.append((a, g, at_total))
        if not won:
            out.append(f"    {land['name']} holds.")
            return out, None
        winner = sorted(won, key=lambda w: (-w[1], -w[2], w[0]))[0][0]
        out.append(
            f"    {land['name']} falls to {winner}; its output is halved, {land['output']} -> "
            f"{land['output'] // 2}."
        )
        return out, winner

    def sidhe_bonus(
        self, state: GameState, name: str, owners: dict[str, str | None] | None = None
    ) -> int:
        """ "+1 Grain bonus to all Attack/Defense rolls per controlled Menhir Valley", counted
        on OWNERS (the start-of-turn map during resolution)."""
        p = self.player(state, name)
        if not p or p.get("tribe") != "Sidhe":
            return 0
        owners = owners or {x["name"]: x["owner"] for x in state["lands"]}
        return sum(
            1 for x in state["lands"] if owners[x["name"]] == name and x["type"] == "Menhir Valley"
        )

    # ---- High King ---------------------------------------------------------------
    def high_king_shortfalls(self, state: GameState, name: str, grain: int) -> int:
        """How many of the three requirements NAME misses. "Origin Lands of at least 2 other
        Players" counts the Origin Land of every other player who has played this game, eliminated
        or gone too: the text speaks of "core lands of their (former) enemies" (docs/games/eire.md)."""
        return len(self.high_king_lacking(state, name, grain))

    def high_king_lacking(self, state: GameState, name: str, grain: int | None = None) -> list[str]:
        """The requirements NAME does not meet (seed: Origin Land held, 50 Grain, two other Origin
        Lands), in words; GRAIN: the total to judge by (default: what NAME holds now)."""
        p = self.player(state, name)
        others = {
            q["origin"] for q in state["players"] if q["name"] != name and q.get("origin")
        } - {p["origin"]}
        mine = {x["name"] for x in self.owned(state, name)}
        need, grain = (
            state["parameters"]["high_king_grain"],
            state["grain"].get(name, 0) if grain is None else grain,
        )
        return [
            w
            for w, lack in (
                (f"your Origin Land {p['origin']}", p["origin"] not in mine),
                (f"{need} Grain (you have {grain})", grain < need),
                ("the Origin Lands of two other players", len(others & mine) < 2),
            )
            if lack
        ]

    def claim_high_king(
        self, state: GameState, ctx: Ctx, orders: dict, grain: dict, lines: list[str]
    ) -> None:
        claims = [n for n, os_ in orders.items() if any(o["kind"] == "high-king" for o in os_)]
        if not claims:
            return
        lines += ["", "High King:"]
        if state["high_king"]:
            lines.append(f"  {state['high_king']} is High King: no other may claim the title.")
            return
        fit = [n for n in claims if self.high_king_shortfalls(state, n, grain[n]) == 0]
        for n in claims:
            if n not in fit:
                lines.append(
                    f"  {n} does not meet the requirements (own Origin Land, "
                    f"{state['parameters']['high_king_grain']} Grain, two other Origin Lands)."
                )
        if not fit:
            return
        fit.sort(key=lambda n: -grain[n])
        if len(fit) > 1 and grain[fit[0]] == grain[fit[1]]:
            lines.append("  Several equal claims: nobody takes the title this turn.")
            return
        state["high_king"] = fit[0]
        lines.append(f"  {fit[0]} is proclaimed High King of Eire!")
        self.event(state, ctx, f"{fit[0]} became High King of Eire.")

    def check_high_king(self, state: GameState, ctx: Ctx, lines: list[str]) -> None:
        hk = state["high_king"]
        if hk and (
            self.player(state, hk)["status"] != "active"
            or self.high_king_shortfalls(state, hk, state["grain"].get(hk, 0)) >= 2
        ):
            state["high_king"] = None
            lines += [
                "",
                f"{hk} no longer meets two of the High King's requirements and is reduced to a "
                "Chiefdom.",
            ]

    # ---- elimination and victory -------------------------------------------------
    def eliminate(self, state: GameState, ctx: Ctx, lines: list[str]) -> None:
        for p in self.active(state):
            if not self.owned(state, p["name"]):
                p["status"], p["eliminated"] = "left", True
                lines += [
                    "",
                    f"{p['name']} holds no land and is eliminated; the color {p['color']} is free.",
                ]
                self.event(state, ctx, f"{p['name']} was eliminated.")

    def largest_realm(self, state: GameState, name: str) -> int:
        mine = {x["name"]: x for x in self.owned(state, name)}
        seen, best = set(), 0
        for start in mine:
            if start in seen:
                continue
            stack, size = [start], 0
            seen.add(start)
            while stack:
                cur = stack.pop()
                size += 1
                for n in mine[cur]["neighbours"]:
                    if n in mine and n not in seen:
                        seen.add(n)
                        stack.append(n)
            best = max(best, size)
        return best

    def check_victory(self, state: GameState, ctx: Ctx, lines: list[str] | None = None) -> None:
        prm = state["parameters"]
        winners = []
        for p in self.active(state):
            if self.largest_realm(state, p["name"]) >= prm["dominion"]:
                winners.append((p["name"], "Dominion"))
            elif (
                state["high_king"] != p["name"]
                and sum(1 for x in self.owned(state, p["name"]) if x["type"] == "Menhir Valley")
                >= prm["communion"]
            ):
                winners.append((p["name"], "Communion"))  # the High King is locked to Dominion
        if winners:
            state["status"], state["winners"] = "ended", [w for w, _ in winners]
            text = (
                " and ".join(f"{w} by {how}" for w, how in winners)
                + " rule"
                + ("s" if len(winners) == 1 else "")
                + " Eire!"
            )
            self.event(state, ctx, text)
            if lines is not None:
                lines += ["", text]

    def holdings(self, state: GameState) -> list[str]:
        """The map in words: each player's lands, then the independent ones."""
        out = []
        for p in state["players"]:
            names = [x["name"] for x in self.owned(state, p["name"])]
            if p.get("status") == "left" and not names:
                continue
            out += _wrapped(f"{p['name']} ({p['color']}): {plural(len(names), 'land')}", names)
        free = [x["name"] for x in state["lands"] if x["owner"] is None]
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

    def status_lines(self, state: GameState) -> list[str]:
        lines = super().status_lines(state)
        lines += [
            f"{p['name']} ({p['color']}, {p['tribe']}, origin {p['origin']}): "
            f"{state['grain'].get(p['name'], 0)} Grain, "
            f"lands: {', '.join(x['name'] for x in self.owned(state, p['name']))}"
            for p in self.active(state)
        ]
        if state["high_king"]:
            lines.append(f"High King of Eire: {state['high_king']}")
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


def _esc(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
