"""Imperial Nomic (seed 000): Senators propose and vote YES/NO, the Emperor judges what the
Senate passes, issues Proclamations and Directives; the referee is the Humble Scribe."""

from __future__ import annotations

import json
import re
from datetime import datetime

from mailref import resource
from mailref.engine import matters
from mailref.engine.context import Ctx, Refused
from mailref.engine.ruleset import (
    RuleConflict,
    changes_from,
    check_changes,
    sort_key,
)
from mailref.engine.state import Action, GameState, Matter, Player, Rule, Turn
from mailref.engine.variants.actions import action
from mailref.engine.variants.base import Variant
from mailref.timeutil import iso, parse_iso

UNDECIDED = ("voting", "awaiting-judgement")


class Imperial(Variant):
    name = "imperial"
    title = "Imperial Nomic"
    judgement_label = "Point of Order"
    defaults = {
        **Variant.defaults,
        "vote_period": "4d",
        "max_undecided": 3,
        "playtest": False,
        "judge_reminder_every": "1d",
        "first_b_rule": 21,
    }
    duration_params = {"reminder_before", "vote_period", "judge_reminder_every"}
    vote_words = ("YES", "NO")
    # Senators, proposals, titles, comments, voting, judgement, proclamations, undecided
    # proposals, Points of Order, A and B rules (SPEC §5.3).
    runs_rules = frozenset({"2", "3", "4", "5", "6", "7", "8", "12", "13", "15"})
    strip_braces = True  # "{ }" comments never enter the ruleset (the text's comment marks)
    offices = ("emperor", "scribe", "senator", "assistant-scribe")
    open_statuses = UNDECIDED
    # Rule 5 publishes the list of all proposals with every ruleset, and Points of Order
    # are numbered by count: nothing leaves Imperial's state.
    archived_collections = ()
    instead = {
        "withdraw": (
            "Imperial Nomic has no withdrawal: a posted proposal is voted on by the other "
            "Senators until its deadline "
            "and then judged by the Emperor, who may VETO it (rules 6 and 7)",
            "to replace it, send a new [Proposal]: while you have three undecided proposals, a "
            "new one replaces your "
            "oldest undecided one (rule 12); or raise the matter with [Point of Order] (rule 13)",
        )
    }
    commands = [
        ("[Join]", "with a body line `Name: YourName` to choose your name"),
        (
            "[Proposal] Title",
            "a proposal (a title is required); {comments} are removed, [comments] kept; "
            "your first proposal makes you an Imperial Senator",
        ),
        ("Reply to [Proposal N], or [Vote] N", "YES or NO (Senators other than the author)"),
        ("[Point of Order] question", "raise any issue; the Emperor answers with [Ruling] N"),
        (
            "[Judge] N ACCEPT|VETO|IGNORE reason",
            "the Emperor's judgement of a proposal the Senate passed",
        ),
        ("[Proclamation] Title", "the Emperor's rule changes, in effect at once"),
        ("[Directive] Title", "the Emperor calls for proposals in an area"),
        (
            "[Playtest] start / [Playtest] end",
            "the Emperor begins or ends a playtest of the B rules (rules 21 and up)",
        ),
        ("[Status], [Rules], [Help]", "proposals, scores and the ruleset; this text"),
        (
            "[Away] / [Back], or subjects `NAME is away` / `NAME has returned`",
            "absence, and the return from it",
        ),
        ("[Roll] d6", "a die roll, announced"),
        ("[Quit]", "leave the game"),
    ]

    def initial_rules(self) -> list[Rule]:
        return json.loads((resource("data") / "imperial_rules.json").read_text())

    def translate_vote(self, meaning: str) -> str:
        return {"FOR": "YES", "AGAINST": "NO"}.get(meaning, meaning)

    def emperor(self, state: GameState) -> str | None:
        p = self.holder(state, "emperor")
        return p["name"] if p else None

    def senators(self, state: GameState) -> list[str]:
        return [p["name"] for p in self.present(state) if "senator" in p["offices"]]

    def make_senator(self, state: GameState, name: str, ctx: Ctx) -> None:
        p = self.player(state, name)
        if "senator" not in p["offices"]:
            p["offices"].append("senator")
            ctx.ack("You are now an Imperial Senator.")
            self.event(state, ctx, f"{name} became an Imperial Senator.")

    def after_join(self, state: GameState, player: Player, action: Action, ctx: Ctx) -> None:
        super().after_join(state, player, action, ctx)
        if self.emperor(state) is None:
            # House rule: the game's first player holds the throne until the admin says otherwise.
            player["offices"].append("emperor")
            ctx.ack("The throne was empty: you are the Imperial Emperor.")
            self.event(state, ctx, f"{player['name']} is the Imperial Emperor.")

    # ---- rules A and B -----------------------------------------------------------
    def rules_for_display(self, state: GameState) -> list[Rule]:
        """A rules (1–20) always apply; B rules only while a playtest runs."""
        out = []
        for r in state["rules"]:
            kind = "B" if sort_key(r["number"])[0] >= state["parameters"]["first_b_rule"] else "A"
            out.append(
                {**r, "type": kind, "inactive": kind == "B" and not state["parameters"]["playtest"]}
            )
        return out

    def proposal_lines(self, state: GameState) -> list[str]:
        return [
            f"{p['number']}. \"{p['title']}\" by {p['author']}: {p['status']}"
            + (f" (votes due {self.when(state, p['deadline'])})" if p["status"] == "voting" else "")
            for p in state["proposals"]
        ]

    def mail_ruleset(
        self, state: GameState, ctx: Ctx, why: str, diff: list[str], reason: str | None = None
    ) -> None:
        # Rule 5: the current rules, the list of proposals and the scores of all, published
        # together.
        ctx.send(
            "ruleset",
            "all",
            f"[Rules] {why}",
            "ruleset.txt",
            game=state,
            why=why,
            diff=diff,
            rules=self.rules_for_display(state),
            scores=self.score_lines(state),
            reason=reason or "",
            proposals=self.proposal_lines(state),
        )

    @action("rules")
    def on_rules(self, state: GameState, action: Action, ctx: Ctx) -> None:
        ctx.reply(
            "ruleset",
            "rules.txt",
            game=state,
            rules=self.rules_for_display(state),
            scores=self.score_lines(state),
            proposals=self.proposal_lines(state),
        )

    # ---- proposals ---------------------------------------------------------------
    @action("propose")
    def on_propose(self, state: GameState, action: Action, ctx: Ctx) -> None:
        author = action["player"]
        if not action["title"].strip():
            raise Refused("a proposal must contain a title (rule 4)")
        # Before rule 12's replacement: a copy sent again must not replace the author's oldest.
        matters.must_not_repeat(
            state["proposals"],
            author,
            action["title"],
            action["text"],
            UNDECIDED,
            zone=state.get("timezone") or "UTC",
        )
        changes = changes_from(action["changes"])
        try:
            check_changes(state["rules"], changes, state["rule_history"])
        except RuleConflict as e:
            raise Refused(f"your rule changes cannot apply: {e}") from None
        self.make_senator(state, author, ctx)
        undecided = [
            p for p in state["proposals"] if p["author"] == author and p["status"] in UNDECIDED
        ]
        replaced = None
        if len(undecided) >= state["parameters"]["max_undecided"]:
            replaced = undecided[0]
            replaced.update(
                status="replaced",
                reason=f"replaced by a newer proposal of {author}",
                closed=iso(ctx.now),
                deadline=None,
            )
        deadline = ctx.now + self.duration(state, "vote_period")
        prop = matters.new_matter(
            state,
            ctx,
            author,
            action["title"],
            action["text"],
            "voting",
            deadline,
            changes=action["changes"],
        )
        state["proposals"].append(prop)
        ctx.ack(
            f"Proposal {prop['number']} \"{prop['title']}\" is posted; Senators vote YES or NO "
            f"until {self.when(state, prop['deadline'], ctx)}."
        )
        for c in changes:
            ctx.ack("  " + c.describe(full=True))
            if c.signoff:
                ctx.ack(f'  (Set aside as your closing words, not rule text: "{c.signoff}")')
        if replaced:
            ctx.ack(
                f"It replaces your oldest undecided proposal, {replaced['number']} "
                f"\"{replaced['title']}\"."
            )
        self.event(
            state,
            ctx,
            f"{author} proposed {prop['number']} \"{prop['title']}\""
            + (f", replacing {replaced['number']}" if replaced else "")
            + ".",
        )
        ctx.send(
            "announcement",
            "all",
            f"[Proposal {prop['number']}] {prop['title']}",
            "proposal.txt",
            opens=True,
            game=state,
            proposal=prop,
            changes=[c.describe() for c in changes],
            voters=[s for s in self.senators(state) if s != author],
            words=list(self.vote_words),
            # The voters learn that the replaced one takes no more votes (rule 12).
            warning=(
                f"It replaces {author}'s oldest undecided proposal, {replaced['number']} "
                f"\"{replaced['title']}\", which takes no more votes (rule 12)."
            )
            if replaced
            else "",
        )

    @action("vote")
    def on_vote(self, state: GameState, action: Action, ctx: Ctx) -> None:
        name = action["player"]
        if name not in self.senators(state):
            raise Refused(
                "only Imperial Senators vote; you become one with your first proposal or Point of "
                "Order"
            )
        for b in action["ballots"]:
            prop = matters.must_open(matters.find(state, b["number"]), b["number"], ("voting",))
            if prop["author"] == name:
                raise Refused(
                    f"proposal {prop['number']} is yours: the other Senators vote on it (rule 6)"
                )
            if b["vote"] not in self.vote_words:
                raise Refused(f"{b['word']} is not a vote here", "vote YES or NO")
            ctx.ack(
                matters.cast(
                    prop,
                    name,
                    b["vote"],
                    ctx,
                    action.get("source", ""),
                    zone=state.get("timezone") or "UTC",
                    reason=b.get("reason") or "",
                )
            )

    def close_vote(self, state: GameState, prop: Matter, ctx: Ctx, late: str = "") -> None:
        # Seed: "other Imperial Senators may send in a vote" and "there is a majority of Imperial
        # Senators who have sent in a vote of YES": the majority is of those entitled to vote,
        # every Senator but the author (SPEC §5.3).
        voters = [n for n in self.senators(state) if n != prop["author"]]
        yes = sum(1 for n, v in prop["votes"].items() if v == "YES" and n in voters)
        no = sum(1 for n, v in prop["votes"].items() if v == "NO" and n in voters)
        passed = yes * 2 > len(voters)
        prop.update(
            status="awaiting-judgement" if passed else "rejected",
            deadline=None,
            tally={"YES": yes, "NO": no, "senators": len(voters)},
            reason=None if passed else "no majority of the Senators entitled to vote voted YES",
        )
        lines = [
            f"Proposal {prop['number']} \"{prop['title']}\": YES {yes}, NO {no} of {len(voters)} "
            f"Senator{'' if len(voters) == 1 else 's'} entitled to vote (all but the author).",
            "A majority of them voted YES: it goes to the Emperor for judgement."
            if passed
            else "No majority of them voted YES: it is rejected.",
        ]
        if late:
            lines.append(late)
        self.event(state, ctx, lines[0] + (" Passed to the Emperor." if passed else " Rejected."))
        # The Emperor's own mail ("awaiting your judgement") carries the result: one mail (SPEC
        # §2.6).
        emperor = self.emperor(state) if passed else None
        to = [p["name"] for p in self.present(state) if p["name"] != emperor] if emperor else "all"
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

    def ask_emperor(
        self,
        state: GameState,
        prop: Matter,
        ctx: Ctx,
        reminder: bool = False,
        result: list[str] | None = None,
    ) -> None:
        emperor = self.emperor(state)
        prop["last_reminded"] = iso(ctx.now)
        if emperor is None:
            ctx.alert(
                f"Proposal {prop['number']} awaits judgement but the office of Emperor is vacant "
                "(`mailref office SLUG emperor NAME`)."
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
            heading=f"Proposal {prop['number']} \"{prop['title']}\" by {prop['author']}",
            lines=[
                *(result + [""] if result else []),
                prop["text"],
                "",
                "Reply to this mail with ACCEPT, VETO, or IGNORE followed by the rule that allows "
                f"ignoring it (or send a mail \"[Judge] {prop['number']}\" with it in the body).",
            ],
        )

    @action("judge")
    def on_judge(self, state: GameState, action: Action, ctx: Ctx) -> None:
        if action["player"] != self.emperor(state):
            raise Refused("only the Emperor judges proposals (rule 7)")
        prop = matters.find(state, action["number"])
        if prop is None or prop["status"] != "awaiting-judgement":
            raise Refused(
                f"proposal {action['number']} is not awaiting judgement"
                + (f" (it is {prop['status']})" if prop else "")
            )
        verdict, reason = action["verdict"], action.get("reason", "").strip()
        if verdict == "IGNORE":
            self.check_ignore_reason(state, reason)
        status = {"ACCEPT": "accepted", "VETO": "vetoed", "IGNORE": "ignored"}[verdict]
        prop.update(status=status, reason=reason or None, closed=iso(ctx.now))
        ctx.ack(f"Proposal {prop['number']} is {status}.")
        text = f"The Emperor has {status} proposal {prop['number']} \"{prop['title']}\"" + (
            f": {reason}" if reason else "."
        )
        self.event(state, ctx, text)
        changes = changes_from(prop["changes"])
        note = self.enactment_note(state, changes) if status == "accepted" else None
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
            self.enact_changes(
                state,
                ctx,
                changes,
                f"proposal {prop['number']}",
                f"Proposal {prop['number']} \"{prop['title']}\" is accepted",
            )

    def check_ignore_reason(self, state: GameState, reason: str) -> None:
        """Seed: "To ignore a proposal, the condition by which it is ignored must be explicit
        elsewhere in the ruleset." The reason must cite a rule of the current ruleset, in force now
        (a B rule only during a playtest), that speaks of ignoring: not the rule that demands it."""
        hint = "write IGNORE followed by the rule that allows it, e.g. IGNORE under rule 12"
        cited = re.findall(r"\brules?\s+#?(\d+(?:\.\d+)*)", reason, re.I)
        if not cited:
            raise Refused(
                "to ignore a proposal, the condition by which it is ignored must be explicit "
                "elsewhere "
                "in the ruleset (rule 7): cite that rule",
                hint,
            )
        rules = {sort_key(r["number"]): r for r in self.rules_for_display(state)}
        why = []
        for number in cited:
            r = rules.get(sort_key(number))
            if r is None:
                why.append(f"there is no rule {number} in the current ruleset")
            elif r.get("inactive"):
                why.append(f"rule {number} is a B rule, not in force outside a playtest")
            elif "explicit elsewhere" in r["text"]:
                why.append(f"rule {number} asks for the condition; it must be explicit elsewhere")
            elif not re.search(r"\bignor", r["text"], re.I):
                why.append(
                    f"rule {number} (\"{r['title']}\") provides no condition for ignoring a "
                    "proposal"
                )
            else:
                return
        raise Refused(
            "to ignore a proposal, the condition by which it is ignored must be explicit "
            "elsewhere in the "
            "ruleset (rule 7): " + "; ".join(why),
            hint,
        )

    # ---- playtests of the B rules (rule 15) --------------------------------------
    @action("playtest")
    def on_playtest(self, state: GameState, action: Action, ctx: Ctx) -> None:
        """Seed: ""B" rules are only active when IE deems that a new playtest of the sub-game
        (represented by the "B" rules) should then begin."
        """
        if action["player"] != self.emperor(state):
            raise Refused(
                "only the Emperor deems when a playtest of the B rules begins or ends (rule 15)"
            )
        on = action["on"]
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
        self.event(state, ctx, text)
        self.mail_ruleset(
            state,
            ctx,
            "Playtest begins" if on else "Playtest ends",
            [text],
            reason=action.get("reason") or None,
        )

    # ---- the Emperor's own acts (rule 8) -----------------------------------------
    @action("proclamation")
    def on_proclamation(self, state: GameState, action: Action, ctx: Ctx) -> None:
        if action["player"] != self.emperor(state):
            raise Refused("only the Emperor issues Proclamations (rule 8)")
        changes = changes_from(action["changes"])
        if not changes:
            raise Refused(
                "a Proclamation changes rules: no rule change was found in it",
                'Amend rule 21.3.1 to read: ... / Enact rule 27 "Title": ... / Repeal rule 23.',
            )
        try:
            check_changes(state["rules"], changes, state["rule_history"])
        except RuleConflict as e:
            raise Refused(f"the Proclamation cannot apply: {e}") from None
        for c in changes:
            ctx.ack(c.describe())
        self.event(state, ctx, f"The Emperor proclaimed \"{action['title']}\".")
        self.enact_changes(
            state,
            ctx,
            changes,
            f"proclamation \"{action['title']}\"",
            f"Imperial Proclamation: {action['title']}",
        )

    @action("directive")
    def on_directive(self, state: GameState, action: Action, ctx: Ctx) -> None:
        if action["player"] != self.emperor(state):
            raise Refused("only the Emperor issues Directives (rule 8)")
        ctx.ack(f"Directive \"{action['title']}\" announced.")
        self.event(state, ctx, f"The Emperor's Directive: {action['title']}.")
        self.announce(
            state,
            ctx,
            f"[Directive] {action['title']}",
            ["The Emperor calls for proposals:", action["text"]],
        )

    # ---- Points of Order ---------------------------------------------------------
    @action("cfj")
    def on_cfj(self, state: GameState, action: Action, ctx: Ctx) -> None:
        matters.must_not_repeat(
            [{**j, "author": j["by"]} for j in state["judgements"]],
            action["player"],
            action["question"],
            action.get("text", ""),
            ("open",),
            "Point of Order",
            state.get("timezone") or "UTC",
        )
        self.make_senator(state, action["player"], ctx)
        number = len(state["judgements"]) + 1
        j = {
            "number": number,
            "kind": "point-of-order",
            "question": action["question"],
            "detail": action.get("text", ""),
            "by": action["player"],
            "judge": self.emperor(state),
            "status": "open",
            "ruling": None,
            "opened": iso(ctx.now),
        }
        state["judgements"].append(j)
        ctx.ack(f"Point of Order {number} is raised; the Emperor answers it.")
        self.event(
            state, ctx, f"{action['player']} raised Point of Order {number}: {j['question']}."
        )
        self.announce(
            state,
            ctx,
            f"[Point of Order {number}] {j['question']}",
            [
                f"{action['player']} raises: {j['question']}",
                *([""] + j["detail"].splitlines() + [""] if j["detail"] else []),
                f"The Emperor answers with a mail [Ruling] {number}.",
            ],
            opens=True,
        )

    @action("ruling")
    def on_ruling(self, state: GameState, action: Action, ctx: Ctx) -> None:
        j = next((x for x in state["judgements"] if x["number"] == action["number"]), None)
        if j is None or j["status"] != "open":
            raise Refused(f"there is no open Point of Order {action['number']}")
        if action["player"] != self.emperor(state):
            raise Refused("the Emperor answers Points of Order")
        j.update(
            status="decided",
            ruling=action["text"].strip(),
            judge=action["player"],
            decided=iso(ctx.now),
        )
        ctx.ack(f"Your ruling on Point of Order {j['number']} is announced.")
        self.event(state, ctx, f"The Emperor ruled on Point of Order {j['number']}.")
        self.announce(
            state,
            ctx,
            f"[Point of Order {j['number']}] The Emperor rules",
            [f"Question: {j['question']}", "Ruling:", *j["ruling"].splitlines()],
        )

    # ---- timers ------------------------------------------------------------------
    def deadline_times(self, state: GameState, now: datetime) -> list[datetime]:
        out = []
        every = self.duration(state, "judge_reminder_every")
        for p in state["proposals"]:
            if p["status"] == "voting":
                out.append(parse_iso(p["deadline"]))
                if not p.get("reminded"):
                    out.append(self.reminder_at(state, parse_iso(p["deadline"]), p.get("opened")))
            elif p["status"] == "awaiting-judgement":
                out.append(parse_iso(p["last_reminded"]) + every)
        return out

    def fire_deadlines(self, state: GameState, ctx: Ctx) -> None:
        every = self.duration(state, "judge_reminder_every")
        for p in sorted(state["proposals"], key=lambda x: x.get("deadline") or ""):
            if p["status"] == "voting" and parse_iso(p["deadline"]) <= ctx.now:
                self.close_vote(state, p, ctx, self.late_note(parse_iso(p["deadline"]), ctx))
            elif (
                p["status"] == "awaiting-judgement"
                and parse_iso(p["last_reminded"]) + every <= ctx.now
            ):
                self.ask_emperor(state, p, ctx, reminder=True)
        self.remind_senators(state, ctx)

    def remind_senators(self, state: GameState, ctx: Ctx) -> None:
        """SPEC §4.2: before a vote closes (`reminder_before`), the Senators entitled to vote who
        have not: one mail for the proposals that close at the same time, naming them all."""
        due = [
            p
            for p in state["proposals"]
            if p["status"] == "voting"
            and not p.get("reminded")
            and ctx.now >= self.reminder_at(state, parse_iso(p["deadline"]), p.get("opened"))
        ]
        owed: dict[tuple[str, str], list[dict]] = {}
        for p in due:
            p["reminded"] = True
            for n in self.senators(state):
                if (
                    n != p["author"]
                    and n not in p["votes"]
                    and self.player(state, n)["status"] == "active"
                ):
                    owed.setdefault((n, p["deadline"]), []).append(p)
        for (name, deadline), props in owed.items():
            what = " and ".join(f"proposal {p['number']} \"{p['title']}\"" for p in props)
            ctx.send(
                "reminder",
                [name],
                f"[Proposal {props[0]['number']}] Reminder: your vote is due "
                f"{self.when(state, deadline)}",
                "reminder.txt",
                game=state,
                what=f"your vote (YES or NO) on {what}",
                deadline=self.when(state, deadline, ctx),
                how="To vote, reply to this mail with YES or NO"
                + ("." if len(props) == 1 else f", one line each: \"{props[0]['number']} YES\"."),
            )

    def late_players(
        self, state: GameState, now: datetime | None = None
    ) -> list[tuple[str, str | None]]:
        """For the GM's digest: the Senators who have not voted on each proposal (due at its
        deadline), and the proposals awaiting the Emperor's judgement (waiting since they passed)."""
        out: list[tuple[str, str | None]] = []
        for p in state["proposals"]:
            if p["status"] == "voting":
                missing = [
                    n for n in self.senators(state) if n != p["author"] and n not in p["votes"]
                ]
                if missing:
                    out.append(
                        (
                            f"Not yet voted on proposal {p['number']} (due "
                            f"{self.when(state, p['deadline'])}): "
                            f"{', '.join(missing)}",
                            p["deadline"],
                        )
                    )
            elif p["status"] == "awaiting-judgement":
                since = p.get("awaiting_since") or p.get("opened")
                out.append(
                    (
                        f"The Emperor ({self.emperor(state) or 'vacant'}) has not judged proposal "
                        f"{p['number']}, "
                        f"awaiting judgement since {self.when(state, since)}",
                        since,
                    )
                )
        return out

    def current_deadline_holder(self, state: GameState) -> Turn | Matter | None:
        return next((p for p in state["proposals"] if p["status"] == "voting"), None)

    def status_lines(self, state: GameState) -> list[str]:
        lines = [
            f"Emperor: {self.emperor(state) or 'vacant'}; Scribe: the referee; "
            f"Senators: {', '.join(self.senators(state)) or 'none yet'}",
            f"Playtest of the B rules: {'on' if state['parameters']['playtest'] else 'off'}",
            "Scores: " + ", ".join(self.score_lines(state)),
        ]
        return (
            lines
            + self.proposal_lines(state)
            + [
                f"Point of Order {j['number']}: {j['question']} ({j['status']})"
                for j in state["judgements"]
            ]
        )

    @action("decide")
    def on_decide(self, state: GameState, action: Action, ctx: Ctx) -> None:
        """The admin judges in the Emperor's name (an absent Emperor must not stall the game)."""
        emperor = self.emperor(state)
        if not emperor:
            raise Refused("there is no Emperor in whose name to judge")
        prop = matters.must_open(matters.find(state, action["number"]), action["number"], UNDECIDED)
        prop["status"] = "awaiting-judgement"
        verdict = {"enact": "ACCEPT", "fail": "VETO", "veto": "VETO"}[action["outcome"]]
        self.on_judge(
            state,
            {
                "player": emperor,
                "number": prop["number"],
                "verdict": verdict,
                "reason": action.get("reason", ""),
            },
            ctx,
        )

    @action("vote_override")
    def on_vote_override(self, state: GameState, action: Action, ctx: Ctx) -> None:
        prop = matters.must_open(
            matters.find(state, action["number"]), action["number"], ("voting",)
        )
        p = self.must_player(state, action["player"])
        previous = prop["votes"].get(p["name"])
        ctx.ack(
            matters.cast(
                prop,
                p["name"],
                self.translate_vote(action["vote"]),
                ctx,
                f"admin {action.get('by')}",
                zone=state.get("timezone") or "UTC",
            )
            + " (admin override)"
        )
        self.tell_vote_override(
            state,
            action,
            ctx,
            p["name"],
            prop,
            "Proposal",
            self.translate_vote(action["vote"]),
            previous,
        )
