"""Imperial Nomic's playtests of the B rules (rule 15), the Emperor's own acts
(rule 8) and Points of Order."""

from __future__ import annotations

from typing import Any, cast

from mailref.engine import matters
from mailref.engine.context import Ctx, Refused
from mailref.engine.court import describe as effect_words
from mailref.engine.ruleset import (
    RuleConflict,
    changes_from,
    check_changes,
    plain,
)
from mailref.engine.state import Action, GameState, JudgementAction, Matter, OtherAction
from mailref.engine.variants.actions import action
from mailref.timeutil import iso


class ImperialActs:
    """Imperial's playtests, the Emperor's own acts and Points of Order: held by the game as
    `acts`."""

    def __init__(self, game: Any) -> None:
        self.game = game

    # ---- playtests of the B rules (rule 15) --------------------------------------
    @action("playtest")
    def on_playtest(self, state: GameState, action: Action, ctx: Ctx) -> None:
        """Seed: ""B" rules are only active when IE deems that a new playtest of the sub-game
        (represented by the "B" rules) should then begin."
        """
        act = cast("OtherAction", action)
        if act["player"] != self.game.emperor(state):
            raise Refused("only_emperor_playtests")
        on = act["on"]
        if state["parameters"]["playtest"] == on:
            ctx.ack(f"A playtest is already {'running' if on else 'not running'}; nothing changed.")
            return
        state["parameters"]["playtest"] = on
        text = (
            "The Emperor deems that a playtest of the sub-game begins: the B rules are active."
            if on
            else "The Emperor ends the playtest: the B rules are inactive."
        )
        ctx.ack(text)
        self.game.event(state, ctx, text)
        self.game.mail_ruleset(
            state,
            ctx,
            "Playtest begins" if on else "Playtest ends",
            [text],
            reason=act.get("reason") or None,
            whole=True,  # every B rule's standing changed: the list, marked, is the change
        )

    # ---- the Emperor's own acts (rule 8) -----------------------------------------
    @action("proclamation")
    def on_proclamation(self, state: GameState, action: Action, ctx: Ctx) -> None:
        act = cast("OtherAction", action)
        if act["player"] != self.game.emperor(state) and not ctx.rerun:
            # Replayed by an undo, a Proclamation stands as it was made.
            raise Refused("only_emperor_proclaims")
        changes, effects = changes_from(act["changes"]), act.get("effects") or []
        if not changes and not effects:
            raise Refused("proclamation_without_changes")
        try:
            check_changes(plain(state["rules"]), changes, state["rule_history"])
        except RuleConflict as e:
            raise Refused("proclamation_cannot_apply", why=e) from None
        for c in changes:
            ctx.ack(c.describe())
        self.game.event(state, ctx, f"The Emperor proclaimed \"{act['title']}\".")
        by = f"proclamation \"{act['title']}\""
        if changes:
            self.game.enactment.enact_changes(
                state, ctx, changes, by, f"Imperial Proclamation: {act['title']}"
            )
        if not effects:
            return
        # Its effect lines (SPEC §4.4): scores at once, undos by the court; one announcement.
        done = self.game.court.carry_out(state, ctx, effects, by, strict=True)
        self.game.announce(
            state,
            ctx,
            f"[Proclamation] {act['title']}",
            ["The Emperor proclaims:", *[effect_words(e) + "." for e in effects]],
        )
        mail = ctx.out[-1]
        ctx.ack("Your Proclamation is announced to every player.")
        if not self.game.court.order_undos(ctx, effects, by, strict=True, mail=mail) and done:
            mail.vars["lines"] += ["", "What changes:", *done]
            for line in done:
                ctx.ack(line)

    @action("directive")
    def on_directive(self, state: GameState, action: Action, ctx: Ctx) -> None:
        act = cast("OtherAction", action)
        if act["player"] != self.game.emperor(state):
            raise Refused("only_emperor_directs")
        ctx.ack(f"Directive \"{act['title']}\" announced.")
        self.game.event(state, ctx, f"The Emperor's Directive: {act['title']}.")
        self.game.announce(
            state,
            ctx,
            f"[Directive] {act['title']}",
            ["The Emperor calls for proposals:", act["text"]],
        )

    # ---- Points of Order ---------------------------------------------------------
    @action("cfj")
    def on_cfj(self, state: GameState, action: Action, ctx: Ctx) -> None:
        act = cast("JudgementAction", action)
        asker = cast(str, act["player"])  # a Point of Order is a player's
        matters.must_not_repeat(
            [{**j, "author": j["by"]} for j in state["judgements"]],
            asker,
            act["question"],
            act.get("text", ""),
            ("open",),
            "Point of Order",
            state.get("timezone") or "UTC",
        )
        self.game.make_senator(state, asker, ctx)
        number = len(state["judgements"]) + 1
        j: Matter = {
            "number": number,
            "kind": "point-of-order",
            "question": act["question"],
            "detail": act.get("text", ""),
            "by": asker,
            "judge": self.game.emperor(state),
            "status": "open",
            "ruling": None,
            "opened": iso(ctx.now),
        }
        state["judgements"].append(j)
        ctx.ack(f"Point of Order {number} is raised; the Emperor answers it.")
        self.game.event(
            state, ctx, f"{act['player']} raised Point of Order {number}: {j['question']}."
        )
        self.game.announce(
            state,
            ctx,
            f"[Point of Order {number}] {j['question']}",
            [
                f"{act['player']} raises: {j['question']}",
                *([""] + j["detail"].splitlines() + [""] if j["detail"] else []),
                f"The Emperor answers with a mail [Ruling] {number}.",
            ],
            opens=True,
        )

    @action("ruling")
    def on_ruling(self, state: GameState, action: Action, ctx: Ctx) -> None:
        act = cast("OtherAction", action)
        j = next((x for x in state["judgements"] if x["number"] == act["number"]), None)
        if j is None or j["status"] != "open":
            raise Refused("no_point_of_order", number=act["number"])
        if act["player"] != self.game.emperor(state):
            raise Refused("emperor_answers_points")
        ruling = act["text"].strip()
        j.update(
            {
                "status": "decided",
                "ruling": ruling,
                "judge": cast(str, act["player"]),
                "decided": iso(ctx.now),
            }
        )
        # Its effect lines (SPEC §4.4) are carried out, or the ruling is refused naming the one
        # that cannot be: never announced as done with nothing done.
        effects, by = act.get("effects") or [], f"Point of Order {j['number']}"
        done = self.game.court.carry_out(state, ctx, effects, by, strict=True)
        ctx.ack(f"Your ruling on Point of Order {j['number']} is announced.")
        self.game.event(state, ctx, f"The Emperor ruled on Point of Order {j['number']}.")
        self.game.announce(
            state,
            ctx,
            f"[Point of Order {j['number']}] The Emperor rules",
            [f"Question: {j['question']}", "Ruling:", *ruling.splitlines()],
        )
        mail = ctx.out[-1]
        if not self.game.court.order_undos(ctx, effects, by, strict=True, mail=mail) and done:
            mail.vars["lines"] += ["", "What the ruling changes:", *done]
            for line in done:
                ctx.ack(line)
