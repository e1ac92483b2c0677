"""Nomic Sidekick's judges and Calls for Judgement (rule 17)."""

from __future__ import annotations

from typing import Any, cast

from mailref.engine.context import Ctx, Refused
from mailref.engine.ruleset import changes_from
from mailref.engine.state import (
    Action,
    GameState,
    JudgementAction,
    Matter,
    OtherAction,
    Player,
    SidekickState,
)
from mailref.engine.variants.actions import action
from mailref.timeutil import iso


class SidekickJudges:
    """Sidekick's judges and Calls for Judgement: held by the game as `judges`."""

    def __init__(self, game: Any) -> None:
        self.game = game

    # ---- judgements (rule 17) ----------------------------------------------------
    def judge_for(self, state: GameState, asker: str | None = None) -> str | None:
        t = state["turn"]
        order = state["order"]
        if not t or not order:
            return None
        # Rule 17: the player before the mover judges (the one before them, if away), or after
        # where rule 17 now says so; never the ASKER of the question: the next present player
        # on that side of them is.
        turns = self.game.turn_order(state)
        side = (
            turns.after
            if self.game.parameter_table.value(state["parameters"], "judge") == "after"
            else turns.before
        )
        judge = side(t.get("player") or t.get("last") or order[0])
        if asker is not None and judge == asker:
            judge = side(asker)
        return judge

    def new_judges(self, state: GameState, gone: Player, ctx: Ctx) -> None:
        """A judge who leaves the game before ruling: rule 17 names the next present player
        before the mover instead (the judgement stayed open for ever, waiting for a ruling no
        one could send). Without one, the GM is asked."""
        for j in state["judgements"]:
            if j["status"] != "open" or j["judge"] != gone["name"]:
                continue
            judge = self.judge_for(state, j["by"] if j.get("asker_not_judge") else None)
            if judge is None:
                ctx.alert(
                    f"Judgement {j['number']}: its judge {gone['name']} left the game and rule 17 "
                    "names no "
                    "other now; decide it with the players.",
                    f"judgement {j['number']} has no judge",
                )
                continue
            j["judge"] = judge
            self.game.event(
                state,
                ctx,
                f"Judgement {j['number']}: {gone['name']} left; the judge is now {judge} (rule "
                "17).",
            )
            ctx.send(
                "judge",
                [judge],
                f"[Judgement {j['number']}] You are the judge: {j['question']}",
                "judge.txt",
                game=state,
                judgement=j,
            )
            self.game.announce(
                state,
                ctx,
                f"[Judgement {j['number']}] New judge: {judge}",
                [
                    f"{gone['name']}, the judge of judgement {j['number']} ({j['question']}), has "
                    "left the game.",
                    f"The judge is now {judge} (rule 17), who answers with a mail [Ruling] "
                    f"{j['number']}.",
                ],
                to=[p["name"] for p in self.game.players.present(state) if p["name"] != judge],
            )

    @action("cfj")
    def on_cfj(self, state: GameState, action: Action, ctx: Ctx) -> None:
        # Journaled by the handler: older journals named the asker, and replay as they were.
        asker = action["player"] if action.get("asker_not_judge") else None
        judge = self.judge_for(state, asker)
        if judge is None:
            raise Refused("no_judge_yet")
        cfj, sidekick = cast("JudgementAction", action), cast("SidekickState", state)
        number = sidekick["next_judgement"]
        sidekick["next_judgement"] += 1
        j: Matter = {
            "number": number,
            "kind": "cfj",
            "question": cfj["question"],
            "detail": cfj.get("text", ""),
            "by": cast(str, action["player"]),  # a CfJ is a player's
            "judge": judge,
            "status": "open",
            "ruling": None,
            "opened": iso(ctx.now),
        }
        if asker is not None:
            j["asker_not_judge"] = True
        state["judgements"].append(j)
        ctx.ack(f"Judgement {number} is open; the judge is {judge} (rule 17).")
        self.game.event(
            state,
            ctx,
            f"{action['player']} asked judgement {number}: {j['question']} (judge {judge}).",
        )
        ctx.send(
            "judge",
            [judge],
            f"[Judgement {number}] You are the judge: {j['question']}",
            "judge.txt",
            game=state,
            judgement=j,
            opens=True,
        )
        # The judge's own mail says all the announcement says: one mail for one judgement (SPEC
        # §2.6).
        self.game.announce(
            state,
            ctx,
            f"[Judgement {number}] {j['question']}",
            [
                f"{action['player']} asks: {j['question']}",
                *([""] + j["detail"].splitlines() + [""] if j["detail"] else []),
                f"The judge is {judge} (rule 17), who answers with a mail [Ruling] {number}.",
            ],
            to=[p["name"] for p in self.game.players.present(state) if p["name"] != judge],
            opens=True,
        )

    @action("ruling")
    def on_ruling(self, state: GameState, action: Action, ctx: Ctx) -> None:
        ruled = cast("OtherAction", action)
        j = next((x for x in state["judgements"] if x["number"] == ruled["number"]), None)
        if j is None:
            raise Refused("no_judgement", number=ruled["number"])
        if j["status"] != "open":
            raise Refused("judgement_decided", number=j["number"])
        if j["judge"] != action["player"] and not ctx.rerun:
            # Replayed by an undo, a ruling stands as it was made (docs/decisions/judgements.md).
            raise Refused("not_the_judge", number=j["number"], judge=j["judge"])
        ruling = ruled.get("text", "").strip()
        if not ruling:
            raise Refused("ruling_needs_answer")
        j.update({"status": "decided", "ruling": ruling, "decided": iso(ctx.now)})
        effects, changes = ruled.get("effects") or [], changes_from(ruled.get("changes") or [])
        held = self.past_penalty(state, effects) if ruled.get("bounded") else []
        effects = [e for e in effects if e not in held]
        by = f"judgement {j['number']}"
        done = self.game.court.carry_out(state, ctx, effects, by, strict=True)
        ctx.ack(f"Your ruling on judgement {j['number']} is recorded and announced.")
        self.game.event(state, ctx, f"{j['judge']} ruled on judgement {j['number']}.")
        if changes:  # rule 17: "All necessary changes, based on the decision of the Judge"
            problem = self.game.enactment.cannot_apply(state, changes)
            if problem:
                raise Refused("ruling_cannot_apply", why=problem)
            self.game.enactment.enact_changes(
                state, ctx, changes, by, f"Ruling on judgement {j['number']}"
            )
        self.game.announce(
            state,
            ctx,
            f"[Judgement {j['number']}] Ruling by {j['judge']}",
            [f"Question: {j['question']}", "Ruling:", *ruling.splitlines()],
        )
        mail = ctx.out[-1]
        ordered = self.game.court.order_undos(ctx, effects, by, strict=True, mail=mail)
        if not ordered and done:
            mail.vars["lines"] += ["", "What the ruling changes:", *done]
            for line in done:
                ctx.ack(line)
        if held:
            self.hold_for_gm(state, ctx, j, held, mail)
        elif not effects and not changes:
            ctx.alert(
                f"Judgement {j['number']} was ruled by {j['judge']} with no effect lines: apply "
                "its effects (penalties of rule 4, reversals). By mail, reply to this alert "
                "with [Score] NAME +N for a score, [Rule] and the rule changes for a rule, or "
                "[Undo] and the journal entries (the game's journal page numbers them) for a "
                "reversal; or on the host: `mailref score` / `mailref rule` / `mailref undo`.",
                f"apply the ruling of judgement {j['number']}",
            )

    def past_penalty(self, state: GameState, effects: list) -> list:
        """The score lines of EFFECTS beyond rule 4's penalty either way (`penalty`): no ruling
        of one judge gives more than the rules do without the GM."""
        most = abs(int(str(self.game.parameter(state, "penalty"))))
        return [e for e in effects if "score" in e and abs(int(e["amount"])) > most]

    def hold_for_gm(self, state: GameState, ctx: Ctx, j: Matter, held: list, mail: Any) -> None:
        """HELD score lines of the ruling J wait for the GM, who applies them with `mailref
        score`; the announcement and the judge say so."""
        most = abs(int(str(self.game.parameter(state, "penalty"))))
        lines = [f"Score {e['score']} {int(e['amount']):+d}" for e in held]
        j["held"] = lines
        said = (
            f"Held for the GM: {', '.join(lines)} (more than rule 4's penalty of {most} points "
            "either way; the GM applies it if it stands)."
        )
        mail.vars["lines"] += ["", said]
        ctx.ack(said)
        ctx.alert(
            f"Judgement {j['number']}, ruled by {j['judge']}, gives {', '.join(lines)}: more "
            f"than rule 4's penalty of {most} points either way, so it waits for you. If it "
            "stands, apply it by mail: reply to this alert with "
            + "; ".join(f"[Score] {e['score']} {int(e['amount']):+d}" for e in held)
            + (" (one mail each)" if len(held) > 1 else "")
            + "; or on the host: "
            + "; ".join(
                f"`mailref score {state['slug']} {e['score']} {int(e['amount']):+d}`" for e in held
            )
            + ".",
            f"a ruling's score waits for the GM (judgement {j['number']})",
        )
