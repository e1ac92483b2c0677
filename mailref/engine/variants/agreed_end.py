"""An agreed end (orders games): `[Draw]` proposes that the game end shared by the players it
names (none: every survivor), `[Concede] to NAME` that it end with NAME the winner. Every
surviving player votes YES or NO by replying, until the proposal's deadline (`draw_length`);
every survivor's YES ends the game with those winners, one NO refuses it, and silence lets it
expire. The result is announced whichever way it goes: with the counts where `draw_ballots`
is `counts`, the outcome alone where it is `secret`; nobody's ballot is ever told."""

from __future__ import annotations

from datetime import datetime
from typing import Any, cast

from mailref.engine.context import Ctx, Refused
from mailref.engine.state import GameState, OrdersState, OtherAction
from mailref.engine.variants.actions import action
from mailref.engine.variants.in_play import GameInPlay
from mailref.timeutil import iso, parse_iso


class AgreedEnd:
    """Draws and concessions, kept under `endings`, one open at a time."""

    def __init__(self, game: GameInPlay) -> None:
        self.game = game

    @action("draw")
    def on_draw(self, state: GameState, action: OtherAction, ctx: Ctx) -> None:
        by = self.proposer(state, action)
        names = [self.survivor(state, n) for n in action.get("names") or []]
        winners = list(dict.fromkeys(names)) or self.survivors(state)
        if len(winners) < 2:
            raise Refused("draw_of_one", name=winners[0] if winners else by)
        self.open(state, ctx, "draw", by, winners)

    @action("concede")
    def on_concede(self, state: GameState, action: OtherAction, ctx: Ctx) -> None:
        by = self.proposer(state, action)
        winner = self.survivor(state, str(action.get("to") or ""))
        if winner == by:
            raise Refused("concede_to_self")
        self.open(state, ctx, "concede", by, [winner])

    @action("end_vote")
    def on_end_vote(self, state: GameState, action: OtherAction, ctx: Ctx) -> None:
        """A survivor's YES or NO, by Reply to the proposal's mail."""
        e = self.current(state)
        number = action.get("number")
        if e is None or e["number"] != number:
            raise Refused("no_ending_open", number=number)
        name = self.game.players.must_player(state, str(action.get("player")))["name"]
        if name not in self.survivors(state):
            raise Refused("ending_voter_left", label=label(e))
        if name not in self.voters(state, e):
            raise Refused("ending_voter_came_later", label=label(e))
        vote = str(action.get("vote"))
        e["votes"][name] = vote
        ctx.ack(
            f"Your {vote.upper()} on {label(e)} is recorded"
            + ("; nobody is told it." if self.secret(state) else "; only the counts are told.")
        )
        ctx.note(f"A ballot on {label(e)} was cast.")
        self.settle(state, ctx, e)

    # ---- the proposal's course --------------------------------------------------------
    def open(self, state: GameState, ctx: Ctx, kind: str, by: str, winners: list[str]) -> None:
        if (e := self.current(state)) is not None:
            raise Refused("ending_open", label=label(e))
        endings = cast(OrdersState, state).setdefault("endings", [])
        deadline = ctx.now + self.game.deadlines.duration(state, "draw_length")
        e = {
            "number": len(endings) + 1,
            "kind": kind,
            "by": by,
            "winners": winners,
            "voters": self.survivors(state),  # a newcomer since has no vote on it
            "votes": {by: "yes"},
            "opened": iso(ctx.now),
            "deadline": iso(deadline),
            "status": "open",
        }
        endings.append(e)
        what = self.proposal(e)
        voters = [n for n in self.survivors(state) if n != by]
        ctx.send(
            "ending",
            voters,
            f"[{label(e).capitalize()}] {what[0].upper()}{what[1:]}",
            "notice.txt",
            game=state,
            heading=f"{by} proposes that {state['name']} end"
            + (
                f" in a draw shared by {', '.join(winners)}."
                if kind == "draw"
                else f" with {winners[0]} the winner: {by} concedes."
            ),
            lines=[
                "Every surviving player votes: reply to this mail with YES or NO before "
                f"{self.game.deadlines.when(state, deadline, ctx)}.",
                "It is accepted only by every survivor's YES; one NO refuses it, and without "
                "every YES by then it expires.",
                "The result is announced to all whichever way it goes: "
                + (
                    "the outcome alone, as the ballots are secret."
                    if self.secret(state)
                    else "with the counts of YES and NO, never who voted how."
                ),
            ],
        )
        ctx.ack(
            f"{label(e).capitalize()} proposed: {what}. Your YES is counted; every other "
            f"survivor votes until {self.game.deadlines.when(state, deadline, ctx)}."
        )
        ctx.note(f"{label(e).capitalize()} was proposed: {what}.")
        self.settle(state, ctx, e)

    def settle(self, state: GameState, ctx: Ctx, e: dict[str, Any]) -> None:
        """Close E once decided: one NO refuses it, every survivor's YES accepts it."""
        votes = e["votes"]
        if "no" in votes.values():
            self.close(state, ctx, e, "refused")
        elif all(votes.get(n) == "yes" for n in self.voters(state, e)):
            self.close(state, ctx, e, "accepted")

    def settle_open(self, state: GameState, ctx: Ctx) -> None:
        """A voter left: the proposal open may now have every YES it needs."""
        if state["status"] == "active" and (e := self.current(state)) is not None:
            self.settle(state, ctx, e)

    def close(self, state: GameState, ctx: Ctx, e: dict[str, Any], status: str) -> None:
        e["status"], e["closed"] = status, iso(ctx.now)
        voters = self.voters(state, e)
        yes = sum(1 for n in voters if e["votes"].get(n) == "yes")
        no = sum(1 for n in voters if e["votes"].get(n) == "no")
        counts = f"{yes} YES, {no} NO, {len(voters) - yes - no} without a ballot."
        outcome = {
            "accepted": "accepted by every survivor",
            "refused": "refused",
            "expired": "expired without every survivor's YES",
        }[status]
        lines = [f"{label(e).capitalize()} ({self.proposal(e)}) is {outcome}."]
        if not self.secret(state):
            lines.append(f"The ballots: {counts}")
        if status == "accepted":
            state["status"], state["winners"] = "ended", list(e["winners"])
            if (t := state["turn"]) and t.get("deadline"):
                t["deadline"], t["closed"] = None, iso(ctx.now)
            shared = ", ".join(e["winners"])
            lines.append(
                f"The game ends: {shared} share it."
                if e["kind"] == "draw"
                else f"The game ends: {shared} wins it."
            )
        else:
            lines.append("The game goes on.")
        subject = (
            f"[{label(e).capitalize()}] "
            + {
                "accepted": "Accepted: the game ends",
                "refused": "Refused: the game goes on",
                "expired": "Expired: the game goes on",
            }[status]
        )
        self.game.announce(state, ctx, subject, lines)
        ctx.send("announcement", "gm", subject, "notice.txt", game=state, heading="", lines=lines)
        self.game.event(state, ctx, " ".join(lines[:1] + lines[-1:]))

    # ---- the clock ------------------------------------------------------------------
    def times(self, state: GameState) -> list[datetime]:
        """The deadline of the proposal open, if any, and its reminder while not yet sent."""
        e = self.current(state)
        at = parse_iso(e["deadline"]) if e else None
        if e is None or at is None:
            return []
        return (
            [at]
            if e.get("reminded")
            else [at, self.game.deadlines.reminder_at(state, at, e["opened"])]
        )

    def expire(self, state: GameState, ctx: Ctx) -> None:
        """The proposal whose deadline has passed without every YES expires; before that, those
        who have not voted are reminded once (a draw must not lapse unseen)."""
        e = self.current(state)
        at = parse_iso(e["deadline"]) if e else None
        if e is None or at is None:
            return
        if ctx.now >= at:
            self.close(state, ctx, e, "expired")
        elif not e.get("reminded") and ctx.now >= self.game.deadlines.reminder_at(
            state, at, e["opened"]
        ):
            e["reminded"] = True
            silent = [n for n in self.voters(state, e) if n not in e["votes"]]
            if silent:
                ctx.send(
                    "reminder",
                    silent,
                    f"[{label(e).capitalize()}] Reminder: your YES or NO is due "
                    f"{self.game.deadlines.when(state, at)}",
                    "reminder.txt",
                    game=state,
                    what=f"your YES or NO on {label(e)} ({self.proposal(e)})",
                    deadline=self.game.deadlines.when(state, at, ctx),
                    how="Reply to this mail with YES or NO; without every YES it expires.",
                )

    def status_line(self, state: GameState, ctx: Ctx | None = None) -> list[str]:
        """What [Status] says of the proposal open: what it is, until when, how many voted."""
        e = self.current(state)
        if e is None:
            return []
        voters = self.voters(state, e)
        cast_ = sum(1 for n in voters if n in e["votes"])
        return [
            f"{label(e).capitalize()} ({self.proposal(e)}) is open to votes until "
            f"{self.game.deadlines.when(state, e['deadline'], ctx)}: {cast_} of {len(voters)} "
            "have voted."
        ]

    # ---- what it reads of the game ----------------------------------------------------
    @staticmethod
    def current(state: GameState) -> dict[str, Any] | None:
        endings = cast(OrdersState, state).get("endings") or []
        return next((e for e in endings if e["status"] == "open"), None)

    def survivors(self, state: GameState) -> list[str]:
        """The players still in the game (away ones among them): its voters."""
        return [str(p["name"]) for p in self.game.players.present(state)]

    def voters(self, state: GameState, e: dict[str, Any]) -> list[str]:
        """Who votes on E: the survivors when it was proposed who are still in the game."""
        now = self.survivors(state)
        return [n for n in e.get("voters") or now if n in now]

    def survivor(self, state: GameState, name: str) -> str:
        """NAME as the game spells it; Refused where it is no survivor's."""
        found = {n.lower(): n for n in self.survivors(state)}.get(name.strip().lower())
        if found is None:
            raise Refused("not_a_survivor", name=name, survivors=self.survivors(state))
        return found

    def proposer(self, state: GameState, action: OtherAction) -> str:
        if state["status"] != "active":
            raise Refused("no_game_to_end", status=state["status"])
        name = self.game.players.must_player(state, str(action.get("player")))["name"]
        return self.survivor(state, name)

    def secret(self, state: GameState) -> bool:
        return self.game.parameter(state, "draw_ballots") != "counts"

    @staticmethod
    def proposal(e: dict[str, Any]) -> str:
        if e["kind"] == "draw":
            return f"a draw shared by {', '.join(e['winners'])}"
        return f"{e['by']} concedes to {e['winners'][0]}"


def label(e: dict[str, Any]) -> str:
    """How mail names a proposal: "draw 2", "concede 3" (its subject tag, for the Reply)."""
    return f"{e['kind']} {e['number']}"
