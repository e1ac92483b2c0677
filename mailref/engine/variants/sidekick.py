"""Nomic Sidekick Nomic: one mover proposes, everybody votes (seed 004, rules 6–23)."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from mailref import resource
from mailref.engine import matters
from mailref.engine.context import Ctx, Refused
from mailref.engine.ruleset import RuleConflict, changes_from, check_changes
from mailref.engine.state import Action, GameState, Matter, Player, Rule, Turn
from mailref.engine.variants.actions import action
from mailref.engine.variants.base import Variant
from mailref.timeutil import iso, parse_iso


class Sidekick(Variant):
    name = "sidekick"
    title = "Nomic Sidekick Nomic"
    defaults = {
        **Variant.defaults,
        "turn_timeout": "5d",
        "vote_timeout": "5d",
        "win_score": 100,
        "pass_points": 10,
        "fail_points": -5,
    }
    duration_params = {"reminder_before", "turn_timeout", "vote_timeout"}
    rule_parameters = {
        "8": ("turn_timeout",),
        "11": ("vote_timeout",),
        "21": ("pass_points",),
        "22": ("fail_points",),
        "23": ("win_score",),
    }
    # Turn order, what a move holds, the vote and its outcome, absence, the judge, victory.
    runs_rules = frozenset({"6", "9", "10", "11", "12", "15", "17", "19", "20"})
    vote_words = ("FOR", "AGAINST", "ABSTAIN")
    whole_rule_numbers = True  # rule 10: "The reference number must be a positive integer."
    capped_matters = frozenset({"cfj"})  # a move is one proposal by the mover a turn (rule 8)
    instead = {
        "withdraw": (
            "Nomic Sidekick Nomic has no withdrawal: a move, once mailed, is voted on until every "
            "other player has "
            "voted or abstained (rules 8 and 11), and the mover's vote is FOR and cannot change "
            "(rule 11)",
            "on your turn, before proposing, send [Forfeit] to give up the turn (rule 8); to "
            "question a move, send "
            "[CfJ] with your question (rule 17)",
        )
    }
    commands = [
        ("[Join]", "with a body line `Name: YourName` to choose your name"),
        (
            "[Proposal] Title",
            'your move, on your turn: the body holds rule changes (Enact rule 24 "Title": ... / '
            "Amend rule 12 to read: ... / Repeal rule 15.)",
        ),
        (
            "Reply to [Proposal N], or [Vote] N",
            "FOR, AGAINST or ABSTAIN on the first line of your own words",
        ),
        ("[Forfeit]", "give up your turn"),
        ("[CfJ] question", "ask for a judgement; the player before the mover judges"),
        ("[Ruling] N", "the judge answers judgement N"),
        ("[Away] / [Back], or subjects `NAME is away` / `NAME has returned`", "absence (rule 15)"),
        ("[Status], [Rules], [Help]", "the state, the rule list, this text"),
        ("[Roll] d6", "a die roll, announced"),
        ("[Quit]", "leave the game"),
    ]

    def initial_rules(self) -> list[Rule]:
        return json.loads((resource("data") / "sidekick_rules.json").read_text())

    def initial_state(self, *args: Any, **kw: Any) -> GameState:
        state = super().initial_state(*args, **kw)
        state["next_judgement"] = 1
        return state

    # ---- turn order (rule 6) -----------------------------------------------------
    def after_join(self, state: GameState, player: Player, action: Action, ctx: Ctx) -> None:
        super().after_join(state, player, action, ctx)
        if state["turn"] is None:
            eligible = [p["name"] for p in self.present(state)]
            if len(eligible) >= 2:
                state["order"] = ctx.shuffle(eligible)
                self.event(state, ctx, "Turn order drawn: " + ", ".join(state["order"]))
                self.announce(
                    state,
                    ctx,
                    "Turn order",
                    ["The turn order is drawn at random (rule 6):"]
                    + [f"{i}. {n}" for i, n in enumerate(state["order"], 1)],
                )
                self.open_turn(state, ctx, state["order"][0], number=1)
        elif player["name"] not in state["order"]:
            at = ctx.randint(0, len(state["order"]))
            state["order"].insert(at, player["name"])
            who = (
                f"{player['name']} is" if action.get("by") else "You are"
            )  # `player add` answers the admin
            ctx.ack(
                f"{who} inserted at place {at + 1} of the turn order: {', '.join(state['order'])}."
            )

    def before_leaving_order(self, state: GameState, player: Player, ctx: Ctx) -> None:
        t = state["turn"]
        if t and t.get("player") == player["name"] and not t.get("proposal"):
            self.next_turn(state, ctx, skipped=f"{player['name']} left the game")
        elif t and t.get("player") == player["name"]:
            # The mover leaves while the move is voted on: the next turn is of the one after
            # them in the order (rule 6), not of the first in it once their name is gone.
            order = state["order"]
            t["before"] = order[order.index(player["name"]) - 1] if len(order) > 1 else None

    def after_status_change(self, state: GameState, player: Player, ctx: Ctx) -> None:
        t = state["turn"]
        if t is None:
            return
        if player["status"] == "left":
            self.new_judges(state, player, ctx)
        if (
            player["status"] != "active"
            and t.get("player") == player["name"]
            and not t.get("proposal")
        ):
            self.next_turn(state, ctx, skipped=f"{player['name']} is away (rule 15)")
        elif t.get("player") is None and player["status"] == "active":
            self.next_turn(state, ctx)
        else:
            prop = self.current_proposal(state)
            if prop:
                self.maybe_close(state, prop, ctx)

    def open_turn(self, state: GameState, ctx: Ctx, mover: str | None, number: int) -> None:
        if mover is None:
            state["turn"] = {"number": number, "player": None, "deadline": None, "proposal": None}
            self.event(
                state, ctx, "Nobody present can move; the game waits for a player to return."
            )
            return
        deadline = ctx.now + self.duration(state, "turn_timeout")
        state["turn"] = {
            "number": number,
            "player": mover,
            "deadline": iso(deadline),
            "started": iso(ctx.now),
            "proposal": None,
        }
        self.event(state, ctx, f"Turn {number}: {mover} to move by {self.when(state, deadline)}.")
        ctx.send(
            "turn",
            [mover],
            f"[Turn {number}] Your move",
            "turn.txt",
            opens=True,
            game=state,
            mover=mover,
            number=number,
            deadline=self.when(state, deadline, ctx),
        )

    def next_mover(self, state: GameState, after: str | None) -> str | None:
        order = state["order"]
        if not order:
            return None
        start = order.index(after) + 1 if after in order else 0
        for i in range(len(order)):
            name = order[(start + i) % len(order)]
            p = self.player(state, name)
            if p and p["status"] == "active":
                return name
        return None

    def next_turn(
        self,
        state: GameState,
        ctx: Ctx,
        skipped: str | None = None,
        late: str = "",
        missed: bool = False,
    ) -> None:
        t = state["turn"]
        if skipped:
            self.event(state, ctx, f"Turn {t['number']} of {t['player']} skipped: {skipped}.")
            lines = [f"{t['player']}'s turn is skipped: {skipped}."] + ([late] if late else [])
            if (
                missed
            ):  # the mover who let the time pass hears it as such (kind `late`), the others as news
                others = [p["name"] for p in self.present(state) if p["name"] != t["player"]]
                self.announce(state, ctx, f"Turn {t['number']} skipped", lines, to=others)
                ctx.send(
                    "late",
                    [t["player"]],
                    f"[Turn {t['number']}] Your turn was skipped",
                    "notice.txt",
                    game=state,
                    heading=f"{t['player']}, your turn (turn {t['number']}) is skipped: {skipped}.",
                    lines=[
                        *([late] if late else []),
                        "You still vote on every proposal, and your turn comes "
                        "round again in the turn order (send [Status] to see it).",
                    ],
                )
            else:
                self.announce(state, ctx, f"Turn {t['number']} skipped", lines)
        if state["status"] == "ended":
            state["turn"]["deadline"] = None
            return
        after = t.get("player") or t.get("last")
        if after not in state["order"] and t.get("before"):
            after = t["before"]
        self.open_turn(state, ctx, self.next_mover(state, after), t["number"] + 1)
        if skipped:
            state["turn"]["last"] = t.get("player")

    # ---- the rule list (rules 5–6) ------------------------------------------------
    def standing_lines(self, state: GameState) -> list[str]:
        """Rule 5: "the rule list will indicate the current score each player has and the current
        player whose turn it is"; rule 6: "The rule list will contain a complete list of all
        players", in turn order."""
        t = state["turn"]
        ended = state["status"] == "ended"
        mover = t.get("player") if t and not ended else None
        won = ", ".join(state.get("winners") or []) or "nobody"
        lines = [
            f"The game has ended; won by {won}."
            if ended
            else f"Turn {t['number']}: {mover} is to move."
            if mover
            else f"Turn {t['number']}: nobody present can move."
            if t
            else "The first turn opens once two players are in."
        ]
        lines.append("Players in turn order:")
        seated = [self.player(state, n) for n in state["order"]]
        waiting = [p for p in self.present(state) if p["name"] not in state["order"]]
        for i, p in enumerate([p for p in seated if p] + waiting, 1):
            notes = [
                w
                for w, on in (
                    ("to move", p["name"] == mover),
                    (p["status"], p["status"] != "active"),
                )
                if on
            ]
            lines.append(
                f"  {i}. {p['name']}: {p['score']} points"
                + (f" ({', '.join(notes)})" if notes else "")
            )
        return lines

    # ---- the move (rules 8–10) ---------------------------------------------------
    @action("propose")
    def on_propose(self, state: GameState, action: Action, ctx: Ctx) -> None:
        player = action["player"]
        t = state["turn"]
        if t is None:
            raise Refused("the first turn has not opened yet: it opens once two players are in")
        if t.get("player") != player:
            raise Refused(
                f"it is not your turn: {t.get('player') or 'nobody'} is the mover (rule 8)",
                "wait for the mail telling you it is your turn",
            )
        if t.get("proposal"):
            raise Refused(
                f"you already moved this turn with proposal {t['proposal']} (rule 8: a move is "
                "one proposal)"
            )
        changes = changes_from(action["changes"])
        if not changes:
            raise Refused(
                "a proposal must contain at least one rule change (rule 9)",
                'write e.g.\n  Enact rule 24 "Title":\n  text of the rule\nor Amend rule 12 to '
                "read: / Repeal rule 15.",
            )
        for c in changes:
            if c.kind == "enact" and not c.number:
                raise Refused(
                    f'new rule "{c.title}" needs a reference number (rule 10)',
                    'write Enact rule 24 "Title":',
                )
        try:
            check_changes(state["rules"], changes, state["rule_history"], whole_numbers=True)
        except RuleConflict as e:
            raise Refused(f"your rule changes cannot apply: {e}") from None
        deadline = ctx.now + self.duration(state, "vote_timeout")
        prop = matters.new_matter(
            state,
            ctx,
            player,
            action["title"],
            action["text"],
            "voting",
            deadline,
            changes=action["changes"],
            turn=t["number"],
        )
        prop["votes"][player] = "FOR"  # rule 11: the mover is assumed to vote for
        state["proposals"].append(prop)
        t["proposal"], t["deadline"] = prop["number"], None
        ctx.ack(
            f"Proposal {prop['number']} \"{prop['title']}\" is submitted; voting closes "
            f"{self.when(state, prop['deadline'], ctx)}."
        )
        for c in changes:
            ctx.ack("  " + c.describe(full=True))
            if c.signoff:
                ctx.ack(f'  (Set aside as your closing words, not rule text: "{c.signoff}")')
        self.event(state, ctx, f"{player} proposed {prop['number']} \"{prop['title']}\".")
        ctx.send(
            "announcement",
            "all",
            f"[Proposal {prop['number']}] {prop['title']}",
            "proposal.txt",
            opens=True,
            game=state,
            proposal=prop,
            changes=[c.describe() for c in changes],
            voters=self.voters(state, prop),
            words=self.vote_words,
        )
        self.maybe_close(state, prop, ctx)

    @action("forfeit")
    def on_forfeit(self, state: GameState, action: Action, ctx: Ctx) -> None:
        t = state["turn"]
        if t is None or t.get("player") != action["player"]:
            raise Refused(
                "you can only forfeit your own turn",
                f"the mover is {t.get('player') if t else 'nobody yet'}",
            )
        if t.get("proposal"):
            raise Refused(f"you already moved this turn (proposal {t['proposal']})")
        ctx.ack(f"You forfeit turn {t['number']}.")
        self.next_turn(state, ctx, skipped="forfeited (rule 8)")

    # ---- votes (rules 11–14) -----------------------------------------------------
    def current_proposal(self, state: GameState) -> Matter | None:
        return next((p for p in state["proposals"] if p["status"] == "voting"), None)

    def voters(self, state: GameState, prop: Matter) -> list[str]:
        return [p["name"] for p in self.active(state) if p["name"] != prop["author"]]

    @action("vote")
    def on_vote(self, state: GameState, action: Action, ctx: Ctx) -> None:
        player = action["player"]
        for b in action["ballots"]:
            prop = matters.must_open(matters.find(state, b["number"]), b["number"], ("voting",))
            if b["vote"] not in self.vote_words:
                raise Refused(
                    f"{b['word']} is not a vote in this game", "vote FOR, AGAINST or ABSTAIN"
                )
            if player == prop["author"]:
                # Rule 11: "The player moving is assumed to be voting “for” the proposal"
                # (docs/games/sidekick.md).
                if b["vote"] == "FOR":
                    ctx.ack(
                        f"Proposal {prop['number']} is your move: your vote is already FOR (rule "
                        "11); nothing changed."
                    )
                    continue
                raise Refused(
                    f"you are the mover of proposal {prop['number']}: your vote is FOR and cannot "
                    "change "
                    "(rule 11: \"The player moving is assumed to be voting for the proposal\")"
                )
            ctx.ack(
                matters.cast(
                    prop,
                    player,
                    b["vote"],
                    ctx,
                    action.get("source", ""),
                    zone=state.get("timezone") or "UTC",
                    reason=b.get("reason") or "",
                )
            )
            self.event(state, ctx, f"{player} voted on proposal {prop['number']}.")
            self.maybe_close(state, prop, ctx)

    def maybe_close(self, state: GameState, prop: Matter, ctx: Ctx, late: str = "") -> None:
        waiting = [n for n in self.voters(state, prop) if n not in prop["votes"]]
        if waiting and ctx.now < parse_iso(prop["deadline"]):
            return
        self.close(state, prop, ctx, late)

    def close(
        self, state: GameState, prop: Matter, ctx: Ctx, late: str = "", forced: str | None = None
    ) -> None:
        # Missing votes, and away players, abstain (rules 11 and 15); the result says whose.
        silent, away = [], []
        for p in self.present(state):
            if p["name"] not in prop["votes"]:
                (silent if p["status"] == "active" else away).append(p["name"])
                prop["votes"][p["name"]] = "ABSTAIN"
        # A vote is a player's: one who left the game before the vote closed has none (as in
        # BlogNomic and Imperial); the result says whose ballot it set aside.
        gone = sorted(
            n for n in prop["votes"] if (q := self.player(state, n)) and q["status"] == "left"
        )
        counts = matters.tally({n: v for n, v in prop["votes"].items() if n not in gone})
        passed = counts["FOR"] > counts["AGAINST"]  # rule 12: a tie fails
        reason = (
            "more FOR than AGAINST"
            if passed
            else ("tie" if counts["FOR"] == counts["AGAINST"] else "more AGAINST than FOR")
        )
        if forced:
            passed, reason = forced.startswith("enact"), forced
        prop["status"], prop["closed"], prop["reason"] = (
            ("passed" if passed else "failed"),
            iso(ctx.now),
            reason,
        )
        prop["tally"] = dict(counts)
        prop["deadline"] = None
        author = self.player(state, prop["author"])
        points = state["parameters"]["pass_points" if passed else "fail_points"]
        lines = [
            f"Proposal {prop['number']} \"{prop['title']}\" by {prop['author']} has "
            f"{prop['status']}: "
            f"{matters.tally_text(counts)} ({prop['reason']}).",
            "Votes: " + ", ".join(f"{k} {v}" for k, v in sorted(prop["votes"].items())),
        ]
        if silent:  # the admin may decide before the vote closes: then it was not "in time"
            lines.append(
                "Counted ABSTAIN, not having voted when the admin decided it: "
                f"{', '.join(sorted(silent))}."
                if forced
                else f"Counted ABSTAIN, not having voted in time (rule 11): {', '.join(sorted(silent))}."
            )
        if away:
            lines.append(f"Counted ABSTAIN, being away (rule 15): {', '.join(sorted(away))}.")
        if gone:
            lines.append(f"Not counted, having left the game: {', '.join(gone)}.")
        if late:
            lines.append(late)
        if author:
            author["score"] += points
            lines.append(
                f"{author['name']} scores {points:+d} (rules 21–22) and now has {author['score']}."
            )
        changes = changes_from(prop["changes"])
        if passed and (note := self.enactment_note(state, changes)):
            lines.append(note)
        self.event(state, ctx, lines[0])
        ctx.send(
            "results",
            "all",
            f"[Proposal {prop['number']}] {prop['status'].upper()}: {prop['title']}",
            "notice.txt",
            game=state,
            heading="",
            lines=lines,
        )
        self.check_victory(state, ctx)
        moves_on = bool(state["turn"] and state["turn"].get("proposal") == prop["number"])

        def next_turn() -> None:
            if moves_on:
                self.next_turn(state, ctx)

        if not passed:
            next_turn()
            return
        # The next turn opens once the changes are in force (rule 7: a passed amendment of rule 8
        # gives the next mover its new time), and before the ruleset mail, which shows the new
        # mover (rule 5).
        failed = self.enact_changes(
            state,
            ctx,
            changes,
            f"proposal {prop['number']}",
            f"Proposal {prop['number']} \"{prop['title']}\" is in effect",
            then=next_turn,
        )
        if failed:
            prop["reason"] += f"; its changes could not apply: {failed}"

    # ---- victory (rules 20 and 23) -----------------------------------------------
    def check_victory(self, state: GameState, ctx: Ctx) -> None:
        if state["status"] == "ended":
            return
        target = state["parameters"]["win_score"]
        winners = [p["name"] for p in self.present(state) if p["score"] >= target]
        if winners:
            state["winners"], state["status"] = winners, "ended"
            text = (
                f"{winners[0]} reaches {target} points and wins (rule 23)!"
                if len(winners) == 1
                else f"{', '.join(winners)} reach {target} points at the same time: the game ends in a tie (rule 20)."
            )
            self.event(state, ctx, text)
            standings = sorted(
                self.present(state), key=lambda p: -p["score"]
            )  # the winner first, as a table of results reads
            self.announce(
                state,
                ctx,
                f"{state['name']} is won",
                [text, "Final scores:"] + [f"{p['name']}: {p['score']}" for p in standings],
                kind="results",
            )

    # ---- judgements (rule 17) ----------------------------------------------------
    def judge_for(self, state: GameState) -> str | None:
        t = state["turn"]
        order = state["order"]
        if not t or not order:
            return None
        mover = t.get("player") or t.get("last") or order[0]
        if mover not in order:
            return None
        i = order.index(mover)
        for k in range(1, len(order)):
            name = order[(i - k) % len(order)]
            p = self.player(state, name)
            if p and p["status"] == "active":
                return name
        return None

    def new_judges(self, state: GameState, gone: Player, ctx: Ctx) -> None:
        """A judge who leaves the game before ruling: rule 17 names the next present player
        before the mover instead (the judgement stayed open for ever, waiting for a ruling no
        one could send). Without one, the GM is asked."""
        for j in state["judgements"]:
            if j["status"] != "open" or j["judge"] != gone["name"]:
                continue
            judge = self.judge_for(state)
            if judge is None:
                ctx.alert(
                    f"Judgement {j['number']}: its judge {gone['name']} left the game and rule 17 "
                    "names no "
                    "other now; decide it with the players."
                )
                continue
            j["judge"] = judge
            self.event(
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
            self.announce(
                state,
                ctx,
                f"[Judgement {j['number']}] New judge: {judge}",
                [
                    f"{gone['name']}, the judge of judgement {j['number']} ({j['question']}), has "
                    "left the game.",
                    f"The judge is now {judge} (rule 17), who answers with a mail [Ruling] "
                    f"{j['number']}.",
                ],
                to=[p["name"] for p in self.present(state) if p["name"] != judge],
            )

    @action("cfj")
    def on_cfj(self, state: GameState, action: Action, ctx: Ctx) -> None:
        judge = self.judge_for(state)
        if judge is None:
            raise Refused(
                "no judge can be named yet: judgements need a turn order with a present player "
                "before the mover"
            )
        number = state["next_judgement"]
        state["next_judgement"] += 1
        j = {
            "number": number,
            "kind": "cfj",
            "question": action["question"],
            "detail": action.get("text", ""),
            "by": action["player"],
            "judge": judge,
            "status": "open",
            "ruling": None,
            "opened": iso(ctx.now),
        }
        state["judgements"].append(j)
        ctx.ack(f"Judgement {number} is open; the judge is {judge} (rule 17).")
        self.event(
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
        self.announce(
            state,
            ctx,
            f"[Judgement {number}] {j['question']}",
            [
                f"{action['player']} asks: {j['question']}",
                *([""] + j["detail"].splitlines() + [""] if j["detail"] else []),
                f"The judge is {judge} (rule 17), who answers with a mail [Ruling] {number}.",
            ],
            to=[p["name"] for p in self.present(state) if p["name"] != judge],
            opens=True,
        )

    @action("ruling")
    def on_ruling(self, state: GameState, action: Action, ctx: Ctx) -> None:
        j = next((x for x in state["judgements"] if x["number"] == action["number"]), None)
        if j is None:
            raise Refused(f"there is no judgement {action['number']}")
        if j["status"] != "open":
            raise Refused(f"judgement {j['number']} was already decided")
        if j["judge"] != action["player"]:
            raise Refused(f"you are not the judge of judgement {j['number']}; {j['judge']} is")
        if not action.get("text", "").strip():
            raise Refused("a ruling needs its answer in the body")
        j.update(status="decided", ruling=action["text"].strip(), decided=iso(ctx.now))
        ctx.ack(f"Your ruling on judgement {j['number']} is recorded and announced.")
        self.event(state, ctx, f"{j['judge']} ruled on judgement {j['number']}.")
        self.announce(
            state,
            ctx,
            f"[Judgement {j['number']}] Ruling by {j['judge']}",
            [f"Question: {j['question']}", "Ruling:", *j["ruling"].splitlines()],
        )
        ctx.alert(
            f"Judgement {j['number']} was ruled by {j['judge']}: apply its effects (penalties of "
            "rule 4, reversals) "
            "with `mailref score` / `mailref rule`."
        )

    # ---- timers ------------------------------------------------------------------
    def deadline_times(self, state: GameState, now: datetime) -> list[datetime]:
        out = []
        t = state["turn"]
        if t and t.get("deadline"):
            d = parse_iso(t["deadline"])
            out.append(d)
            if not t.get("reminded"):
                out.append(self.reminder_at(state, d, t.get("started")))
        prop = self.current_proposal(state)
        if prop and prop.get("deadline"):
            d = parse_iso(prop["deadline"])
            out.append(d)
            if not prop.get("reminded"):
                out.append(self.reminder_at(state, d, prop.get("opened")))
        return out

    def fire_deadlines(self, state: GameState, ctx: Ctx) -> None:
        for _ in range(
            100
        ):  # a long outage may owe several deadlines: fire them in order, once each
            t = state["turn"]
            prop = self.current_proposal(state)
            due: list[tuple[datetime, str]] = []
            if t and t.get("deadline"):
                due.append((parse_iso(t["deadline"]), "turn"))
            if prop and prop.get("deadline"):
                due.append((parse_iso(prop["deadline"]), "vote"))
            due = sorted(d for d in due if d[0] <= ctx.now)
            if not due:
                break
            when, what = due[0]
            late = self.late_note(when, ctx)
            if what == "turn":
                self.next_turn(
                    state,
                    ctx,
                    skipped="no move within the turn timeout (rule 8)",
                    late=late,
                    missed=True,
                )
            else:
                self.close(state, prop, ctx, late)
        self.remind(state, ctx)

    def remind(self, state: GameState, ctx: Ctx) -> None:
        t = state["turn"]
        if (
            t
            and t.get("deadline")
            and not t.get("reminded")
            and ctx.now >= self.reminder_at(state, parse_iso(t["deadline"]), t.get("started"))
        ):
            t["reminded"] = True
            ctx.send(
                "reminder",
                [t["player"]],
                f"[Turn {t['number']}] Reminder: your move is due "
                f"{self.when(state, t['deadline'])}",
                "reminder.txt",
                game=state,
                what=f"your move (turn {t['number']})",
                deadline=self.when(state, t["deadline"], ctx),
                how='To move, reply to this mail with your rule changes (a first line "Title: Your title" names the '
                "proposal), or send [Forfeit] to give up the turn.",
            )
        prop = self.current_proposal(state)
        if (
            prop
            and prop.get("deadline")
            and not prop.get("reminded")
            and ctx.now >= self.reminder_at(state, parse_iso(prop["deadline"]), prop.get("opened"))
        ):
            prop["reminded"] = True
            missing = [n for n in self.voters(state, prop) if n not in prop["votes"]]
            if missing:
                ctx.send(
                    "reminder",
                    missing,
                    f"[Proposal {prop['number']}] Reminder: your vote is due "
                    f"{self.when(state, prop['deadline'])}",
                    "reminder.txt",
                    game=state,
                    what=f"your vote on proposal {prop['number']} \"{prop['title']}\"",
                    how="To vote, reply to this mail with FOR, AGAINST or ABSTAIN.",
                    deadline=self.when(state, prop["deadline"], ctx),
                )

    def late_players(
        self, state: GameState, now: datetime | None = None
    ) -> list[tuple[str, str | None]]:
        out = []
        t = state["turn"]
        if t and t.get("deadline"):
            out.append(
                (
                    f"{t['player']} has not moved (turn {t['number']}, due "
                    f"{self.when(state, t['deadline'])})",
                    t["deadline"],
                )
            )
        prop = self.current_proposal(state)
        if prop:
            missing = [n for n in self.voters(state, prop) if n not in prop["votes"]]
            if missing:
                out.append(
                    (
                        f"Not yet voted on proposal {prop['number']} (due "
                        f"{self.when(state, prop.get('deadline'))}): "
                        f"{', '.join(missing)}",
                        prop.get("deadline"),
                    )
                )
        return out

    def current_deadline_holder(self, state: GameState) -> Turn | Matter | None:
        prop = self.current_proposal(state)
        if prop:
            return prop
        return super().current_deadline_holder(state)

    # ---- admin decisions ---------------------------------------------------------
    @action("decide")
    def on_decide(self, state: GameState, action: Action, ctx: Ctx) -> None:
        prop = matters.must_open(
            matters.find(state, action["number"]), action["number"], ("voting",)
        )
        outcome = action["outcome"]
        forced = {
            "enact": "enacted by the admin",
            "fail": "failed by the admin",
            "veto": "vetoed by the admin",
        }[outcome]
        ctx.ack(f"Proposal {prop['number']}: {outcome} by the admin.")
        self.close(
            state,
            prop,
            ctx,
            late=f"Decided by the admin: {action.get('reason') or 'no reason given'}.",
            forced=forced,
        )
        if outcome == "enact":
            prop["reason"] = "enacted by the admin"

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
                action["vote"],
                ctx,
                f"admin {action.get('by')}",
                zone=state.get("timezone") or "UTC",
            )
            + " (admin override)"
        )
        self.tell_vote_override(
            state, action, ctx, p["name"], prop, "Proposal", action["vote"], previous
        )
        self.maybe_close(state, prop, ctx)
