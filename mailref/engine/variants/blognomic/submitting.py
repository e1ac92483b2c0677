"""What Wizards post in BlogNomic: proposals (with their tags and rule numbers), CfJs and
DoVs, withdrawals, and votes on any of them."""

from __future__ import annotations

from typing import Any, cast

from mailref.engine import matters
from mailref.engine.context import Ctx, Refused
from mailref.engine.court import describe as effect_words
from mailref.engine.mechanics.proposals import Proposals
from mailref.engine.ruleset import changes_from, find_rule, plain, sort_key
from mailref.engine.state import (
    Action,
    BlogNomicState,
    GameState,
    JudgementAction,
    Matter,
    OtherAction,
    ProposalAction,
)
from mailref.engine.variants.actions import action
from mailref.timeutil import parse_held_iso


class Submitting(Proposals):
    """Posting votable matters, and BlogNomic's hooks of the proposal lifecycle."""

    # The BlogNomic game, read through its own components (Wizards, Hiatus, Resolution), as
    # its dynasties read it (dynasty.py).
    game: Any

    @action("propose")
    def on_propose(self, state: GameState, action: Action, ctx: Ctx) -> None:
        move = cast("ProposalAction", action)
        author = cast(str, move["player"])  # the sender's: only a Wizard proposes
        self.game.wizards.must_be_wizard(state, author, "submit a Proposal")
        if why := self.game.hiatus.hiatus_reason(state, ctx.now):
            raise Refused("no_proposals_in_hiatus", why=why)
        if self.game.hiatus.dormant(state):
            raise Refused("dormant", least=state["parameters"]["dormant_below"])
        matters.must_not_repeat(
            state["proposals"],
            author,
            move["title"],
            move["text"],
            ("pending",),
            zone=state.get("timezone") or "UTC",
            withdraw=True,  # the answer says to withdraw it and propose it again
        )
        mine = [p for p in state["proposals"] if p["author"] == author]
        if sum(p["status"] == "pending" for p in mine) >= state["parameters"]["max_pending"]:
            raise Refused("pending_limit", most=state["parameters"]["max_pending"])
        today = ctx.now.strftime("%Y-%m-%d")
        if sum(p["opened"].startswith(today) for p in mine) >= state["parameters"]["max_per_day"]:
            raise Refused("proposals_per_day", most=state["parameters"]["max_per_day"])
        changes = self.numbered(state, changes_from(move["changes"]))
        self.check_tags(state, move["title"], changes)
        # The author's vote is FOR until they vote (the policy's author_vote).
        prop = self.submit(
            state,
            ctx,
            author,
            move["title"],
            move["text"],
            changes=[c.as_dict() for c in changes],
            self_killed=False,
            vetoed=False,
            reminded=False,
        )
        ctx.ack(
            f"Proposal {prop['number']} \"{prop['title']}\" is pending; quorum is "
            f"{self.game.quorum(state)}."
        )
        self.game.enactment.ack_changes(ctx, changes)
        if not changes:
            ctx.ack("  (no rule changes recognised: if enacted, the GM applies it by hand)")
        # Not refused: a proposal pending before it may yet make its changes fit. But its author
        # and the voters learn now, not at enactment, that as things stand nothing of it would
        # apply.
        warning = ""
        if changes and (problem := self.game.enactment.cannot_apply(state, changes)):
            warning = (
                f"As the ruleset reads now, these changes cannot apply: {problem}. Enacted so, "
                "none of "
                "them would be applied (the GM would be asked to correct the ruleset)."
            )
            ctx.ack(
                f"  Note: {warning} To correct it, send [Withdraw] {prop['number']} and propose "
                "it again."
            )
        self.game.event(state, ctx, f"{author} proposed {prop['number']} \"{prop['title']}\".")
        self.announce_proposal(
            state,
            ctx,
            prop,
            changes,
            self.electorate(state, prop),
            warning=warning,
            timing=self.game.resolution.decided_by(state, prop, ctx),
        )
        self.game.resolution.resolve(state, ctx)

    def numbered(self, state: GameState, changes: list) -> list:
        """A new rule whose place is not named goes at the end of the Dynastic Rules. The number
        is the next free one when the matter is enacted (renumbered then): two pending proposals
        each enacting a new rule are both shown 2.20 now, and the later one becomes 2.21."""
        last = max(
            [sort_key(r["number"])[1] for r in state["rules"] if r["number"].startswith("2.")] + [0]
        )
        for c in changes:
            if c.kind == "enact" and (c.placed or not c.number):
                last += 1
                c.number, c.placed = f"2.{last}", True
        return changes

    def check_tags(self, state: GameState, title: str, changes: list) -> None:
        """Rule "Tags": "Votable Matters require the [Core] tag in order to make changes to the
        Core Rules, and the [Appendix] tag in order to make changes to the Appendix Rules."
        """
        if not self.game.hiatus.special_active(state, "Tags"):
            return
        need: dict[str, list[str]] = {}
        for c in changes:
            if c.kind == "enact":
                number = c.number or ""
            else:
                rule = find_rule(plain(state["rules"]), c)
                number = rule["number"] if rule else (c.number or "")
            section = number.split(".")[0]
            if section in self.TAGGED:
                need.setdefault(self.TAGGED[section], []).append(number)
        for tag, numbers in need.items():
            if f"[{tag.lower()}]" not in title.lower():
                raise Refused("needs_section_tag", tag=tag, numbers=numbers, title=title)

    TAGGED = {"1": "Core", "4": "Appendix"}

    @action("cfj")
    def on_cfj(self, state: GameState, action: Action, ctx: Ctx) -> None:
        self._new_judgement(state, action, ctx, "cfj")

    @action("dov")
    def on_dov(self, state: GameState, action: Action, ctx: Ctx) -> None:
        bn = cast("BlogNomicState", state)  # BlogNomic's own keys
        author = cast(str, action["player"])  # the sender's: only a Wizard declares
        self.game.wizards.must_be_wizard(state, author, "declare victory")
        if author == bn["historian"]:
            raise Refused("historian_cannot_declare")
        if bn["ascension_pending"]:
            raise Refused("no_dov_before_ascension")
        if self.game.hiatus.downtime(state, ctx.now):
            raise Refused("dov_in_downtime", downtime=self.game.hiatus.downtime_text(state))
        until = bn["dov_cooldown"].get(author)
        if until and ctx.now < parse_held_iso(until):
            raise Refused("dov_cooldown", until=self.game.deadlines.when(state, until, ctx))
        self._new_judgement(state, action, ctx, "dov")

    def _new_judgement(self, state: GameState, action: Action, ctx: Ctx, kind: str) -> None:
        asked = cast("JudgementAction", action)
        author = cast(str, asked["player"])  # the sender's: only a Wizard asks
        self.game.wizards.must_be_wizard(
            state, author, "raise a Call for Judgement" if kind == "cfj" else "declare victory"
        )
        matters.must_not_repeat(
            [j for j in state["judgements"] if j["kind"] == kind],
            author,
            asked["question"],
            asked.get("text", ""),
            ("pending",),
            "CfJ" if kind == "cfj" else "DoV",
            state.get("timezone") or "UTC",
        )
        changes = self.numbered(state, changes_from(asked.get("changes", [])))
        self.check_tags(state, asked["question"], changes)
        m = self.submit(
            state,
            ctx,
            author,
            asked["question"],
            asked.get("text", ""),
            collection="judgements",
            reminded=False,
            kind=kind,
            question=asked["question"],
            by=author,
            judge=None,
            ruling=None,
            changes=[c.as_dict() for c in changes],
            effects=list(asked.get("effects") or []) if kind == "cfj" else [],
        )
        label = self.game.label(m)
        ctx.ack(
            f"{label} {m['number']} \"{m['question']}\" is pending; "
            f"quorum is {self.game.quorum(state)}."
        )
        if m["effects"]:
            ctx.ack("Its effect lines, carried out if it is enacted:")
            for e in m["effects"]:
                ctx.ack("  " + effect_words(e))
        self.game.event(state, ctx, f"{author} raised {label} {m['number']}: {m['question']}.")
        lines = [
            f"{label} {m['number']} by {author}: {m['question']}",
            *([""] + m["text"].splitlines() if m["text"].strip() else []),
            "",
            f"Reply with FOR, AGAINST or DEFERENTIAL. Quorum is {self.game.quorum(state)}.",
        ]
        lines[-1:-1] = [self.game.resolution.decided_by(state, m, ctx), ""]
        if kind == "dov":
            lines.insert(1, "The game is in Hiatus while this DoV is pending.")
        self.game.announce(
            state,
            ctx,
            f"[{label} {m['number']}] {m['question']}",
            lines,
            opens=True,
            words=list(self.policy.offered),
        )
        self.game.resolution.resolve(state, ctx)

    @action("withdraw")
    def on_withdraw(self, state: GameState, action: Action, ctx: Ctx) -> None:
        withdrawn = cast("OtherAction", action)
        m = matters.must_open(
            matters.find(state, withdrawn["number"]), withdrawn["number"], ("pending",)
        )
        if m["author"] != withdrawn["player"]:
            raise Refused("not_your_proposal", number=m["number"], author=m["author"])
        # BlogNomic's withdrawal is the author's self-kill (rule "Special Proposal Voting"); rule
        # "Resolution of Proposals" fails only the oldest pending proposal
        # (docs/games/blognomic.md).
        m["self_killed"], m["withdrawn"] = True, True
        self.game.resolution.resolve(state, ctx)
        if m["status"] == "pending":
            ctx.ack(
                f"Proposal {m['number']} is withdrawn: it is Self-Killed and fails once it is the "
                "oldest "
                "pending proposal (rule \"Resolution of Proposals\"); until then it is pending "
                "and counts "
                f"toward your {state['parameters']['max_pending']} pending proposals (rule "
                "\"Proposals\")."
            )
        else:
            ctx.ack(f"Proposal {m['number']} is withdrawn.")

    # ---- the proposal lifecycle's hooks (mechanics/proposals.py) ---------------------
    def electorate(self, state: GameState, m: Matter) -> list[str]:
        # "A non-Wizard never has a Vote": Wizards, the author among them.
        return self.game.wizards.names(state)

    def may_vote(self, state: GameState, name: str) -> None:
        if name not in self.game.wizards.names(state):
            raise Refused("idle_not_counted")

    def voting_matter(self, state: GameState, number: int) -> Matter | None:
        return self.game.find_matter(state, number)

    def label_of(self, m: Matter | None) -> str:
        return self.game.label(m) if m else "matter"

    def heading_of(self, m: Matter) -> str:
        return self.game.label(m)

    def check_ballot(self, state: GameState, m: Matter, name: str, vote: str) -> None:
        historian = cast("BlogNomicState", state)["historian"]
        if vote == "VETO" and (name != historian or self.game.label(m) != "Proposal"):
            raise Refused("only_historian_vetoes")

    def after_ballot(self, state: GameState, m: Matter, name: str, vote: str, ctx: Ctx) -> None:
        label = self.game.label(m)
        if (
            label == "Proposal"
            and name == m["author"]
            and vote == "AGAINST"
            and not m["self_killed"]
            and self.game.parameter_table.value(state["parameters"], "self_kill") == "kills"
        ):
            m["self_killed"] = True
            ctx.ack(
                'Your AGAINST on your own proposal self-kills it (rule "Special Proposal Voting").'
            )
        if vote == "DEFERENTIAL" and not cast("BlogNomicState", state)["historian"]:
            ctx.ack(
                "A DEFERENTIAL vote follows the Historian's, and there is no Historian (the "
                "Metadynasty): it follows nobody, so it counts for nothing and an earlier vote "
                "of yours stands."
            )
        if vote == "VETO" and not m.get("vetoed"):
            m["vetoed"] = True
            ctx.ack(f"Proposal {m['number']} is Vetoed.")
        elif not m.get("self_killed") and not m.get("vetoed"):  # where it stands, decided when
            ctx.ack(f"{label} {m['number']}: " + self.game.outlook(state, m, ctx.now))

    def after_votes(self, state: GameState, ctx: Ctx) -> None:
        self.game.resolution.resolve(state, ctx)

    def settle(self, state: GameState, m: Matter, ctx: Ctx) -> None:
        self.game.resolution.resolve(state, ctx)

    def decided_by_admin(self, state: GameState, m: Matter, action: OtherAction, ctx: Ctx) -> None:
        status = "enacted" if action["outcome"] == "enact" else "failed"
        who = "the GM" if action.get("gm") else "the admin"  # the GM's [Decide] by mail
        reason = {"enact": f"enacted by {who}", "fail": f"failed by {who}", "veto": "vetoed"}[
            action["outcome"]
        ]
        ctx.ack(f"{self.game.label(m)} {m['number']}: {reason}.")
        self.game.resolution.close(
            state,
            m,
            ctx,
            status,
            reason,
            note=f"{'GM' if action.get('gm') else 'Admin'}: {action['reason']}"
            if action.get("reason")
            else "",
            by_hand=True,
        )
