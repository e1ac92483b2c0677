"""What the admin does from the command line: parameters, offices, pause and resume,
scores, and telling the players why (deadlines: variants/extensions.py). Held by the game as
`admin`."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any, Protocol
from zoneinfo import ZoneInfo

from mailref.engine.context import Ctx, Refused
from mailref.engine.parameters import Value
from mailref.engine.ruleparams import Table, bound, read, says
from mailref.engine.state import Action, GameState, Matter, OtherAction, Turn
from mailref.engine.variants.actions import action
from mailref.engine.variants.extensions import moment
from mailref.timeutil import format_duration, iso

if TYPE_CHECKING:
    from mailref.engine.variants.deadlines import Deadlines
    from mailref.engine.variants.players import Players


class AdminHost(Protocol):
    """What the admin's commands ask of the game: its parameters and the rules binding them,
    its players, the deadline that runs now, and its announcements."""

    @property
    def players(self) -> Players: ...

    name: str
    parameter_table: Table
    runs_rules: frozenset[str]

    @property
    def duration_params(self) -> set[str]: ...

    @property
    def deadlines(self) -> Deadlines: ...

    def check_param(self, key: str, value: object) -> Value: ...

    def current_deadline_holder(self, state: GameState) -> Turn | Matter | None: ...

    def check_victory(self, state: GameState, ctx: Ctx) -> None: ...

    def event(self, state: GameState, ctx: Ctx, text: str) -> None: ...

    def announce(self, state: GameState, ctx: Ctx, subject: str, lines: list[str]) -> None: ...


def in_journal_order(values: dict[str, Any]) -> dict[str, Any]:
    """VALUES in the order PostgreSQL's jsonb keeps a journaled dict's keys (shorter first, then
    by bytes), so that a replay sets, and tells, them in the order the game did."""
    return dict(sorted(values.items(), key=lambda kv: (len(kv[0].encode()), kv[0].encode())))


class AdminOverrides:
    """The admin's commands (`mailref game set`, `office`, `pause`, `score`), the GM's by mail
    too ([Set], [Office], [Deadline] pause, [Score])."""

    def __init__(self, game: AdminHost) -> None:
        self.game = game

    @staticmethod
    def tell_why(ctx: Ctx, sent: int, why: str) -> None:
        """An admin's `--reason` is told to the players with what the command announced
        (SPEC §1.4: "the game is paused", and why), once: some announcements say it already."""
        for o in ctx.out[sent:]:
            lines = o.vars.get("lines")
            if (
                o.template == "notice.txt"
                and isinstance(lines, list)
                and not any(why in str(x) for x in lines)
            ):
                o.vars["lines"] = [*lines, f"Reason: {why}"]

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
    ) -> None:
        """The admin changed a player's ballot (`mailref vote`): its player is told, with the
        reason; the tally mails show it to the others."""
        was = f" (it was {previous})" if previous else ""
        who, who_ = ("the GM", "The GM") if action.get("gm") else ("the admin", "The admin")
        title = matter.get("question") or matter["title"]
        ctx.send(
            "announcement",
            [name],
            f"[{label} {matter['number']}] Your vote was set by {who}",
            "notice.txt",
            game=state,
            heading=f"{who_} recorded your vote on {label.lower()} {matter['number']} "
            f"\"{title}\" as {vote}{was}.",
            lines=[
                *([f"Reason: {action['reason']}."] if action.get("reason") else []),
                "Your own vote, sent later, replaces it as any vote does.",
            ],
        )

    @action("imported")
    def on_imported(self, state: GameState, action: OtherAction, ctx: Ctx) -> None:
        """The game, made from the file of a game played elsewhere, is told once where it
        runs now and how to leave (engine/game_file.py)."""
        ctx.ack(f"{len(self.game.players.active(state))} players told that the game runs here")
        turn = state["turn"]
        ordering = "orders" in state  # an orders game has no scores; its turn goes on here
        now = (
            [
                f"Turn {turn['number']} goes on here: orders sent for it before the move stand; "
                f"the rest are due {self.game.deadlines.when(state, turn['deadline'], ctx)}."
            ]
            if ordering and turn and turn.get("deadline")
            else []
        )
        ctx.send(
            "notice",
            "all",
            "The game now runs here",
            "notice.txt",
            game=state,
            heading=f"{state['name']} now runs at {state['address']}, refereed by mail.",
            lines=[
                "Your name and standing are as they were; the rules and open matters too."
                if ordering
                else "Your name, score and standing are as they were; the rules and open "
                "matters too.",
                *now,
                "Send [Help] to this address for the commands, and [Status] for the game.",
                "If you do not want to play here, send [Quit] to this address: you will get no "
                "more mail from the game.",
            ],
        )

    @action("bind")
    def on_bind(self, state: GameState, action: OtherAction, ctx: Ctx) -> None:
        """Parameter KEY is stated by RULE from now on: the referee runs the game by the value
        the rule says, and follows it when the rule is amended (docs/rulesets.md)."""
        key, number, part = action["key"], str(action["rule"]), state.get("ruleset")
        if not state["rules"]:
            raise Refused("bind_no_rules", slug=state["slug"])
        if key not in self.game.parameter_table.params:
            known = sorted(self.game.parameter_table.params)
            raise Refused("unknown_parameter", key=key, variant=self.game.name, known=known)
        rule = next((r for r in state["rules"] if str(r["number"]) == number), None)
        if rule is None:
            raise Refused("bind_no_rule", rule=number, slug=state["slug"])
        value = read(bound(self.game.parameter_table[key], number), str(rule.get("text", "")))
        if value is None:
            raise Refused("bind_not_stated", key=key, rule=number)
        state["parameters"][key] = self.game.check_param(key, value)
        if part is None:  # a shipped ruleset's game: from now on its rules are bound as its own
            # journaled with the action, so that replay binds as the table bound when it ran
            shipped = action.setdefault("shipped", self.shipped_bindings())
            part = state["ruleset"] = copy.deepcopy(shipped)
        part.setdefault("bindings", {})[key] = number
        line = f"{key} is stated by rule {number}: {says(self.game.parameter_table[key], value)}."
        ctx.ack(line)
        self.game.event(state, ctx, f"{line} (bound by {action.get('by')})")

    def shipped_bindings(self) -> dict[str, Any]:
        """The ruleset part of a game of the shipped ruleset: its mechanics, the rules its
        variant's table binds each parameter to, and the rules its code runs."""
        from mailref.engine.ruleset_file import shipped

        part = shipped(self.game.name).state_part()
        part["bindings"] = {p.name: p.rule for p in self.game.parameter_table if p.rule}
        part["runs"] = {n: "run by the referee's code" for n in sorted(self.game.runs_rules)}
        return part

    @action("set")
    def on_set(self, state: GameState, action: OtherAction, ctx: Ctx) -> None:
        for key, value in action["values"].items():
            if key == "name":
                state["name"] = value
            elif key == "gm":
                state["gm"] = value or None
            elif key == "timezone":
                try:
                    ZoneInfo(value)
                except Exception:
                    raise Refused("unknown_timezone", zone=value) from None
                state["timezone"] = value
            else:
                state["parameters"][key] = self.game.check_param(key, value)
            ctx.ack(f"{key} = {value}")
            self.game.event(state, ctx, f"Parameter {key} set to {value} by {action.get('by')}.")
        lines = [self.set_line(state, k, v) for k, v in action["values"].items()]
        timing = [
            k for k in action["values"] if k in self.game.duration_params and k != "reminder_before"
        ]
        running = self.game.current_deadline_holder(state)
        if timing and running and running.get("deadline"):
            # A new length counts from the next turn or vote; the deadline already given stands.
            note = (
                f"{', '.join(timing)} applies from the next deadline set; the one running now, "
                f"{self.game.deadlines.when(state, running['deadline'], ctx)}, stands."
            )
            ctx.ack(
                note
                + (
                    " To move it: [Deadline] +2d or [Deadline] Fri 18:00."
                    if action.get("gm")
                    else f" To move it: `mailref deadline {state['slug']} extend DURATION` or "
                    "`set WHEN`."
                )
            )
            lines.append(note)
        self.game.announce(state, ctx, "Game parameters changed", lines)

    def set_line(self, state: GameState, key: str, value: object) -> str:
        """What a changed parameter does now, in the players' words, its name after it."""
        param = self.game.parameter_table.params.get(key)
        if param is None:
            return f"{key} is now {value}"
        return f"From now on: {says(param, state['parameters'][key])} ({key} = {value})."

    @action("office")
    def on_office(self, state: GameState, action: OtherAction, ctx: Ctx) -> None:
        office = action["office"].lower()
        for p in state["players"]:
            if office in p["offices"]:
                p["offices"].remove(office)
        if holder := action.get("holder"):
            p = self.game.players.must_player(state, holder)
            p["offices"].append(office)
            text = f"{p['name']} now holds the office of {office}."
        else:
            text = f"The office of {office} is vacant."
        ctx.ack(text)
        self.game.event(state, ctx, text)
        self.game.announce(state, ctx, f"Office: {office}", [text])

    @action("pause")
    def on_pause(self, state: GameState, action: OtherAction, ctx: Ctx) -> None:
        if state["status"] in ("paused", "ended"):
            raise Refused("game_not_pausable", status=state["status"])
        state["resume_status"] = state["status"]
        state["status"], state["paused_at"] = "paused", iso(ctx.now)
        ctx.ack("Game paused; deadlines stop.")
        self.game.event(state, ctx, "The game was paused.")
        who = "The GM" if action.get("gm") else "The admin"
        why = [f"Reason: {action['reason']}"] if action.get("gm") and action.get("reason") else []
        self.game.announce(
            state,
            ctx,
            "The game is paused",
            [f"{who} paused the game. Deadlines are stopped until it resumes.", *why],
        )

    @action("resume")
    def on_resume(self, state: GameState, action: OtherAction, ctx: Ctx) -> None:
        if state["status"] != "paused":
            raise Refused("game_not_paused")
        shift = ctx.now - moment(state["paused_at"])
        self.game.deadlines.shift_deadlines(state, shift)
        state["status"], state["paused_at"] = state.pop("resume_status", "active"), None
        ctx.ack(f"Game resumed; deadlines moved {format_duration(shift)} later.")
        self.game.event(state, ctx, "The game resumed.")
        # Each running deadline as it now stands, so that nobody has to add "moved 6d later" up.
        t = state["turn"]
        due = (
            [
                f"Turn {t['number']}"
                + (f" ({t['player']} to move)" if t.get("player") else "")
                + f": due {self.game.deadlines.when(state, t['deadline'], ctx)}."
            ]
            if t and t.get("deadline")
            else []
        )
        due += [
            f"Proposal {p['number']} \"{p['title']}\": votes due "
            f"{self.game.deadlines.when(state, p['deadline'], ctx)}."
            for p in state["proposals"]
            if p.get("deadline") and p.get("status") in ("voting", "pending")
        ]
        self.game.announce(
            state,
            ctx,
            "The game resumes",
            [f"Play resumes. Every deadline moved {format_duration(shift)} later."]
            + ([""] + due if due else []),
        )

    @action("score")
    def on_score(self, state: GameState, action: OtherAction, ctx: Ctx) -> None:
        p = self.game.players.must_player(state, action["player"] or "")
        op, n = action["op"], int(action["amount"])
        before = p["score"]
        p["score"] = n if op == "=" else before + n if op == "+" else before - n
        text = f"{p['name']}'s score: {before} -> {p['score']}" + (
            f" ({action['reason']})" if action.get("reason") else ""
        )
        ctx.ack(text)
        self.game.event(state, ctx, text)
        who = "The GM" if action.get("gm") else "The admin"  # the players see who changed it
        self.game.announce(state, ctx, f"Score: {p['name']}", [f"{who} sets {text}"])
        self.game.check_victory(state, ctx)
