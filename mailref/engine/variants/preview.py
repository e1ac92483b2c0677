"""GM preview of an adjudicated turn (SPEC §5.4, `gm_preview=on`): the resolved results go to
the GM alone; `[Publish]` (or `mailref turn publish`) resolves the turn for everybody from the
same draws; a GM correction in between resolves it again, from the same draws, for the GM."""

from __future__ import annotations

import copy
import random
from typing import Any

from mailref.engine.context import Ctx, Refused
from mailref.engine.state import Action, GameState
from mailref.engine.variants.actions import action
from mailref.timeutil import iso

# What the GM may correct while the results wait: parameters, a player removed or away, a score.
CORRECTIONS = {
    "set": "a parameter changed",
    "player_remove": "a player removed",
    "player_status": "a player's status",
    "score": "a score changed",
    "quit": "a player left",
    "away": "a player away",
}


class Redraw(Ctx):
    """A context whose draws are GIVEN ones first (the turn's, drawn when it closed), then new
    ones from OUTER (journaled there). SHARE: its mail, ack and notes are OUTER's. With KEYED
    (the draws each combat had, by its land), a combat takes its own draws first, and a combat
    without them takes GIVEN ones; what each combat drew is kept in `by_key`."""

    def __init__(
        self,
        outer: Ctx,
        given: list[int],
        share: bool,
        keyed: dict[str, list[int]] | None = None,
    ):
        super().__init__(outer.now, facts=outer.facts)
        self.outer, self.given = outer, list(given)
        self.keyed = {k: list(v) for k, v in keyed.items()} if keyed is not None else None
        self.key, self.by_key = "", dict[str, list[int]]()
        self.dice = outer.dice
        if share:
            self.out, self.ack_lines, self.summary, self.alerts = (
                outer.out,
                outer.ack_lines,
                outer.summary,
                outer.alerts,
            )

    def draws_for(self, key: str) -> None:
        self.key = key

    def randint(self, lo: int, hi: int) -> int:
        own = self.keyed.get(self.key) if self.keyed is not None else None
        if own:
            value = own.pop(0)
        elif self.keyed is not None:
            value = self.given.pop(0) if self.given else self.outer.randint(lo, hi)
        else:
            i = len(self.draws)
            value = self.given[i] if i < len(self.given) else self.outer.randint(lo, hi)
        self.draws.append(value)
        self.by_key.setdefault(self.key, []).append(value)
        return value

    def reveal_dice(self) -> dict[str, Any] | None:
        if (
            self.out is not self.outer.out
        ):  # a preview: the seed stays secret until the results go out
            return None
        revealed = self.outer.reveal_dice()
        self.dice = self.outer.dice
        return revealed


class Preview:
    """For a variant whose `resolve` adjudicates a turn and mails `results` to the players:
    held by the game as `preview`; the game's `resolve_turn`, `handle` and `late_players` hand
    their part here."""

    def __init__(self, game: Any) -> None:
        self.game = game

    def resolve_turn(self, state: GameState, ctx: Ctx, why: str, late: str = "") -> None:
        if not state["parameters"].get("gm_preview"):
            self.game.resolve(state, ctx, why, late)
            return
        t = state["turn"]
        assert t is not None  # a turn is open: it is being resolved
        state["preview"] = {
            "turn": t["number"],
            "why": why,
            "late": late,
            "draws": [],
            "at": iso(ctx.now),
        }
        t["deadline"], t["closed"] = None, iso(ctx.now)
        self.game.event(state, ctx, f"Turn {t['number']} is resolved for the GM's preview.")
        self.send_preview(state, ctx, f"Turn {t['number']} closed ({why}).")

    def send_preview(
        self,
        state: GameState,
        ctx: Ctx,
        first: str,
        keyed: dict[str, list[int]] | None = None,
        spare: list[int] | None = None,
    ) -> None:
        """Resolve the waiting turn on a copy, from its draws (new ones only where a correction
        asks for more rolls), and mail the results to the GM alone. KEYED: each combat's draws
        in the preview the GM saw, given to it again; SPARE: the draws a new combat takes."""
        p = state["preview"]
        trial = copy.deepcopy(state)
        sub = Redraw(ctx, p["draws"] if keyed is None else spare or [], False, keyed)
        self.game.resolve(trial, sub, p["why"], p["late"])
        p["draws"] = sub.draws
        results = next(o for o in sub.out if o.kind == "results")
        results.kind, results.to = "preview", "gm"
        results.subject = f"[Preview] Turn {p['turn']}"
        results.vars["heading"] = (
            f"Preview of the results of turn {p['turn']}: for you, the GM, alone"
        )
        told = [
            first,
            "Nobody else has seen these results. Send a mail with the subject [Publish] "
            f"(or run `mailref turn publish {state['slug']}`) to send them to every player and "
            "open "
            "the next turn; a correction before that ([Set] KEY=VALUE, or on the host "
            "`mailref game set`; a player removed) "
            "resolves the turn again from the same rolls.",
            "",
        ]
        results.vars["lines"] = [*told, *results.vars["lines"]]
        if results.html:
            text = "\n".join(told).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            results.html = results.html.replace("<pre>", f"<pre>{text}\n", 1)
        ctx.out.append(results)

    def correct_preview(self, state: GameState, action: Action, ctx: Ctx) -> None:
        """After a GM correction: the turn resolved again from the same draws, for the GM."""
        if state.get("preview") and action["type"] in CORRECTIONS:
            self.send_preview(
                state,
                ctx,
                f"Turn {state['preview']['turn']} resolved again after a correction "
                f"({CORRECTIONS[action['type']]}), from the same rolls.",
            )

    def after_undo(self, before: GameState, state: GameState, ctx: Ctx) -> None:
        """An undo while the results wait: the turn resolved again for the GM, who alone has
        seen it; each combat that still happens has the draws it had in the preview BEFORE."""
        p, was = state.get("preview"), before.get("preview")
        if not p:
            return
        first = f"Turn {p['turn']} resolved again after an undo, from the same rolls."
        if not was or was["turn"] != p["turn"]:
            self.send_preview(state, ctx, first)
            return
        seen = self.drawn(before, ctx, was["draws"], None)
        # Which combats still happen, and how many of their draws: the rest are spare.
        taken = self.drawn(state, ctx, [], seen)
        # Then the journal's draws as replayed, enough for the whole turn: a combat the GM's
        # undone correction had dropped comes back with more draws than the preview kept.
        spare = [d for k, ds in seen.items() for d in ds[len(taken.get(k, ())) :]] + p["draws"]
        self.send_preview(state, ctx, first, seen, spare)

    def drawn(
        self,
        state: GameState,
        ctx: Ctx,
        given: list[int],
        keyed: dict[str, list[int]] | None,
    ) -> dict[str, list[int]]:
        """What each combat of the waiting turn of STATE draws, resolved on a copy aside."""
        p = state["preview"]
        aside = Redraw(Ctx(ctx.now, rng=random.Random(0)), given, False, keyed)
        self.game.resolve(copy.deepcopy(state), aside, p["why"], p["late"])
        return aside.by_key

    def waiting(self, state: GameState) -> list[tuple[str, str | None]]:
        """The digest's "Waiting for": a previewed turn waits for the GM."""
        if p := state.get("preview"):
            return [
                (
                    f"The results of turn {p['turn']} wait for your [Publish] "
                    f"(or `mailref turn publish {state['slug']}`).",
                    None,
                )
            ]
        return []

    @action("publish")
    def on_publish(self, state: GameState, action: Action, ctx: Ctx) -> None:
        gm = (state.get("gm") or "").lower()
        by_gm = action.get("gm") or (gm and str(action.get("address") or "").lower() == gm)
        if not action.get("by") and not by_gm:
            raise Refused("only_gm_publishes")
        p = state.get("preview")
        if not p:
            raise Refused("no_results_waiting", preview=bool(state["parameters"].get("gm_preview")))
        del state["preview"]
        sub = Redraw(ctx, p["draws"], share=True)
        self.game.resolve(state, sub, p["why"], p["late"])
        ctx.ack(
            f"The results of turn {p['turn']} went to every player"
            + ("." if state["status"] == "ended" else f"; turn {p['turn'] + 1} is open.")
        )
