"""Nomic Sidekick Nomic: one mover proposes, everybody votes (seed 004, rules 6–23)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, cast

from mailref.engine.context import Ctx, Refused
from mailref.engine.mechanics.gamestate import Gamestate
from mailref.engine.mechanics.turn_order import TurnOrder
from mailref.engine.mechanics.voting import VotingPolicy
from mailref.engine.ruleset import (
    RuleConflict,
    changes_from,
    check_changes,
    free_rule_number,
    plain,
)
from mailref.engine.ruleset_file import shipped_rules
from mailref.engine.state import (
    Action,
    GameState,
    Matter,
    Player,
    ProposalAction,
    Rule,
    SidekickState,
    Turn,
)
from mailref.engine.variants import rule_tables
from mailref.engine.variants.actions import action
from mailref.engine.variants.base import Variant
from mailref.engine.variants.components import Held
from mailref.engine.variants.sidekick_judges import SidekickJudges
from mailref.engine.variants.sidekick_timers import SidekickTimers
from mailref.engine.variants.sidekick_votes import SidekickVotes
from mailref.engine.variants.victory import first_to_reach, note_score
from mailref.timeutil import iso

# Rules 11-12 and 21-22: every other active player votes; the vote closes when all have voted
# or at its deadline; a silent or away player abstains; more FOR than AGAINST passes (a tie
# fails); the mover scores pass_points or fail_points and a passed move is enacted.
VOTING = VotingPolicy(
    words=("FOR", "AGAINST", "ABSTAIN"),
    offered=("FOR", "AGAINST", "ABSTAIN"),
    open_status="voting",
    undecided=("voting",),
    decision="majority of cast",
    closing="all voted or deadline",
    passed_status="passed",
    failed_status="failed",
    author_vote="FOR",
    silent_counts_as="ABSTAIN",
    points=("pass_points", "fail_points"),
    unopposed_bonus="unopposed_bonus",
)


class Sidekick(Variant):
    proposals = Held(SidekickVotes)
    judges = Held(SidekickJudges)
    gamestate = Held(Gamestate)
    timers = Held(SidekickTimers)

    name = "sidekick"
    title = "Nomic Sidekick Nomic"
    parameter_table = rule_tables.SIDEKICK
    # Turn order, what a move holds, the vote and its outcome, absence, the judge, victory.
    runs_rules = frozenset({"6", "9", "10", "11", "12", "15", "17", "19", "20"})
    policy = VOTING
    vote_words = VOTING.words
    whole_rule_numbers = True  # rule 10: "The reference number must be a positive integer."
    capped_matters = frozenset({"cfj"})  # a move is one proposal by the mover a turn (rule 8)
    instead = {"withdraw": "no_withdrawal_in_sidekick"}
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
        return shipped_rules("sidekick")  # type: ignore[return-value]

    def initial_state(self, *args: Any, **kw: Any) -> GameState:
        state = super().initial_state(*args, **kw)
        cast("SidekickState", state)["next_judgement"] = 1
        return state

    # ---- turn order (rule 6) -----------------------------------------------------
    def after_join(self, state: GameState, player: Player, action: Action, ctx: Ctx) -> None:
        if state["turn"] is None:
            super().after_join(state, player, action, ctx)
            eligible = [p["name"] for p in self.players.present(state)]
            if len(eligible) >= max(2, state["parameters"].get("founders", 2)):
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
            return
        at = None
        if player["name"] not in state["order"]:
            at = ctx.randint(0, len(state["order"]))
            state["order"].insert(at, player["name"])
        super().after_join(state, player, action, ctx)  # the announcement names the new order
        if at is not None:
            who = (
                f"{player['name']} is" if action.get("by") else "You are"
            )  # `player add` answers the admin
            ctx.ack(
                f"{who} inserted at place {at + 1} of the turn order: {', '.join(state['order'])}."
            )

    def join_news(self, state: GameState, player: Player) -> list[str]:
        order = state["order"]
        if state["turn"] is None or player["name"] not in order:
            return []
        return [
            f"{player['name']} is at place {order.index(player['name']) + 1} of the turn order "
            "(rule 6); the turn order is now:",
            *(f"{i}. {n}" for i, n in enumerate(order, 1)),
        ]

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
            self.judges.new_judges(state, player, ctx)
        if (
            player["status"] != "active"
            and t.get("player") == player["name"]
            and not t.get("proposal")
        ):
            self.next_turn(state, ctx, skipped=f"{player['name']} is away (rule 15)")
        elif t.get("player") is None and player["status"] == "active":
            self.next_turn(state, ctx)
        else:
            prop = self.proposals.current_proposal(state)
            if prop:
                self.proposals.maybe_close(state, prop, ctx)

    def after_undo(self, before: GameState, state: GameState, ctx: Ctx) -> None:
        """A turn an undo gave back to its mover (the move undone) runs a full turn_timeout from
        the undo, and the mover is told it is their move again."""
        t = cast("Turn", state.get("turn") or {})
        was = cast("Turn", before.get("turn") or {})
        mover = t.get("player")
        if not mover or t.get("proposal") or state["status"] != "active":
            return
        if (mover, t.get("number")) == (was.get("player"), was.get("number")):
            return
        deadline = ctx.now + self.deadlines.duration(state, "turn_timeout")
        t["deadline"] = iso(deadline)
        t.pop("reminded", None)
        ctx.send(
            "turn",
            [mover],
            f"[Turn {t['number']}] Your move",
            "turn.txt",
            opens=True,
            game=state,
            mover=mover,
            number=t["number"],
            deadline=self.deadlines.when(state, deadline, ctx),
        )

    def ballots_taken(self, state: GameState) -> tuple[str, ...]:
        return self.proposals.ballots_taken(state)  # the lifecycle's policy as the rules read

    # ---- the clock: the turn's and the vote's deadlines (sidekick_timers.py) ---------
    def deadline_times(self, state: GameState, now: datetime) -> list[datetime]:
        return self.timers.deadline_times(state, now)

    def fire_deadlines(self, state: GameState, ctx: Ctx) -> None:
        self.timers.fire_deadlines(state, ctx)

    def late_players(
        self, state: GameState, now: datetime | None = None
    ) -> list[tuple[str, str | None]]:
        return self.timers.late_players(state, now)

    def current_deadline_holder(self, state: GameState) -> Turn | Matter | None:
        return self.proposals.current_proposal(state) or super().current_deadline_holder(state)

    def open_turn(self, state: GameState, ctx: Ctx, mover: str | None, number: int) -> None:
        if mover is None:
            state["turn"] = {"number": number, "player": None, "deadline": None, "proposal": None}
            self.event(
                state, ctx, "Nobody present can move; the game waits for a player to return."
            )
            return
        deadline = ctx.now + self.deadlines.duration(state, "turn_timeout")
        state["turn"] = {
            "number": number,
            "player": mover,
            "deadline": iso(deadline),
            "started": iso(ctx.now),
            "proposal": None,
        }
        self.event(
            state, ctx, f"Turn {number}: {mover} to move by {self.deadlines.when(state, deadline)}."
        )
        ctx.send(
            "turn",
            [mover],
            f"[Turn {number}] Your move",
            "turn.txt",
            opens=True,
            game=state,
            mover=mover,
            number=number,
            deadline=self.deadlines.when(state, deadline, ctx),
        )

    def turn_order(self, state: GameState) -> TurnOrder:
        """Rule 6's order; a player who is away or gone is passed over (rule 15)."""

        def active(name: str) -> bool:
            p = self.players.player(state, name)
            return bool(p and p["status"] == "active")

        return TurnOrder(state["order"], active)

    def next_mover(self, state: GameState, after: str | None) -> str | None:
        return self.turn_order(state).after(after)

    def next_turn(
        self,
        state: GameState,
        ctx: Ctx,
        skipped: str | None = None,
        late: str = "",
        missed: bool = False,
    ) -> None:
        t = _in_play(state)
        after = t.get("player") or t.get("last")
        if after not in state["order"] and t.get("before"):
            after = t["before"]
        if skipped:
            self.event(state, ctx, f"Turn {t['number']} of {t['player']} skipped: {skipped}.")
            lines = [f"{t['player']}'s turn is skipped: {skipped}."] + ([late] if late else [])
            if state["status"] != "ended":
                upcoming = self.next_mover(state, after)
                lines.append(
                    f"It is now {upcoming}'s turn (turn {t['number'] + 1})."
                    if upcoming
                    else "Nobody present can move; the game waits for a player to return."
                )
            if (
                missed
            ):  # the mover who let the time pass hears it as such (kind `late`), the others as news
                others = [
                    p["name"] for p in self.players.present(state) if p["name"] != t["player"]
                ]
                self.announce(state, ctx, f"Turn {t['number']} skipped", lines, to=others)
                ctx.send(
                    "late",
                    [cast(str, t["player"])],  # a turn is skipped only with a mover
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
            _in_play(state)["deadline"] = None
            return
        self.open_turn(state, ctx, self.next_mover(state, after), t["number"] + 1)
        if skipped:
            _in_play(state)["last"] = t.get("player")

    # ---- victory (rules 20 and 23) -----------------------------------------------
    def check_victory(self, state: GameState, ctx: Ctx) -> None:
        if state["status"] == "ended":
            return
        target = state["parameters"]["win_score"]
        sidekick = cast("SidekickState", state)
        sidekick["score_checks"] = seq = sidekick.get("score_checks", 0) + 1  # "the same time"
        for p in self.players.present(state):
            note_score(p, seq)
        winners = first_to_reach(state, self.players.present(state), target)
        if winners:
            state["winners"], state["status"] = winners, "ended"
            also = [
                p["name"]
                for p in self.players.present(state)
                if p["score"] >= target and p["name"] not in winners
            ]
            text = (
                f"{winners[0]} reaches {target} points and wins (rule 23)!"
                if len(winners) == 1 and not also
                else f"{winners[0]} reached {target} points first and wins (rules 20 and 23)!"
                if len(winners) == 1
                else f"{', '.join(winners)} reach {target} points at the same time: the game ends "
                "in a tie (rule 20)."
            )
            self.event(state, ctx, text)
            standings = sorted(
                self.players.present(state), key=lambda p: -p["score"]
            )  # the winner first, as a table of results reads
            self.announce(
                state,
                ctx,
                f"{state['name']} is won",
                [text, "Final scores:"] + [f"{p['name']}: {p['score']}" for p in standings],
                kind="results",
            )

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
            if t and mover
            else f"Turn {t['number']}: nobody present can move."
            if t
            else "The first turn opens once two players are in."
        ]
        lines.append(f"{self.replies.players_word(state)} in turn order:")
        seated = [self.players.player(state, n) for n in state["order"]]
        waiting = [p for p in self.players.present(state) if p["name"] not in state["order"]]
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
        move = cast("ProposalAction", action)
        player = cast(str, move["player"])  # the sender's: only a player proposes
        t = state["turn"]
        if t is None:
            raise Refused("first_turn_not_open")
        if t.get("player") != player:
            raise Refused("not_your_turn", mover=t.get("player"))
        if t.get("proposal"):
            raise Refused("moved_already", number=t["proposal"])
        changes = changes_from(move["changes"])
        rules = plain(state["rules"])
        if not changes:
            raise Refused(
                "move_without_changes", free=free_rule_number(rules, state["rule_history"])
            )
        # Every fault of the move at once (SPEC §2.6): the unnumbered new rules and what the
        # numbered changes cannot do to the ruleset.
        unnumbered = [c for c in changes if c.kind == "enact" and not c.number]
        conflicts: list[str] = []
        try:
            numbered = [c for c in changes if c not in unnumbered]
            check_changes(rules, numbered, state["rule_history"], whole_numbers=True)
        except RuleConflict as e:
            conflicts = list(e.faults)
        if unnumbered or conflicts:
            titles = [c.title for c in unnumbered]
            free = free_rule_number(
                rules, state["rule_history"]
            )  # walks every rule: asked only here
            raise Refused("move_faults", unnumbered=titles, conflicts=conflicts, free=free)
        deadline = ctx.now + self.deadlines.duration(state, "vote_timeout")
        # Rule 11: the mover is assumed to vote for (the policy's author_vote).
        prop = self.proposals.submit(
            state,
            ctx,
            player,
            move["title"],
            move["text"],
            deadline,
            changes=move["changes"],
            turn=t["number"],
        )
        t["proposal"], t["deadline"] = prop["number"], None
        ctx.ack(
            f"Proposal {prop['number']} \"{prop['title']}\" is submitted; voting closes "
            f"{self.deadlines.when(state, prop['deadline'], ctx)}."
        )
        self.enactment.ack_changes(ctx, changes)
        self.event(state, ctx, f"{player} proposed {prop['number']} \"{prop['title']}\".")
        self.proposals.announce_proposal(
            state, ctx, prop, changes, self.proposals.electorate(state, prop)
        )
        self.proposals.maybe_close(state, prop, ctx)

    @action("forfeit")
    def on_forfeit(self, state: GameState, action: Action, ctx: Ctx) -> None:
        t = state["turn"]
        if t is None or t.get("player") != action["player"]:
            raise Refused(
                "forfeit_not_yours", mover=t.get("player") if t else None, turn_open=bool(t)
            )
        if t.get("proposal"):
            raise Refused("moved_already_no_forfeit", number=t["proposal"])
        ctx.ack(f"You forfeit turn {t['number']}.")
        self.next_turn(state, ctx, skipped="forfeited (rule 8)")


def _in_play(state: GameState) -> Turn:
    """The turn in play: a turn passes, and a move is made, only with one open."""
    t = state["turn"]
    if t is None:
        raise ValueError("no turn is open")
    return t
