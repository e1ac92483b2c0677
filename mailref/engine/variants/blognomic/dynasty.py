"""BlogNomic's dynasties: an enacted DoV makes its author Historian, who may pass the role
on and then makes the Ascension Address that starts the new dynasty."""

from __future__ import annotations

import re
from typing import Any, cast

from mailref.engine.context import Ctx, Refused
from mailref.engine.state import Action, BlogNomicState, GameState, Matter, OtherAction
from mailref.engine.variants.actions import action
from mailref.timeutil import iso

# The subject of the new Historian's own mail; a plain Reply to it is the Ascension Address.
ASCENSION_ASK = "[Ascension] Your Ascension Address as Historian of dynasty {n}"


class Dynasties:
    """Victory, the Historian, and the Ascension Address: held by the game as `dynasty`."""

    def __init__(self, game: Any) -> None:
        self.game = game

    def after_dov(self, state: GameState, dov: Matter, ctx: Ctx) -> None:
        bn = cast("BlogNomicState", state)  # BlogNomic's own keys
        if dov["status"] == "enacted":
            # The new dynasty's Hiatus holds before the other DoVs fail, so their failing never
            # announces a false "Hiatus ends" while the Ascension Address is awaited.
            for p in state["players"]:
                if "historian" in p["offices"]:
                    p["offices"].remove("historian")
            if self.game.parameter_table.value(state["parameters"], "dov_historian") == "none":
                self.metadynasty_after(state, dov, ctx)
                return
            winner = self.game.players.player(state, dov["author"])
            winner["offices"].append("historian")
            bn.update(
                {
                    "historian": winner["name"],
                    "dynasty": bn["dynasty"] + 1,
                    "ascension_pending": True,
                    "winners": [winner["name"]],
                }
            )
            for other in state["judgements"]:
                if other["kind"] == "dov" and other["status"] == "pending":
                    self.game.resolution.close(
                        state, other, ctx, "failed", "another DoV was enacted"
                    )
            text = (
                f"{winner['name']} wins the dynasty and is the Historian of dynasty "
                f"{bn['dynasty']}. "
                "The Hiatus continues until their Ascension Address ([Ascension] Theme)."
            )
            self.game.event(state, ctx, text)
            others = [
                p["name"] for p in self.game.players.present(state) if p["name"] != winner["name"]
            ]
            self.game.announce(
                state,
                ctx,
                f"A new dynasty: {winner['name']} is Historian",
                [text],
                kind="results",
                to=others,
            )
            # The winner's own mail asks for the address, tagged so that a plain Reply is it (as the
            # Emperor's judge mail is).
            ctx.send(
                "turn",
                [winner["name"]],
                ASCENSION_ASK.format(n=bn["dynasty"]),
                "notice.txt",
                game=state,
                heading=text,
                lines=[
                    "Reply to this mail with your Ascension Address: a line `Theme: your theme`, "
                    "the words of "
                    "the address for the Wizards, and as you wish `Wizard: NewWord`, `Historian: "
                    "NewWord`, "
                    "`Keep: 2.3, 2.5` (the dynastic rules to keep; the others are repealed), "
                    "`Inactive: Dormancy`.",
                    '(Or send a mail with the subject "[Ascension] Your theme"; to pass the role '
                    "on first, "
                    '"[Historian] Name".)',
                ],
            )
            return
        # "A non-Wizard never has a Vote": an AGAINST of one who has since idled or left is none.
        if "AGAINST" in self.game.wizards.effective_votes(state, dov).values():
            bn["dov_cooldown"][dov["author"]] = iso(
                ctx.now + self.game.deadlines.duration(state, "dov_cooldown")
            )
        if not self.game.hiatus.hiatus_reason(state, ctx.now):
            self.game.announce(state, ctx, "Hiatus ends", ["No DoV is pending: the Hiatus ends."])

    def metadynasty_after(self, state: GameState, dov: Matter, ctx: Ctx) -> None:
        """Rule 1.12 reworded so that "a new Dynasty begins with no Historian": the DoV's author
        wins, nobody becomes Historian, no Ascension Address is awaited, and the Hiatus ends."""
        bn = cast("BlogNomicState", state)  # BlogNomic's own keys
        bn.update(
            {
                "historian": None,
                "dynasty": bn["dynasty"] + 1,
                "ascension_pending": False,
                "winners": [dov["author"]],
            }
        )
        for other in state["judgements"]:
            if other["kind"] == "dov" and other["status"] == "pending":
                why = "another DoV was enacted"
                self.game.resolution.close(state, other, ctx, "failed", why)
        text = (
            f"{dov['author']} wins the dynasty. Dynasty {bn['dynasty']} begins with no "
            "Historian (rule 1.12 as it now reads): a Metadynasty, and the Hiatus ends."
        )
        self.game.event(state, ctx, text)
        self.game.announce(
            state, ctx, f"A new dynasty: {dov['author']} wins", [text], kind="results"
        )

    @action("historian")
    def on_historian(self, state: GameState, action: Action, ctx: Ctx) -> None:
        """Rule "Victory and Ascension": "That Wizard may pass this role to another Wizard at this
        point by making a post to that effect, if they wish": after the DoV, before the Address."""
        bn = cast("BlogNomicState", state)  # BlogNomic's own keys
        act = cast("OtherAction", action)
        if not bn["ascension_pending"] or act["player"] != bn["historian"]:
            raise Refused("only_new_historian_passes")
        to = self.game.players.must_player(state, act["to"])
        if to["name"] == act["player"]:
            raise Refused("historian_already")
        self.game.wizards.must_be_wizard(state, to["name"], "become Historian")
        self.game.players.player(state, act["player"])["offices"].remove("historian")
        to["offices"].append("historian")
        bn["historian"] = to["name"]
        text = (
            f"{act['player']} passes the role of Historian to {to['name']}, who makes the "
            "Ascension Address "
            "([Ascension] Theme); the Hiatus continues until then."
        )
        ctx.ack(text)
        self.game.event(state, ctx, text)
        self.game.announce(state, ctx, f"{to['name']} is the new Historian", [text])

    @action("ascension")
    def on_ascension(self, state: GameState, action: Action, ctx: Ctx) -> None:
        bn = cast("BlogNomicState", state)  # BlogNomic's own keys
        act = cast("OtherAction", action)
        if not bn["ascension_pending"] or act["player"] != bn["historian"]:
            raise Refused("only_new_historian_ascends")
        if self.game.hiatus.downtime(state, ctx.now):
            raise Refused(
                "ascension_waits_downtime", downtime=self.game.hiatus.downtime_text(state)
            )
        fields = act.get("fields", {})
        renames = {
            bn["terms"]["player"]: fields.get("wizard")
            or fields.get(bn["terms"]["player"].lower()),
            bn["terms"]["leader"]: fields.get("historian")
            or fields.get(bn["terms"]["leader"].lower()),
        }
        keep = {
            k.strip().strip('"') for k in re.split(r"[,;]", fields.get("keep", "")) if k.strip()
        }
        inactive = {
            k.strip().strip('"').lower()
            for k in re.split(r"[,;]", fields.get("inactive", ""))
            if k.strip()
        }
        kept, repealed = [], []
        rules = []
        for r in state["rules"]:
            if r["number"].startswith("2.") and r["number"] not in keep and r["title"] not in keep:
                repealed.append(f"{r['number']} {r['title']}")
                continue
            if r["number"].startswith("3.") and "[" in r["title"]:
                base = r["title"].split("[")[0].strip()
                r["title"] = f"{base} [{'Inactive' if base.lower() in inactive else 'Active'}]"
            if r["number"].startswith("2."):
                kept.append(f"{r['number']} {r['title']}")
            rules.append(r)
        for old, new in renames.items():
            if new and new != old:
                for r in rules:
                    r["text"] = re.sub(rf"\b{old}(s?)\b", rf"{new}\1", r["text"])
                    r["title"] = re.sub(rf"\b{old}(s?)\b", rf"{new}\1", r["title"])
                key = "player" if old == bn["terms"]["player"] else "leader"
                bn["terms"][key] = new
        state["rules"] = rules
        state["rule_history"] += [
            {"rule": x.split()[0], "change": "repeal", "by": "ascension", "at": iso(ctx.now)}
            for x in repealed
        ]
        bn.update({"theme": act["theme"], "ascension_pending": False, "winners": []})
        ctx.ack(f"Ascension Address recorded: dynasty {bn['dynasty']}, theme \"{act['theme']}\".")
        diff = [f"- Rule {x} (repealed: not kept)" for x in repealed] + [
            f"= Rule {x} (kept)" for x in kept
        ]
        diff += [f"~ the term {o} is now {n}" for o, n in renames.items() if n and n != o]
        self.game.event(state, ctx, f"Ascension Address: theme {act['theme']}.")
        self.game.mail_ruleset(
            state,
            ctx,
            f"Dynasty {bn['dynasty']} begins: {act['theme']}",
            diff,
            address=(
                f"The Ascension Address of {act['player']}:\n\n{act['text']}"
                if act.get("text")
                else ""
            ),
            whole=True,  # a new dynasty's rules are a new game's: each player gets them whole
        )
        self.game.resolution.resolve(state, ctx)
