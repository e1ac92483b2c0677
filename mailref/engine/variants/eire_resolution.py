"""Eire's turn resolution: orders carried out, d10 combat, High King,
elimination and victory."""

from __future__ import annotations

from collections import defaultdict
from typing import Any, cast

from mailref.engine.context import Ctx
from mailref.engine.state import EireState, GameState
from mailref.engine.variants.dice import revealed_lines
from mailref.engine.variants.eire_svg import map_svg
from mailref.engine.variants.turns import open_turn, orders_game, orders_of
from mailref.timeutil import iso


def eire_game(state: GameState) -> EireState:
    """The state of an Eire game, with its lands, each player's Grain and the High King
    (`Eire.initial_state` begins them)."""
    return cast(EireState, state)


class EireResolution:
    """Resolves a turn of Eire: its orders, combat, High King, elimination, victory. Held by
    the game as `adjudication`."""

    def __init__(self, game: Any) -> None:
        self.game = game

    # ---- resolution --------------------------------------------------------------
    def resolve(self, state: GameState, ctx: Ctx, why: str, late: str = "") -> None:
        """Adjudicate the open turn and mail the results to the players (or, through Preview,
        to the GM first)."""
        prm = state["parameters"]
        t = open_turn(state)
        lines = [f"Turn {t['number']} is resolved ({why})."] + ([late] if late else [])
        start_grain = dict(eire_game(state)["grain"])
        orders = {n: o["orders"] for n, o in orders_of(state).items()}
        for name, os_ in orders.items():
            eire_game(state)["grain"][name] -= sum(o.get("grain") or 0 for o in os_)
        lines += ["", "Orders:"] + [
            f"  {n}: " + "; ".join(o["text"] for o in os_)
            for n, os_ in sorted(orders.items())
            if os_
        ]
        silent = sorted(
            p["name"] for p in self.game.players.active(state) if not orders.get(p["name"])
        )
        # Whose orders were all refused is said (how many, not what: orders stay private).
        refused = {n: len(o.get("rejected") or []) for n, o in orders_of(state).items()}
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
        defend: defaultdict[str, int] = defaultdict(int)
        attacks: dict[str, list[tuple[str, int]]] = defaultdict(list)
        invest: defaultdict[tuple[str, str], int] = defaultdict(int)
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
        start_owners = {x["name"]: x["owner"] for x in eire_game(state)["lands"]}
        conquests: list[tuple[dict, str]] = []
        for land_name in sorted(
            attacks, key=lambda n: [x["name"] for x in eire_game(state)["lands"]].index(n)
        ):
            land = self.game.land(state, land_name)
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
            land = self.game.land(state, land_name)
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
        fought = [p["name"] for p in self.game.players.active(state)]
        self.eliminate(state, ctx, lines)
        self.check_high_king(state, ctx, lines)
        orders_game(state)["history"].append(
            {"turn": t["number"], "orders": orders_of(state), "rolls": ctx.draws[:]}
        )
        t["deadline"], t["closed"] = None, iso(ctx.now)
        self.check_victory(state, ctx, lines)
        lines += ["", "Grain after the turn (next turn's income is added when it opens):"] + [
            f"  {p['name']}: {eire_game(state)['grain'][p['name']]}"
            for p in self.game.players.active(state)
        ]
        self.game.event(state, ctx, f"Turn {t['number']} resolved.")
        lines += ["", "Who holds which land (as on the map):"] + self.game.holdings(state)
        if revealed := revealed_lines(ctx):
            lines += ["", *revealed]
        # Everybody who played the turn, those it eliminated too: they learn it from this mail.
        readers = [
            p["name"] for p in state["players"] if p["status"] != "left" or p["name"] in fought
        ]
        results = ctx.send(
            "results",
            readers,
            f"[Results] Turn {t['number']}",
            "notice.txt",
            game=state,
            heading=f"Results of turn {t['number']}",
            lines=lines,
        )
        svg = map_svg(eire_game(state), self.game.player_colors(state))
        cid = f"eire-map-{state['slug']}-{t['number']}@mailref"
        results.images.append((cid, f"eire-turn-{t['number']}", svg))
        results.html = (
            "<html><body><pre>" + "\n".join(_esc(x) for x in lines) + "</pre>"
            f'<p><img src="cid:{cid}" alt="The map of Eire after turn '
            f'{t["number"]}"></p></body></html>'
        )
        if state["status"] != "ended":
            self.game.begin_turn(state, ctx, t["number"] + 1)

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
                op = self.game.players.player(state, owner)
                bonus += prm["origin_defense_bonus"] if land["name"] == op["origin"] else 0
                bonus += (
                    prm["woodkin_bonus"]
                    if op["tribe"] == "Woodkin" and land["type"] == "Deep Forest"
                    else 0
                )
                bonus += self.sidhe_bonus(state, owner, owners)
            ctx.draws_for(land["name"])
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
        p = self.game.players.player(state, name)
        if not p or p.get("tribe") != "Sidhe":
            return 0
        owners = owners or {x["name"]: x["owner"] for x in eire_game(state)["lands"]}
        return sum(
            1
            for x in eire_game(state)["lands"]
            if owners[x["name"]] == name and x["type"] == "Menhir Valley"
        )

    # ---- High King ---------------------------------------------------------------
    def high_king_shortfalls(self, state: GameState, name: str, grain: int) -> int:
        """How many of the three requirements NAME misses. "Origin Lands of at least 2 other
        Players" counts the Origin Land of every other player who has played this game, eliminated
        or gone too: the text speaks of "core lands of their (former) enemies"
        (docs/games/eire.md)."""
        return len(self.high_king_lacking(state, name, grain))

    def high_king_lacking(self, state: GameState, name: str, grain: int | None = None) -> list[str]:
        """The requirements NAME does not meet (seed: Origin Land held, 50 Grain, two other Origin
        Lands), in words; GRAIN: the total to judge by (default: what NAME holds now)."""
        p = self.game.players.player(state, name)
        others = {
            q["origin"] for q in state["players"] if q["name"] != name and q.get("origin")
        } - {p["origin"]}
        mine = {x["name"] for x in self.game.owned(state, name)}
        need, grain = (
            state["parameters"]["high_king_grain"],
            eire_game(state)["grain"].get(name, 0) if grain is None else grain,
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
        if hk := eire_game(state)["high_king"]:
            lines.append(f"  {hk} is High King: no other may claim the title.")
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
        eire_game(state)["high_king"] = fit[0]
        lines.append(f"  {fit[0]} is proclaimed High King of Eire!")
        self.game.event(state, ctx, f"{fit[0]} became High King of Eire.")

    def check_high_king(self, state: GameState, ctx: Ctx, lines: list[str]) -> None:
        hk = eire_game(state)["high_king"]
        if hk and (
            self.game.players.player(state, hk)["status"] != "active"
            or self.high_king_shortfalls(state, hk, eire_game(state)["grain"].get(hk, 0)) >= 2
        ):
            eire_game(state)["high_king"] = None
            lines += [
                "",
                f"{hk} no longer meets two of the High King's requirements and is reduced to a "
                "Chiefdom.",
            ]

    # ---- elimination and victory -------------------------------------------------
    def eliminate(self, state: GameState, ctx: Ctx, lines: list[str]) -> None:
        for p in self.game.players.active(state):
            if not self.game.owned(state, p["name"]):
                p["status"], p["eliminated"] = "left", True
                lines += [
                    "",
                    f"{p['name']} holds no land and is eliminated; the color {p['color']} is free.",
                ]
                self.game.event(state, ctx, f"{p['name']} was eliminated.")

    def largest_realm(self, state: GameState, name: str) -> int:
        mine = {x["name"]: x for x in self.game.owned(state, name)}
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
        for p in self.game.players.active(state):
            if self.largest_realm(state, p["name"]) >= prm["dominion"]:
                winners.append((p["name"], "Dominion"))
            elif (
                eire_game(state)["high_king"] != p["name"]
                and sum(
                    1 for x in self.game.owned(state, p["name"]) if x["type"] == "Menhir Valley"
                )
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
            self.game.event(state, ctx, text)
            if lines is not None:
                lines += ["", text]


def _esc(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
