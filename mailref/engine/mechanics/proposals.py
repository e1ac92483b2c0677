"""The proposal lifecycle, once for every Nomic: a matter is submitted, voted on, overridden
or decided by the admin, decided under the game's `VotingPolicy` (mechanics/voting.py), and
enacted or failed: its outcome recorded, its author scored, its changes put in force.

A variant holds `Proposals` (or its own subclass of it) as `proposals`, sets `policy`, and its
subclass overrides only the hooks below where its rules differ; each hook's default is the plain
case.

  electorate(state, matter)             who votes on MATTER (every active player but its author)
  may_vote(state, name)                 refuse a player who has no vote (Senators, Wizards)
  voting_matter(state, number)          the matter a ballot names (BlogNomic: any kind)
  label_of(matter) / heading_of(matter) how acks and subjects name it ("proposal", "Proposal")
  authors_ballot(state, matter, vote, ctx)
                                        the author's ballot where the policy fixes it
  check_ballot(state, matter, name, vote)
                                        refuse a ballot the rules forbid (BlogNomic's VETO)
  after_ballot(state, matter, name, vote, ctx) / after_votes(state, ctx)
                                        what a counted ballot, and a mail of them, sets off
  settle(state, matter, ctx)            decide MATTER if it is due (after the admin's ballot)
  before_deciding(state)                refuse the admin's decision outright (no Emperor)
  decided_by_admin(state, matter, action, ctx)
                                        carry out the admin's enact, fail or veto
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal, Protocol

from mailref.engine import matters
from mailref.engine.context import Ctx, Refused
from mailref.engine.mechanics.voting import VotingPolicy
from mailref.engine.ruleset import changes_from
from mailref.engine.state import Action, GameState, Matter, OtherAction, Player, VoteAction
from mailref.engine.variants.actions import action
from mailref.timeutil import iso, parse_iso

if TYPE_CHECKING:
    from mailref.engine.change import RuleChange


class Reminders(Protocol):
    """When the game reminds of a deadline."""

    def reminder_at(self, state: GameState, deadline: datetime, opened: str | None) -> datetime: ...


class Roster(Protocol):
    """The game's players: the active ones, and one found by name."""

    def active(self, state: GameState) -> list[Player]: ...

    def must_player(self, state: GameState, name: str) -> Player: ...

    def player(self, state: GameState, name: str) -> Player | None: ...


class Voters(Roster, Protocol):
    """The players as a vote that closes with everyone counted reads them (Sidekick's, the
    Senate's): those present, and an away voter told that their ballot counts."""

    def present(self, state: GameState) -> list[Player]: ...

    def tell_away_voter(
        self, state: GameState, name: str, ctx: Ctx, otherwise: str = ""
    ) -> None: ...


class Enacting(Protocol):
    """How the game puts a matter's rule changes in force, and whether a rule is in force."""

    def enact_changes(
        self,
        state: GameState,
        ctx: Ctx,
        changes: list[RuleChange],
        by: str,
        why: str,
        then: Callable[[], None] | None = None,
    ) -> str | None: ...

    def in_force(self, state: GameState, name: str) -> bool: ...


class VoteOverrides(Protocol):
    """How the game tells a player the admin set their ballot."""

    def tell_vote_override(
        self,
        state: GameState,
        action: Action,
        ctx: Ctx,
        name: str,
        matter: Matter,
        label: str,
        vote: str,
        previous: str | None,
    ) -> None: ...


class ProposalsHost(Protocol):
    """What the lifecycle asks of the game it is held by (base.py's concerns)."""

    policy: VotingPolicy

    @property
    def players(self) -> Roster: ...

    @property
    def deadlines(self) -> Reminders: ...

    @property
    def enactment(self) -> Enacting: ...

    def translate_vote(self, meaning: str) -> str: ...

    def event(self, state: GameState, ctx: Ctx, text: str) -> None: ...

    @property
    def admin(self) -> VoteOverrides: ...


class Proposals:
    """Submitting, voting on and deciding a game's matters under its `policy`: held by the game
    as `proposals` (a Nomic holds its subclass, which overrides the hooks below)."""

    def __init__(self, game: ProposalsHost) -> None:
        self.game = game

    @property
    def policy(self) -> VotingPolicy:
        """The game's voting policy, as its class declares it."""
        return self.game.policy

    def policy_in(self, state: GameState) -> VotingPolicy:
        """The policy as the rules now read: a switch of it the game holds a parameter of (bound
        to the rule that states it, followed when that rule changes) takes the game's value."""
        switches = {f.name for f in fields(VotingPolicy)} & set(state["parameters"])
        if not switches:
            return self.policy
        return replace(self.policy, **{k: state["parameters"][k] for k in switches})

    def ballots_taken(self, state: GameState) -> tuple[str, ...]:
        """The ballots the game takes as its rules now read (a new rule may allow ABSTAIN)."""
        return self.policy_in(state).takes()

    # ---- submitting --------------------------------------------------------------
    def submit(
        self,
        state: GameState,
        ctx: Ctx,
        author: str,
        title: str,
        text: str,
        deadline: datetime | None = None,
        collection: Literal["proposals", "judgements"] = "proposals",
        **extra: Any,
    ) -> Matter:
        """A new matter of AUTHOR, open to votes, with the author's vote the policy gives."""
        m = matters.new_matter(
            state, ctx, author, title, text, self.policy.open_status, deadline, **extra
        )
        if self.policy.author_vote:
            m["votes"][author] = self.policy.author_vote
        state[collection].append(m)
        return m

    def announce_proposal(
        self,
        state: GameState,
        ctx: Ctx,
        prop: Matter,
        changes: list[RuleChange],
        voters: list[str],
        **extra: Any,
    ) -> None:
        """Every player's mail of a new proposal: its text, its changes, who votes and how."""
        ctx.send(
            "announcement",
            "all",
            f"[Proposal {prop['number']}] {prop['title']}",
            "proposal.txt",
            opens=True,
            game=state,
            proposal=prop,
            changes=[c.describe() for c in changes],
            voters=voters,
            words=list(self.policy.offered),
            **extra,
        )

    # ---- voting ------------------------------------------------------------------
    @action("vote")
    def on_vote(self, state: GameState, action: VoteAction, ctx: Ctx) -> None:
        name = action["player"] or ""
        self.may_vote(state, name)
        for b in action["ballots"]:
            m = self.open_to_votes(state, b["number"])
            vote, policy = b["vote"], self.policy_in(state)
            if vote not in policy.takes():
                raise Refused("not_a_vote_here", word=b["word"], words=list(policy.offered_now()))
            if name == m["author"] and not self.policy.author_may_change:
                self.authors_ballot(state, m, vote, ctx)
                continue
            self.check_ballot(state, m, name, vote)
            ctx.ack(
                matters.cast(
                    m,
                    name,
                    vote,
                    ctx,
                    action.get("source", ""),
                    self.label_of(m),
                    zone=state.get("timezone") or "UTC",
                    reason=str(b.get("reason") or ""),
                )
            )
            self.after_ballot(state, m, name, vote, ctx)
        self.after_votes(state, ctx)

    def open_to_votes(self, state: GameState, number: int) -> Matter:
        m = self.voting_matter(state, number)
        return matters.must_open(m, number, (self.policy.open_status,), self.label_of(m))

    @action("vote_override")
    def on_vote_override(self, state: GameState, action: OtherAction, ctx: Ctx) -> None:
        m = self.open_to_votes(state, action["number"])
        p = self.game.players.must_player(state, action["player"] or "")
        previous = m["votes"].get(p["name"])
        vote = self.game.translate_vote(action["vote"])
        ctx.ack(
            matters.cast(
                m,
                p["name"],
                vote,
                ctx,
                f"admin {action.get('by')}",
                self.label_of(m),
                zone=state.get("timezone") or "UTC",
            )
            + (" (the GM's override)" if action.get("gm") else " (admin override)")
        )
        self.game.admin.tell_vote_override(
            state, action, ctx, p["name"], m, self.heading_of(m), vote, previous
        )
        self.settle(state, m, ctx)

    # ---- the admin's decision ----------------------------------------------------
    @action("decide")
    def on_decide(self, state: GameState, action: OtherAction, ctx: Ctx) -> None:
        self.before_deciding(state)
        number = action["number"]
        m = self.voting_matter(state, number)
        if action.get("reopen"):
            self.reopen(state, m, action, ctx)
            return
        if m is not None and m["status"] not in self.policy.undecided:
            # Decided already: the GM is told how to reverse it, not that votes are closed.
            status, policy = m["status"], self.policy
            reverse = {policy.passed_status: "fail", policy.failed_status: "enact"}.get(status, "")
            label = self.label_of(m)
            raise Refused(
                "decide_closed", label=label, number=number, status=status, reverse=reverse
            )
        m = matters.must_open(m, number, self.policy.undecided, self.label_of(m))
        self.decided_by_admin(state, m, action, ctx)

    def reopen(self, state: GameState, m: Matter | None, action: OtherAction, ctx: Ctx) -> None:
        """The GM reverses a result the referee closed (`mailref proposal enact|fail N --reopen`):
        a proposal failed on a rule the referee still ran as first written (a self-kill, a tie)
        is enacted, or one passed is failed; the author's points follow, and everyone is told."""
        number, passed = action["number"], action["outcome"] == "enact"
        if m is None or m not in state["proposals"]:
            raise Refused("no_matter", label="proposal", number=number)
        was, why = m["status"], m.get("reason") or "no reason given"
        if was in self.policy.undecided:
            raise Refused("reopen_still_open", number=number)
        if was != (self.policy.failed_status if passed else self.policy.passed_status):
            raise Refused("reopen_not_reversible", number=number, status=was)
        undone, scored = self.points_for(state, m, not passed), self.points_for(state, m, passed)
        author = self.game.players.player(state, m["author"])
        m["status"] = self.policy.passed_status if passed else self.policy.failed_status
        m["reason"] = f"{'passed' if passed else 'failed'} by the GM, reversing the result ({was})"
        if m["status"] not in self.policy.undecided:
            m["closed"] = iso(ctx.now)
        head = self.heading_of(m)
        lines = [
            f"The GM reverses the result of {head.lower()} {number} \"{m['title']}\": it was "
            f"{was} ({why}), and is now {m['status']}. " + (action.get("reason") or "")
        ]
        if author is not None and (undone is not None or scored is not None):
            author["score"] += (scored or 0) - (undone or 0)
            lines.append(
                f"{author['name']} scores {(scored or 0) - (undone or 0):+d} for the reversal and "
                f"now has {author['score']}."
            )
        if not passed and m.get("changes"):
            lines.append(
                "Its rule changes stay in force until the GM undoes them (by mail with [Rule], "
                "or on the host: `mailref rule`)."
            )
        if m["status"] in self.policy.undecided:
            lines.append("It awaits its next step as a passed proposal does.")
        self.game.event(state, ctx, lines[0].strip())
        ctx.ack(lines[0].strip())
        ctx.send(
            "results",
            "all",
            f"[{head} {number}] {m['status'].upper()} (reversed by the GM): {m['title']}",
            "notice.txt",
            game=state,
            heading="",
            lines=[x.strip() for x in lines],
        )
        self.after_reopen(state, m, ctx)
        if passed and m["status"] not in self.policy.undecided:
            self.enact(state, m, ctx, "is in effect, the GM reversing its result")

    # ---- enacting or failing ------------------------------------------------------
    def record_outcome(
        self,
        m: Matter,
        passed: bool,
        reason: str | None,
        counts: dict[str, int],
        ctx: Ctx,
        final: bool = True,
    ) -> None:
        """M decided by its vote: the policy's status for a pass or a fail, why, the count; and
        closed, unless a further step decides it (Imperial's Emperor: FINAL false)."""
        m["status"] = self.policy.passed_status if passed else self.policy.failed_status
        m["reason"], m["tally"] = reason, counts
        if "deadline" in m:
            m["deadline"] = None
        if final:
            m["closed"] = iso(ctx.now)

    def score_author(self, state: GameState, m: Matter, passed: bool) -> tuple[Player, int] | None:
        """The author scores what the policy gives for a pass or a fail: (author, points); None
        where it gives nothing (or the rule giving it is repealed) or the author is gone."""
        author, points = (
            self.game.players.player(state, m["author"]),
            self.points_for(state, m, passed),
        )
        if author is None or points is None:
            return None
        author["score"] += points
        return author, points

    def points_for(self, state: GameState, m: Matter, passed: bool) -> int | None:
        """What the policy gives M's author for a pass or a fail, as the rules now read; None
        where it gives nothing (or the rule giving it is repealed)."""
        if not self.policy.points:
            return None
        param = self.policy.points[0 if passed else 1]
        if not self.game.enactment.in_force(state, param):  # its rule repealed: no points
            return None
        points = int(state["parameters"][param])
        bonus = self.policy.unopposed_bonus
        if passed and bonus and self.policy.against_word not in m["votes"].values():
            points += int(state["parameters"].get(bonus, 0))
        return points

    def enact(
        self,
        state: GameState,
        m: Matter,
        ctx: Ctx,
        verb: str,
        then: Callable[[], None] | None = None,
        note_failure: bool = True,
    ) -> str | None:
        """Put M's rule changes in force ("Proposal 3 "Title" VERB"), THEN (once they are) what
        follows; returns why nothing applied, which M's reason notes unless NOTE_FAILURE is off."""
        label = self.heading_of(m)
        failed = self.game.enactment.enact_changes(
            state,
            ctx,
            changes_from(m.get("changes") or []),
            f"{label.lower()} {m['number']}",
            f"{label} {m['number']} \"{m.get('question') or m['title']}\" {verb}",
            then=then,
        )
        if failed and note_failure and m.get("changes"):
            m["reason"] = f"{m.get('reason') or ''}; its changes could not apply: {failed}"
        return failed

    def vote_times(self, state: GameState, m: Matter) -> list[datetime]:
        """When M's vote wants the clock: its deadline, and its reminder until it is sent."""
        d = parse_iso(m.get("deadline"))
        if d is None:
            return []
        return (
            [d]
            if m.get("reminded")
            else [d, self.game.deadlines.reminder_at(state, d, m.get("opened"))]
        )

    def waiting_for(self, state: GameState, m: Matter) -> list[str]:
        """Those of M's electorate who have not voted on it."""
        return [n for n in self.electorate(state, m) if n not in m["votes"]]

    def how_to_vote(self) -> str:
        """The line a mail asking for a vote ends with, naming the ballots players are told of."""
        return f"To vote, reply to this mail with {self.policy.offered_text()}"

    # ---- hooks (the plain case) --------------------------------------------------
    def electorate(self, state: GameState, m: Matter) -> list[str]:
        """Every active player but the author votes."""
        return [p["name"] for p in self.game.players.active(state) if p["name"] != m["author"]]

    def may_vote(self, state: GameState, name: str) -> None:
        """Every player votes."""

    def voting_matter(self, state: GameState, number: int) -> Matter | None:
        return matters.find(state, number)

    def label_of(self, m: Matter | None) -> str:
        return "proposal"

    def heading_of(self, m: Matter) -> str:
        return "Proposal"

    def authors_ballot(self, state: GameState, m: Matter, vote: str, ctx: Ctx) -> None:
        """A policy that fixes the author's ballot says what the author is told of theirs."""
        raise NotImplementedError

    def check_ballot(self, state: GameState, m: Matter, name: str, vote: str) -> None:
        """Every word of the policy is a valid ballot."""

    def after_ballot(self, state: GameState, m: Matter, name: str, vote: str, ctx: Ctx) -> None:
        """Nothing follows a ballot."""

    def after_votes(self, state: GameState, ctx: Ctx) -> None:
        """Nothing follows a mail of ballots."""

    def settle(self, state: GameState, m: Matter, ctx: Ctx) -> None:
        """A matter is decided at its deadline only."""

    def after_reopen(self, state: GameState, m: Matter, ctx: Ctx) -> None:
        """Nothing follows a result the GM reversed but its mail."""

    def before_deciding(self, state: GameState) -> None:
        """The admin may always decide."""

    def decided_by_admin(self, state: GameState, m: Matter, action: OtherAction, ctx: Ctx) -> None:
        raise NotImplementedError
