"""The replies that only read: [Help], [Status], [Rules], and the lines they show."""

from __future__ import annotations

from mailref.engine.context import Ctx
from mailref.engine.mechanics.gamestate import table_lines
from mailref.engine.ruleparams import Table
from mailref.engine.state import Action, GameState, Rule
from mailref.engine.variants.actions import Acting, action


class Replies(Acting):
    """Answers that change nothing."""

    commands: list[tuple[str, str]] = []
    parameter_table: Table  # the variant's, whose values a command's help states
    dated_absence = True  # `[Away] until 6 Jan` (BlogNomic's Idle has no dates)

    @action("help")
    def on_help(self, state: GameState, action: Action, ctx: Ctx) -> None:
        ctx.reply(
            "help",
            "help.txt",
            commands=self.help_commands(state),
            game=state,
            reason=action.get("reason", ""),
        )

    def help_commands(self, state: GameState | None = None) -> list[tuple[str, str]]:
        """The variant's commands, and those of time every game takes (SPEC §2.5), each value
        they state (`{unidle_after}`) as STATE's game runs by it now."""
        values = state["parameters"] if state else {}
        out = [
            (usage, self.parameter_table.spoken_in(what, values)) for usage, what in self.commands
        ]
        if self.dated_absence:
            away = "away for those dates (at most {max_absence} ahead); it ends by itself"
            out.append(
                (
                    "[Away] until 6 Jan, or [Away] 24 Dec to 6 Jan",
                    self.parameter_table.spoken_in(away, values),
                )
            )
        out.append(
            (
                "[Deadline] +1d",
                "ask the GM for more time; the GM's own: +2d, Fri 18:00, pause, resume, and ok "
                "or no to a request",
            )
        )
        out.append(
            (
                "[Settings] digest: daily (or off), zone: Europe/Paris, discussion: off",
                "how the game's mail reaches you: one digest a day, times in your zone, "
                "the players' words or not; [Settings] alone shows yours",
            )
        )
        out.append(
            (
                "[Confirm] Code: ...",
                "finish a [Join]: a plain Reply to the confirmation mail does it, or this with "
                "the mail's Code: line",
            )
        )
        if values.get("join_approval") == "gm":
            out.append(("[Approve] NAME", "the GM's: take in a newcomer who has confirmed"))
        if values.get("watching") is not False:
            out.append(
                (
                    "[Watch] / [Unwatch]",
                    "anyone's: follow the game's announcements and results without playing, "
                    "and stop",
                )
            )
        out += [
            ("[History]", "the game's results so far, in one mail"),
            (
                "[Stats] NAME",
                "turns played, missed and late, votes, time away (yours without NAME)",
            ),
            (
                "[Takeover] NAME",
                "one who does not play takes NAME's open seat; the GM's [Vacate] NAME opens it",
            ),
        ]
        return out

    @action("status")
    def on_status(self, state: GameState, action: Action, ctx: Ctx) -> None:
        lines = self.status_lines(state, ctx) + table_lines(state)
        ctx.reply("status", "status.txt", game=state, lines=lines)

    @action("rules")
    def on_rules(self, state: GameState, action: Action, ctx: Ctx) -> None:
        ctx.reply(
            "ruleset",
            "rules.txt",
            game=state,
            rules=self.rules_for_display(state),
            scores=self.score_lines(state),
            standing=self.standing_lines(state),
        )

    def rules_for_display(self, state: GameState) -> list[Rule]:
        return state["rules"]

    def standing_lines(self, state: GameState) -> list[str]:
        """What the rule list shows besides the rules, before the scores (sidekick rules 5–6)."""
        return []

    def score_lines(self, state: GameState) -> list[str]:
        return [f"{p['name']}: {p['score']}" for p in self.present(state)]

    def players_word(self, state: GameState) -> str:
        """What the game's own rules call its players ("Pebblers"), else "Players"."""
        noun = str(state.get("ruleset", {}).get("noun") or "Player")
        return noun if noun.endswith("s") else noun + "s"

    def status_lines(self, state: GameState, ctx: Ctx | None = None) -> list[str]:
        """The state in lines; with CTX, each deadline says how far off it is ("in 4 days")."""
        lines = [f"Status: {state['status']}"]
        lines.append(
            f"{self.players_word(state)}: "
            + ", ".join(f"{p['name']} ({p['status']}, {p['score']})" for p in self.present(state))
        )
        lines += self.absence.lines(state)
        if state["order"]:
            lines.append("Turn order: " + ", ".join(state["order"]))
        if state["turn"]:
            t = state["turn"]
            # No "deadline none": a mover who moved is waiting for the vote, not late.
            due = (
                f", moved: proposal {t['proposal']}"
                if t.get("proposal")
                else f", deadline {self.when(state, t['deadline'], ctx)}"
                if t.get("deadline")
                else ""
            )
            lines.append(f"Turn {t['number']}: {t.get('player') or 'nobody present can move'}{due}")
        for p in state["proposals"]:
            if p["status"] in self.open_statuses:
                due = (
                    f", deadline {self.when(state, p['deadline'], ctx)}"
                    if p.get("deadline")
                    else ""
                )
                lines.append(
                    f"Proposal {p['number']} \"{p['title']}\" by {p['author']}: {p['status']}{due}"
                )
        for j in state["judgements"]:
            if j["status"] == "open":
                lines.append(
                    f"Judgement {j['number']} by {j['by']}: open, judge {j.get('judge') or '-'}"
                )
        if state["winners"]:
            lines.append("Winners: " + ", ".join(state["winners"]))
        return lines
