"""Imperial Nomic's proposals, the Senate's vote and the Emperor's judgement
of what passes."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Protocol, cast

from mailref.engine import matters
from mailref.engine.context import Ctx, Refused
from mailref.engine.mechanics import voting
from mailref.engine.mechanics.proposals import Proposals, ProposalsHost, Voters
from mailref.engine.ruleset import (
    RuleConflict,
    changes_from,
    check_changes,
    plain,
    sort_key,
)
from mailref.engine.state import (
    Action,
    GameState,
    Matter,
    OtherAction,
    ProposalAction,
    Rule,
)
from mailref.engine.variants.actions import action
from mailref.timeutil import iso, parse_held_iso

if TYPE_CHECKING:
    from mailref.engine.ruleparams import Table
    from mailref.engine.variants.deadlines import Deadlines
    from mailref.engine.variants.enactment import Enactment

UNDECIDED = ("voting", "awaiting-judgement")


class ImperialHost(ProposalsHost, Protocol):
    """What Imperial's proposals ask of the game besides what the lifecycle asks: the Emperor
    and the Senate, its components as they are, its parameter table and announcements."""

    parameter_table: Table

    @property
    def players(self) -> Voters: ...

    @property
    def deadlines(self) -> Deadlines: ...

    @property
    def enactment(self) -> Enactment: ...

    def emperor(self, state: GameState) -> str | None: ...

    def senators(self, state: GameState) -> list[str]: ...

    def make_senator(self, state: GameState, name: str, ctx: Ctx) -> None: ...

    def rules_for_display(self, state: GameState) -> list[Rule]: ...

    def announce(self, state: GameState, ctx: Ctx, subject: str, lines: list[str]) -> None: ...


class ImperialProposals(Proposals):
    """Imperial's proposals, the Senate's vote and the Emperor's judgement."""

    game: ImperialHost

    def __init__(self, game: ImperialHost) -> None:
        super().__init__(game)

    # ---- proposals ---------------------------------------------------------------
    @action("propose")
    def on_propose(self, state: GameState, action: Action, ctx: Ctx) -> None:
        move = cast("ProposalAction", action)
        author = cast(str, move["player"])  # the sender's: only a player proposes
        if not move["title"].strip():
            raise Refused("untitled_proposal")
        # Before rule 12's replacement: a copy sent again must not replace the author's oldest.
        matters.must_not_repeat(
            state["proposals"],
            author,
            move["title"],
            move["text"],
            UNDECIDED,
            zone=state.get("timezone") or "UTC",
        )
        changes = changes_from(move["changes"])
        try:
            check_changes(plain(state["rules"]), changes, state["rule_history"])
        except RuleConflict as e:
            raise Refused("changes_cannot_apply", why=e) from None
        self.game.make_senator(state, author, ctx)
        undecided = [
            p for p in state["proposals"] if p["author"] == author and p["status"] in UNDECIDED
        ]
        replaced = None
        # Rule 12 replaces the oldest; repealed, nothing is replaced.
        if (
            self.game.enactment.in_force(state, "max_undecided")
            and len(undecided) >= state["parameters"]["max_undecided"]
        ):
            replaced = undecided[0]
            replaced.update(
                {
                    "status": "replaced",
                    "reason": f"replaced by a newer proposal of {author}",
                    "closed": iso(ctx.now),
                    "deadline": None,
                }
            )
        deadline = ctx.now + self.game.deadlines.duration(state, "vote_period")
        prop = self.submit(
            state, ctx, author, move["title"], move["text"], deadline, changes=move["changes"]
        )
        prop["vote_period"] = state["parameters"]["vote_period"]  # rule 6 as it reads at submission
        ctx.ack(
            f"Proposal {prop['number']} \"{prop['title']}\" is posted; Senators vote YES or NO "
            f"until {self.game.deadlines.when(state, prop['deadline'], ctx)}."
        )
        self.game.enactment.ack_changes(ctx, changes)
        if replaced:
            ctx.ack(
                f"It replaces your oldest undecided proposal, {replaced['number']} "
                f"\"{replaced['title']}\"."
            )
        self.game.event(
            state,
            ctx,
            f"{author} proposed {prop['number']} \"{prop['title']}\""
            + (f", replacing {replaced['number']}" if replaced else "")
            + ".",
        )
        self.announce_proposal(
            state,
            ctx,
            prop,
            changes,
            self.electorate(state, prop),
            # Rule 6: only "other Imperial Senators" vote; a player who is none is told so here
            # rather than by a refused ballot.
            who_votes=f"Senators other than {author}",
            who_votes_note="Players who are not Senators do not vote: a player becomes a Senator "
            + (
                "only by the Emperor's Directive (rule 3)."
                if self.by_directive(state)
                else "with their first proposal or Point of Order (rule 3)."
            ),
            # The voters learn that the replaced one takes no more votes (rule 12).
            warning=(
                f"It replaces {author}'s oldest undecided proposal, {replaced['number']} "
                f"\"{replaced['title']}\", which takes no more votes (rule 12)."
            )
            if replaced
            else "",
        )

    def electorate(self, state: GameState, prop: Matter) -> list[str]:
        # Rule 6: "other Imperial Senators may send in a vote".
        return [n for n in self.game.senators(state) if n != prop["author"]]

    def may_vote(self, state: GameState, name: str) -> None:
        if name not in self.game.senators(state):
            raise Refused("only_senators_vote", by_directive=self.by_directive(state))

    def by_directive(self, state: GameState) -> bool:
        """Whether rule 3 now makes Senators only by the Emperor's Directive (never quoted as it
        first read once it no longer does)."""
        return self.game.parameter_table.value(state["parameters"], "senators") == "directive"

    def authors_ballot(self, state: GameState, prop: Matter, vote: str, ctx: Ctx) -> None:
        raise Refused("senators_vote_on_yours", number=prop["number"])

    def after_ballot(self, state: GameState, prop: Matter, name: str, vote: str, ctx: Ctx) -> None:
        self.game.players.tell_away_voter(state, name, ctx)

    def before_deciding(self, state: GameState) -> None:
        # The admin judges in the Emperor's name (an absent Emperor must not stall the game).
        if not self.game.emperor(state):
            raise Refused("no_emperor")

    def decided_by_admin(
        self, state: GameState, prop: Matter, action: OtherAction, ctx: Ctx
    ) -> None:
        prop["status"] = "awaiting-judgement"
        verdict = {"enact": "ACCEPT", "fail": "VETO", "veto": "VETO"}[action["outcome"]]
        self.on_judge(
            state,
            {
                "player": self.game.emperor(state),
                "number": prop["number"],
                "verdict": verdict,
                "reason": action.get("reason", ""),
            },
            ctx,
        )

    def close_vote(self, state: GameState, prop: Matter, ctx: Ctx, late: str = "") -> None:
        # Seed: "other Imperial Senators may send in a vote" and "there is a majority of Imperial
        # Senators who have sent in a vote of YES": the majority is of those entitled to vote,
        # every Senator but the author (SPEC §5.3).
        voters = self.electorate(state, prop)
        outcome = voting.count(self.policy_in(state), prop["votes"], voters)
        passed, yes, no = outcome.passes, outcome.counts["YES"], outcome.counts["NO"]
        # Not closed yet where it passes: the Emperor's judgement closes it (rule 7).
        self.record_outcome(
            prop,
            passed,
            None
            if passed
            else "no majority of the Senators entitled to vote voted YES"
            if self.policy_in(state).majority == "majority"
            else "no Senator entitled to vote voted YES",
            outcome.counts,
            ctx,
            final=False,
        )
        lines = [
            f"Proposal {prop['number']} \"{prop['title']}\": YES {yes}, NO {no} of {len(voters)} "
            f"Senator{'' if len(voters) == 1 else 's'} entitled to vote (all but the author).",
            (
                "A majority of them voted YES: it goes to the Emperor for judgement."
                if passed
                else "No majority of them voted YES: it is rejected."
            )
            if self.policy_in(state).majority == "majority"
            else (
                "One YES suffices (rule 6): it goes to the Emperor for judgement."
                if passed
                else "Not one of them voted YES: it is rejected."
            ),
        ]
        if late:
            lines.append(late)
        self.game.event(
            state, ctx, lines[0] + (" Passed to the Emperor." if passed else " Rejected.")
        )
        # The Emperor's own mail ("awaiting your judgement") carries the result: one mail (SPEC
        # §2.6).
        emperor = self.game.emperor(state) if passed else None
        to = (
            [p["name"] for p in self.game.players.present(state) if p["name"] != emperor]
            if emperor
            else "all"
        )
        ctx.send(
            "results",
            to,
            f"[Proposal {prop['number']}] {'TO THE EMPEROR' if passed else 'REJECTED'}: "
            f"{prop['title']}",
            "notice.txt",
            game=state,
            heading=lines[0],
            lines=lines[1:],
        )
        if passed:
            prop["awaiting_since"] = iso(ctx.now)
            self.ask_emperor(state, prop, ctx, result=lines)

    def after_reopen(self, state: GameState, prop: Matter, ctx: Ctx) -> None:
        """A rejection the GM reversed awaits judgement: the Emperor is asked at once, as when
        the Senate passes a proposal."""
        if prop["status"] == "awaiting-judgement":
            prop["awaiting_since"] = iso(ctx.now)
            self.ask_emperor(state, prop, ctx)

    def ask_emperor(
        self,
        state: GameState,
        prop: Matter,
        ctx: Ctx,
        reminder: bool = False,
        result: list[str] | None = None,
    ) -> None:
        emperor = self.game.emperor(state)
        prop["last_reminded"] = iso(ctx.now)
        if emperor is None:
            ctx.alert(
                f"Proposal {prop['number']} awaits judgement but the office of Emperor is vacant "
                "(to name one, reply to this alert with [Office] emperor NAME, or on the host: "
                "`mailref office SLUG emperor NAME`).",
                f"proposal {prop['number']} awaits judgement and there is no Emperor",
            )
            return
        ctx.send(
            "reminder" if reminder else "judge",
            [emperor],
            # Tagged [Judge N], so that the Emperor's plain Reply is the judgement, not a ballot.
            f"[Judge {prop['number']}] {'Reminder: ' if reminder else ''}awaiting your judgement: "
            f"{prop['title']}",
            "notice.txt",
            game=state,
            act=f'a mail with the subject "[Judge] {prop["number"]}" and '
            + ("ACCEPT, VETO, or IGNORE " if self.may_veto(state) else "ACCEPT or IGNORE ")
            + "followed by the rule that allows ignoring it.",
            heading=f"Proposal {prop['number']} \"{prop['title']}\" by {prop['author']}",
            lines=[
                *(result + [""] if result else []),
                prop["text"],
                "",
                "Reply to this mail with ACCEPT, "
                + ("VETO, " if self.may_veto(state) else "")
                + "or IGNORE followed by the rule that allows "
                f"ignoring it (or send a mail \"[Judge] {prop['number']}\" with it in the body).",
            ],
        )

    def may_veto(self, state: GameState) -> bool:
        """Rule 7 "accept, veto or ignore": reworded to name no veto (and in force), the
        Emperor's VETO is refused, citing the rule as it now reads."""
        return self.game.parameter_table.value(
            state["parameters"], "veto"
        ) == "allowed" or not self.game.enactment.in_force(state, "veto")

    @action("judge")
    def on_judge(self, state: GameState, action: Action, ctx: Ctx) -> None:
        judged = cast("OtherAction", action)
        if judged["player"] != self.game.emperor(state):
            raise Refused("only_emperor_judges")
        prop = matters.find(state, judged["number"])
        if prop is None or prop["status"] != "awaiting-judgement":
            raise Refused(
                "not_awaiting_judgement",
                number=judged["number"],
                status=prop["status"] if prop else None,
            )
        verdict, reason = judged["verdict"], judged.get("reason", "").strip()
        if verdict == "VETO" and not self.may_veto(state):
            number = self.game.enactment.stating_param(state, "veto").rule
            rule = next(r for r in state["rules"] if str(r["number"]) == number)
            raise Refused("emperor_has_no_veto", text=" ".join(str(rule["text"]).split()))
        if verdict == "IGNORE":
            self.check_ignore_reason(state, reason)
        status = {"ACCEPT": "accepted", "VETO": "vetoed", "IGNORE": "ignored"}[verdict]
        prop.update({"status": status, "reason": reason or None, "closed": iso(ctx.now)})
        ctx.ack(f"Proposal {prop['number']} is {status}.")
        text = f"The Emperor has {status} proposal {prop['number']} \"{prop['title']}\"" + (
            f": {reason}" if reason else "."
        )
        self.game.event(state, ctx, text)
        changes = changes_from(prop["changes"])
        note = self.game.enactment.enactment_note(state, changes) if status == "accepted" else None
        ctx.send(
            "results",
            "all",
            f"[Proposal {prop['number']}] {status.upper()}: {prop['title']}",
            "notice.txt",
            game=state,
            heading=text,
            lines=[note] if note else [],
        )
        if status == "accepted":
            period = self.game.deadlines.duration(state, "vote_period")

            def retimed() -> None:  # before the ruleset mail, which lists the deadlines
                if self.game.deadlines.duration(state, "vote_period") != period:
                    self.retime(state, ctx, prop["number"])

            self.enact(state, prop, ctx, "is accepted", then=retimed, note_failure=False)

    def retime(self, state: GameState, ctx: Ctx, number: int) -> None:
        """Rule 17: "a new rule will apply to all submissions numbered greater than or equal to
        its own proposal": a proposal numbered at or above NUMBER still voting gets the deadline
        the new rule 6 gives it, counted from its posting; earlier ones keep theirs."""
        lines = []
        for p in state["proposals"]:
            if p["number"] >= number and p["status"] == "voting" and p.get("deadline"):
                p["deadline"] = iso(
                    parse_held_iso(p["opened"]) + self.game.deadlines.duration(state, "vote_period")
                )
                p["vote_period"] = state["parameters"]["vote_period"]
                lines.append(
                    f"Proposal {p['number']} \"{p['title']}\": votes are now due "
                    f"{self.game.deadlines.when(state, p['deadline'], ctx)}."
                )
        if lines:
            self.game.event(state, ctx, f"Rule 6 changed by proposal {number}: " + " ".join(lines))
            self.game.announce(
                state,
                ctx,
                f"New voting deadlines (rule 6, as amended by proposal {number})",
                [
                    f"Rule 6 now gives {state['parameters']['vote_period']} to vote; it applies "
                    "to proposals "
                    f"numbered {number} and up (rule 17), and earlier ones keep their deadlines:",
                    *lines,
                ],
            )

    def check_ignore_reason(self, state: GameState, reason: str) -> None:
        """Seed: "To ignore a proposal, the condition by which it is ignored must be explicit
        elsewhere in the ruleset." The reason must cite a rule of the current ruleset, in force now
        (a B rule only during a playtest), that speaks of ignoring: not the rule that demands it."""
        cited = re.findall(r"\brules?\s+#?(\d+(?:\.\d+)*)", reason, re.I)
        if not cited:
            raise Refused("ignore_cites_no_rule")
        rules = {sort_key(r["number"]): r for r in self.game.rules_for_display(state)}
        wrong = []  # (number, what is wrong with citing it, its title)
        for number in cited:
            r = rules.get(sort_key(number))
            if r is None:
                wrong.append((number, "missing", ""))
            elif r.get("inactive"):
                wrong.append((number, "inactive", r["title"]))
            elif "explicit elsewhere" in r["text"]:
                wrong.append((number, "asks", r["title"]))
            elif not re.search(r"\bignor", r["text"], re.I):
                wrong.append((number, "silent", r["title"]))
            else:
                return
        raise Refused("ignore_condition_not_explicit", cited=wrong)
