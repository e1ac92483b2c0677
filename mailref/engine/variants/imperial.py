"""Imperial Nomic (seed 000): Senators propose and vote YES/NO, the Emperor judges what the
Senate passes, issues Proclamations and Directives; the referee is the Humble Scribe."""

from __future__ import annotations

from datetime import datetime

from mailref.engine.context import Ctx
from mailref.engine.mechanics import voting
from mailref.engine.mechanics.gamestate import Gamestate
from mailref.engine.mechanics.voting import VotingPolicy
from mailref.engine.ruleset import (
    sort_key,
)
from mailref.engine.ruleset_file import shipped_rules
from mailref.engine.state import Action, GameState, Matter, Player, Rule, Turn
from mailref.engine.variants import rule_tables
from mailref.engine.variants.base import Variant
from mailref.engine.variants.components import Held
from mailref.engine.variants.imperial_acts import ImperialActs
from mailref.engine.variants.imperial_proposals import UNDECIDED, ImperialProposals
from mailref.timeutil import parse_held_iso

# Rules 6-7: the other Senators vote YES or NO until the deadline; a majority of all those
# entitled to vote sends a proposal to the Emperor's judgement, else it is rejected.
VOTING = VotingPolicy(
    words=("YES", "NO"),
    offered=("YES", "NO"),
    open_status="voting",
    undecided=UNDECIDED,
    decision="majority of entitled",
    closing="deadline",
    passed_status="awaiting-judgement",
    failed_status="rejected",
    for_word="YES",
    against_word="NO",
    electorate_name="senators",
    abstain_vote="none",  # no ABSTAIN unless a new rule allows it
)


class Imperial(Variant):
    proposals = Held(ImperialProposals)
    acts = Held(ImperialActs)
    gamestate = Held(Gamestate)

    name = "imperial"
    title = "Imperial Nomic"
    judgement_label = "Point of Order"
    parameter_table = rule_tables.IMPERIAL
    policy = VOTING
    vote_words = VOTING.words
    # Senators, proposals, titles, comments, voting, judgement, proclamations, undecided
    # proposals, Points of Order, A and B rules (SPEC §5.3).
    runs_rules = frozenset({"2", "3", "4", "5", "6", "7", "8", "12", "13", "15"})
    strip_braces = True  # "{ }" comments never enter the ruleset (the text's comment marks)
    offices = ("emperor", "scribe", "senator", "assistant-scribe")
    open_statuses = UNDECIDED
    # Rule 5 publishes the list of all proposals with every ruleset, and Points of Order
    # are numbered by count: nothing leaves Imperial's state.
    archived_collections = ()
    instead = {"withdraw": "no_withdrawal_in_imperial"}
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
            "the Emperor begins or ends a playtest of the B rules (rules {first_b_rule} and up)",
        ),
        ("[Status], [Rules], [Help]", "proposals, scores and the ruleset; this text"),
        (
            "[Away] / [Back], or subjects `NAME is away` / `NAME has returned`",
            "absence, and the return from it",
        ),
        ("[Roll] d6", "a die roll, announced"),
        ("[Quit]", "leave the game"),
    ]

    def help_commands(self, state: GameState | None = None) -> list[tuple[str, str]]:
        """[Help] as rules 3 and 7 now read: no VETO once rule 7 names none, and no Senator
        made by a proposal once rule 3 makes them only by Directive."""
        out = super().help_commands(state)
        if state is None:
            return out
        veto, directive = self.proposals.may_veto(state), self.proposals.by_directive(state)
        senator = "your first proposal makes you an Imperial Senator"
        return [
            (
                usage if veto else usage.replace("ACCEPT|VETO|IGNORE", "ACCEPT|IGNORE"),
                what.replace(senator, "Senators are made only by the Emperor's Directive")
                if directive
                else what,
            )
            for usage, what in out
        ]

    def initial_rules(self) -> list[Rule]:
        return shipped_rules("imperial")  # type: ignore[return-value]

    def ballots_taken(self, state: GameState) -> tuple[str, ...]:
        return self.proposals.ballots_taken(state)  # the lifecycle's policy as the rules read

    def translate_vote(self, meaning: str) -> str:
        return {"FOR": "YES", "AGAINST": "NO"}.get(meaning, meaning)

    def emperor(self, state: GameState) -> str | None:
        p = self.players.holder(state, "emperor")
        return p["name"] if p else None

    def senators(self, state: GameState) -> list[str]:
        return [p["name"] for p in self.players.present(state) if "senator" in p["offices"]]

    def make_senator(self, state: GameState, name: str, ctx: Ctx) -> None:
        """Rule 3: one's first proposal or Point of Order makes one a Senator, unless rule 3 now
        makes Senators only by the Emperor's Directive."""
        p = self.players.player(state, name)
        if p is None:
            raise KeyError(f"{name} plays no part in {state['name']}")
        if "senator" in p["offices"]:
            return
        if self.parameter_table.value(state["parameters"], "senators") == "directive":
            ctx.ack(
                "Rule 3 as it now reads makes Senators only by the Emperor's Directive: this "
                "does not make you an Imperial Senator."
            )
            return
        p["offices"].append("senator")
        ctx.ack("You are now an Imperial Senator.")
        self.event(state, ctx, f"{name} became an Imperial Senator.")

    def after_join(self, state: GameState, player: Player, action: Action, ctx: Ctx) -> None:
        crowned = self.emperor(state) is None
        if crowned:
            # House rule: the game's first player holds the throne until the admin says otherwise.
            player["offices"].append("emperor")
        super().after_join(state, player, action, ctx)  # the announcement tells the new Emperor
        if crowned:
            self.event(state, ctx, f"{player['name']} is the Imperial Emperor.")

    def join_news(self, state: GameState, player: Player) -> list[str]:
        if self.emperor(state) != player["name"]:
            return []
        return [
            f"The throne was empty, so the referee made {player['name']} the Imperial Emperor: "
            "the Emperor judges the proposals the Senate passes ([Judge] N: ACCEPT, VETO or "
            "IGNORE), and may issue Proclamations and Directives."
        ]

    # ---- rules A and B -----------------------------------------------------------
    def rules_for_display(self, state: GameState) -> list[Rule]:
        """A rules (1–20) always apply; B rules only while a playtest runs."""
        out: list[Rule] = []
        for r in state["rules"]:
            kind = "B" if sort_key(r["number"])[0] >= state["parameters"]["first_b_rule"] else "A"
            shown = r.copy()
            shown["type"] = kind
            shown["inactive"] = kind == "B" and not state["parameters"]["playtest"]
            out.append(shown)
        return out

    def proposal_lines(self, state: GameState, ctx: Ctx | None = None) -> list[str]:
        return [
            f"{p['number']}. \"{p['title']}\" by {p['author']}: {p['status']}"
            + (
                f" (votes due {self.deadlines.when(state, p['deadline'], ctx)})"
                if p["status"] == "voting"
                else ""
            )
            for p in state["proposals"]
        ]

    def ruleset_proposals(self, state: GameState, ctx: Ctx) -> list[str]:
        # Rule 5: the current rules, the list of proposals and the scores of all, published
        # together (the ruleset mail and the answer to [Rules]).
        return self.proposal_lines(state, ctx)

    # ---- timers ------------------------------------------------------------------
    def deadline_times(self, state: GameState, now: datetime) -> list[datetime]:
        out = []
        every = self.deadlines.duration(state, "judge_reminder_every")
        for p in state["proposals"]:
            if p["status"] == "voting":
                out += self.proposals.vote_times(state, p)
            elif p["status"] == "awaiting-judgement":
                out.append(parse_held_iso(p["last_reminded"]) + every)
        return out

    def fire_deadlines(self, state: GameState, ctx: Ctx) -> None:
        every = self.deadlines.duration(state, "judge_reminder_every")
        for p in sorted(state["proposals"], key=lambda x: x.get("deadline") or ""):
            if p["status"] == "voting" and voting.due(
                self.policy, [], ctx.now, parse_held_iso(p["deadline"])
            ):
                self.proposals.close_vote(
                    state, p, ctx, self.deadlines.late_note(parse_held_iso(p["deadline"]), ctx)
                )
            elif (
                p["status"] == "awaiting-judgement"
                and parse_held_iso(p["last_reminded"]) + every <= ctx.now
            ):
                self.proposals.ask_emperor(state, p, ctx, reminder=True)
        self.remind_senators(state, ctx)

    def remind_senators(self, state: GameState, ctx: Ctx) -> None:
        """SPEC §4.2: before a vote closes (`reminder_before`), the Senators entitled to vote who
        have not: one mail for the proposals that close at the same time, naming them all."""
        due = [
            p
            for p in state["proposals"]
            if p["status"] == "voting"
            and not p.get("reminded")
            and ctx.now
            >= self.deadlines.reminder_at(state, parse_held_iso(p["deadline"]), p.get("opened"))
        ]
        owed: dict[tuple[str, str | None], list[Matter]] = {}
        for p in due:
            p["reminded"] = True
            for n in self.proposals.waiting_for(state, p):
                if (q := self.players.player(state, n)) is not None and q["status"] == "active":
                    owed.setdefault((n, p["deadline"]), []).append(p)
        for (name, deadline), props in owed.items():
            what = " and ".join(f"proposal {p['number']} \"{p['title']}\"" for p in props)
            ctx.send(
                "reminder",
                [name],
                f"[Proposal {props[0]['number']}] Reminder: your vote is due "
                f"{self.deadlines.when(state, deadline)}",
                "reminder.txt",
                game=state,
                what=f"your vote (YES or NO) on {what}",
                deadline=self.deadlines.when(state, deadline, ctx),
                how=self.proposals.how_to_vote()
                + ("." if len(props) == 1 else f", one line each: \"{props[0]['number']} YES\"."),
            )

    def late_players(
        self, state: GameState, now: datetime | None = None
    ) -> list[tuple[str, str | None]]:
        """For the GM's digest: the Senators who have not voted on each proposal (due at its
        deadline), and the proposals awaiting the Emperor's judgement (waiting since they
        passed)."""
        out: list[tuple[str, str | None]] = []
        for p in state["proposals"]:
            if p["status"] == "voting":
                missing = self.proposals.waiting_for(state, p)
                if missing:
                    out.append(
                        (
                            f"Not yet voted on proposal {p['number']} (due "
                            f"{self.deadlines.when(state, p['deadline'])}): "
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
                        f"awaiting judgement since {self.deadlines.when(state, since)}",
                        since,
                    )
                )
        return out

    def current_deadline_holder(self, state: GameState) -> Turn | Matter | None:
        return next((p for p in state["proposals"] if p["status"] == "voting"), None)

    def status_lines(self, state: GameState, ctx: Ctx | None = None) -> list[str]:
        lines = [
            f"Emperor: {self.emperor(state) or 'vacant'}; Scribe: the referee; "
            f"Senators: {', '.join(self.senators(state)) or 'none yet'}",
            f"Playtest of the B rules: {'on' if state['parameters']['playtest'] else 'off'}",
            "Scores: " + ", ".join(self.score_lines(state)),
        ]
        return (
            lines
            + self.proposal_lines(state, ctx)
            + [
                f"Point of Order {j['number']}: {j['question']} ({j['status']})"
                for j in state["judgements"]
            ]
        )
