"""Nomic Sidekick's votes (rules 11-14) and the admin's decisions on them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from mailref.engine import matters
from mailref.engine.context import Ctx, Refused
from mailref.engine.mechanics import voting
from mailref.engine.mechanics.proposals import Proposals, ProposalsHost, Voters
from mailref.engine.ruleset import changes_from
from mailref.engine.state import GameState, Matter, OtherAction
from mailref.timeutil import parse_held_iso

if TYPE_CHECKING:
    from mailref.engine.ruleparams import Table
    from mailref.engine.variants.enactment import Enactment


class SidekickHost(ProposalsHost, Protocol):
    """What Sidekick's votes ask of the game besides what the lifecycle asks: its players and
    enactment as the components they are, its parameter table, victory and the next turn."""

    parameter_table: Table

    @property
    def players(self) -> Voters: ...

    @property
    def enactment(self) -> Enactment: ...

    def check_victory(self, state: GameState, ctx: Ctx) -> None: ...

    def next_turn(self, state: GameState, ctx: Ctx) -> None: ...


class SidekickVotes(Proposals):
    """Sidekick's hooks of the proposal lifecycle, its close and the admin's decisions: held by
    the game as `proposals`."""

    game: SidekickHost

    def __init__(self, game: SidekickHost) -> None:
        super().__init__(game)

    # ---- votes (rules 11–14) -----------------------------------------------------
    def current_proposal(self, state: GameState) -> Matter | None:
        return next((p for p in state["proposals"] if p["status"] == "voting"), None)

    def authors_ballot(self, state: GameState, prop: Matter, vote: str, ctx: Ctx) -> None:
        # Rule 11: "The player moving is assumed to be voting “for” the proposal"
        # (docs/games/sidekick.md); amended so that the mover votes, theirs to change.
        if self.game.parameter_table.value(state["parameters"], "mover_vote") == "own":
            ctx.ack(
                matters.cast(prop, prop["author"], vote, ctx, zone=state.get("timezone") or "UTC")
            )
            self.after_ballot(state, prop, prop["author"], vote, ctx)
            return
        if vote == "FOR":
            ctx.ack(
                f"Proposal {prop['number']} is your move: your vote is already FOR (rule "
                "11); nothing changed."
            )
            return
        raise Refused("mover_votes_for", number=prop["number"])

    def after_ballot(self, state: GameState, prop: Matter, name: str, vote: str, ctx: Ctx) -> None:
        self.game.players.tell_away_voter(
            state, name, ctx, "the ABSTAIN counted for an away player who does not vote"
        )
        self.game.event(state, ctx, f"{name} voted on proposal {prop['number']}.")
        self.maybe_close(state, prop, ctx)

    def settle(self, state: GameState, prop: Matter, ctx: Ctx) -> None:
        self.maybe_close(state, prop, ctx)

    def maybe_close(self, state: GameState, prop: Matter, ctx: Ctx, late: str = "") -> None:
        waiting = self.waiting_for(state, prop)
        if not voting.due(self.policy, waiting, ctx.now, parse_held_iso(prop["deadline"])):
            return
        self.close(state, prop, ctx, late)

    def close(
        self, state: GameState, prop: Matter, ctx: Ctx, late: str = "", forced: str | None = None
    ) -> None:
        # Missing votes, and away players, abstain (rules 11 and 15); the result says whose.
        silent: list[str] = []
        away: list[str] = []
        abstains = self.policy.silent_counts_as or "ABSTAIN"  # Sidekick's policy: ABSTAIN
        for p in self.game.players.present(state):
            if p["name"] not in prop["votes"]:
                (silent if p["status"] == "active" else away).append(p["name"])
                prop["votes"][p["name"]] = abstains
        # A vote is a player's: one who left the game before the vote closed has none (as in
        # BlogNomic and Imperial); the result says whose ballot it set aside.
        gone = sorted(
            n
            for n in prop["votes"]
            if (q := self.game.players.player(state, n)) and q["status"] == "left"
        )
        outcome = voting.count(
            self.policy_in(state), {n: v for n, v in prop["votes"].items() if n not in gone}
        )
        counts, passed, reason = outcome.counts, outcome.passes, outcome.reason
        if forced:
            passed, reason = forced.startswith("enact"), forced
        self.record_outcome(prop, passed, reason, counts, ctx)
        lines = [
            f"Proposal {prop['number']} \"{prop['title']}\" by {prop['author']} has "
            f"{prop['status']}: "
            f"{matters.tally_text(counts)} ({prop['reason']}).",
            "Votes: " + ", ".join(f"{k} {v}" for k, v in sorted(prop["votes"].items())),
        ]
        if silent:  # the admin may decide before the vote closes: then it was not "in time"
            lines.append(
                f"Counted ABSTAIN, not having voted when {forced.split(' by ')[-1]} decided it: "
                f"{', '.join(sorted(silent))}."
                if forced
                else "Counted ABSTAIN, not having voted in time (rule 11): "
                f"{', '.join(sorted(silent))}."
            )
        if away:
            lines.append(f"Counted ABSTAIN, being away (rule 15): {', '.join(sorted(away))}.")
        if gone:
            lines.append(f"Not counted, having left the game: {', '.join(gone)}.")
        if late:
            lines.append(late)
        # Rules 21 and 22 score the mover; a repealed one gives nothing and is never cited.
        scoring = "pass_points" if passed else "fail_points"
        if scored := self.score_author(state, prop, passed):
            author, points = scored
            cited = (
                "rules 21–22"
                if self.game.enactment.in_force(state, "pass_points")
                and self.game.enactment.in_force(state, "fail_points")
                else f"rule {self.game.parameter_table[scoring].rule}"
            )
            lines.append(
                f"{author['name']} scores {points:+d} ({cited}) and now has {author['score']}."
            )
        elif self.game.players.player(state, prop["author"]) and not self.game.enactment.in_force(
            state, scoring
        ):
            lines.append(
                f"{prop['author']} scores nothing: rule "
                f"{self.game.parameter_table[scoring].rule}, which scored it, is repealed."
            )
        changes = changes_from(prop["changes"])
        if passed and (note := self.game.enactment.enactment_note(state, changes)):
            lines.append(note)
        self.game.event(state, ctx, lines[0])
        ctx.send(
            "results",
            "all",
            f"[Proposal {prop['number']}] {prop['status'].upper()}: {prop['title']}",
            "notice.txt",
            game=state,
            heading="",
            lines=lines,
        )
        self.game.check_victory(state, ctx)
        moves_on = bool(state["turn"] and state["turn"].get("proposal") == prop["number"])

        def next_turn() -> None:
            # Rules 20 and 23 as they now read: a lowered target ends the game here.
            self.game.check_victory(state, ctx)
            if moves_on:
                self.game.next_turn(state, ctx)

        if not passed:
            next_turn()
            return
        # The next turn opens once the changes are in force (rule 7: a passed amendment of rule 8
        # gives the next mover its new time), and before the ruleset mail, which shows the new
        # mover (rule 5).
        self.enact(state, prop, ctx, "is in effect", then=next_turn)

    # ---- admin decisions ---------------------------------------------------------
    def decided_by_admin(
        self, state: GameState, prop: Matter, action: OtherAction, ctx: Ctx
    ) -> None:
        outcome = action["outcome"]
        who = "the GM" if action.get("gm") else "the admin"  # the GM's [Decide] by mail
        forced = {
            "enact": f"enacted by {who}",
            "fail": f"failed by {who}",
            "veto": f"vetoed by {who}",
        }[outcome]
        ctx.ack(f"Proposal {prop['number']}: {outcome} by {who}.")
        self.close(
            state,
            prop,
            ctx,
            late=f"Decided by {who}: {action['reason']}." if action.get("reason") else "",
            forced=forced,
        )
        if outcome == "enact":
            prop["reason"] = f"enacted by {who}"
