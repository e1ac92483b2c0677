"""Nomic Sidekick's deadlines and reminders."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from mailref.engine.context import Ctx
from mailref.engine.state import GameState
from mailref.engine.variants.extensions import moment
from mailref.timeutil import parse_iso


class SidekickTimers:
    """Sidekick's deadlines and reminders: held by the game as `timers`, whose clock hooks
    hand them here."""

    def __init__(self, game: Any) -> None:
        self.game = game

    # ---- timers ------------------------------------------------------------------
    def deadline_times(self, state: GameState, now: datetime) -> list[datetime]:
        out = []
        t = state["turn"]
        if t and t.get("deadline"):
            d = moment(t["deadline"])
            out.append(d)
            if not t.get("reminded"):
                out.append(self.game.deadlines.reminder_at(state, d, t.get("started")))
        if prop := self.game.proposals.current_proposal(state):
            out += self.game.proposals.vote_times(state, prop)
        return out

    def fire_deadlines(self, state: GameState, ctx: Ctx) -> None:
        for _ in range(
            100
        ):  # a long outage may owe several deadlines: fire them in order, once each
            t = state["turn"]
            prop = self.game.proposals.current_proposal(state)
            due: list[tuple[datetime, str]] = []
            if t and t.get("deadline"):
                due.append((moment(t["deadline"]), "turn"))
            if prop and prop.get("deadline"):
                due.append((moment(prop["deadline"]), "vote"))
            due = sorted(d for d in due if d[0] <= ctx.now)
            if not due:
                break
            when, what = due[0]
            late = self.game.deadlines.late_note(when, ctx)
            if what == "turn":
                self.game.next_turn(
                    state,
                    ctx,
                    skipped="no move within the turn timeout (rule 8)",
                    late=late,
                    missed=True,
                )
            else:
                self.game.proposals.close(state, prop, ctx, late)
        self.remind(state, ctx)

    def remind(self, state: GameState, ctx: Ctx) -> None:
        t = state["turn"]
        if (
            t
            and t.get("deadline")
            and not t.get("reminded")
            and ctx.now
            >= self.game.deadlines.reminder_at(state, parse_iso(t["deadline"]), t.get("started"))
        ):
            t["reminded"] = True
            ctx.send(
                "reminder",
                [str(t["player"])],
                f"[Turn {t['number']}] Reminder: your move is due "
                f"{self.game.deadlines.when(state, t['deadline'])}",
                "reminder.txt",
                game=state,
                what=f"your move (turn {t['number']})",
                deadline=self.game.deadlines.when(state, t["deadline"], ctx),
                how='To move, reply to this mail with your rule changes (a first line "Title: '
                'Your title" names the '
                "proposal), or send [Forfeit] to give up the turn.",
            )
        prop = self.game.proposals.current_proposal(state)
        if (
            prop
            and prop.get("deadline")
            and not prop.get("reminded")
            and ctx.now
            >= self.game.deadlines.reminder_at(
                state, parse_iso(prop["deadline"]), prop.get("opened")
            )
        ):
            prop["reminded"] = True
            missing = self.game.proposals.waiting_for(state, prop)
            if missing:
                ctx.send(
                    "reminder",
                    missing,
                    f"[Proposal {prop['number']}] Reminder: your vote is due "
                    f"{self.game.deadlines.when(state, prop['deadline'])}",
                    "reminder.txt",
                    game=state,
                    what=f"your vote on proposal {prop['number']} \"{prop['title']}\"",
                    how=self.game.proposals.how_to_vote() + ".",
                    deadline=self.game.deadlines.when(state, prop["deadline"], ctx),
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
                    f"{self.game.deadlines.when(state, t['deadline'])})",
                    t["deadline"],
                )
            )
        prop = self.game.proposals.current_proposal(state)
        if prop:
            missing = self.game.proposals.waiting_for(state, prop)
            if missing:
                out.append(
                    (
                        f"Not yet voted on proposal {prop['number']} (due "
                        f"{self.game.deadlines.when(state, prop.get('deadline'))}): "
                        f"{', '.join(missing)}",
                        prop.get("deadline"),
                    )
                )
        return out
