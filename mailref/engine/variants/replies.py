"""The replies that only read: [Help], [Status], [Rules], and the lines they show."""

from __future__ import annotations

from typing import Protocol

from mailref.engine.context import Ctx
from mailref.engine.mechanics.gamestate import table_lines
from mailref.engine.ruleparams import Table
from mailref.engine.state import Action, GameState, Rule
from mailref.engine.variants.actions import action


class RepliesHost(Protocol):
    """What the answers ask of the game: its commands and parameters, and the lines it shows
    (its hooks `status_lines`, `rules_for_display`, `score_lines`, `standing_lines`,
    `ruleset_proposals`)."""

    commands: list[tuple[str, str]]
    parameter_table: Table  # the game's, whose values a command's help states
    dated_absence: bool  # `[Away] until 6 Jan` (BlogNomic's Idle has no dates)

    def help_commands(self, state: GameState | None = None) -> list[tuple[str, str]]: ...

    def status_lines(self, state: GameState, ctx: Ctx | None = None) -> list[str]: ...

    def rules_for_display(self, state: GameState) -> list[Rule]: ...

    def score_lines(self, state: GameState) -> list[str]: ...

    def standing_lines(self, state: GameState) -> list[str]: ...

    def takes(self, tag: str) -> bool: ...

    def ruleset_proposals(self, state: GameState, ctx: Ctx) -> list[str]: ...


class Replies:
    """Answers that change nothing: held by the game as `replies`."""

    def __init__(self, game: RepliesHost) -> None:
        self.game = game

    @action("help")
    def on_help(self, state: GameState, action: Action, ctx: Ctx) -> None:
        ctx.reply(
            "help",
            "help.txt",
            commands=self.game.help_commands(state)
            + (self.gm_commands(state) if action.get("gm") else []),
            game=state,
            reason=action.get("reason", ""),
        )

    def help_commands(self, state: GameState | None = None) -> list[tuple[str, str]]:
        """The variant's commands, and those of time every game takes (SPEC §2.5), each value
        they state (`{unidle_after}`) as STATE's game runs by it now."""
        values = state["parameters"] if state else {}
        out = [
            (usage, self.game.parameter_table.spoken_in(what, values))
            for usage, what in self.game.commands
        ]
        if self.game.dated_absence:
            away = "away for those dates (at most {max_absence} ahead); it ends by itself"
            out.append(
                (
                    "[Away] until 6 Jan, or [Away] 24 Dec to 6 Jan",
                    self.game.parameter_table.spoken_in(away, values),
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

    def set_example(self) -> str:
        """A [Set] line this game takes: the GM copies the example, so it must be the game's."""
        for example in ("dormant_below=3", "win_score=150"):
            if example.split("=")[0] in self.game.parameter_table.defaults:
                return example
        return "matters_per_day=5"

    def gm_commands(self, state: GameState) -> list[tuple[str, str]]:
        """What the GM sends by mail besides the players' commands, each as a Reply to the
        game's mail (anyone can write a mail From the GM's address)."""
        out = [
            ("[Score] NAME +2 (or -2, =2)", "the GM's, as a Reply to the game's mail: a score"),
            (
                "[Undo] 41 42 (and a line Reason: ...)",
                "the GM's, as a Reply to the game's mail: void those journal entries (the "
                "game's journal page numbers them), or [Undo] proposal 3, [Undo] the vote of "
                "Bob on proposal 3; the rest is replayed",
            ),
        ]
        reply = "the GM's, as a Reply to the game's mail"
        out.append(
            (
                "[Set] KEY=VALUE (a line each)",
                f"{reply}: change the game's settings as `mailref game set` does, all or none "
                f"({self.set_example()})",
            )
        )
        if self.game.takes("decide"):
            out.append(
                (
                    "[Decide] 3 enact (or fail, veto)",
                    f"{reply}: decide proposal 3 now; [Decide] 3 enact reopen reverses a "
                    "result already closed",
                )
            )
        if self.game.takes("vote_override"):
            out.append(("[Override] 3 NAME FOR", f"{reply}: record NAME's vote on proposal 3"))
        out.append(
            (
                "[Office] OFFICE NAME",
                f"{reply}: name who holds an office (historian, emperor ...); NAME none "
                "vacates it",
            )
        )
        if state.get("rules"):
            out.insert(
                1,
                (
                    "[Rule] and lines as a proposal writes them",
                    "the GM's, as a Reply to the game's mail: correct the ruleset, all or none "
                    '(Amend rule 21 to read: ..., Enact rule 30 "Title": ..., Repeal rule 3.5)',
                ),
            )
        return out

    @action("status")
    def on_status(self, state: GameState, action: Action, ctx: Ctx) -> None:
        lines = self.game.status_lines(state, ctx) + table_lines(state)
        ctx.reply("status", "status.txt", game=state, lines=lines)

    @action("rules")
    def on_rules(self, state: GameState, action: Action, ctx: Ctx) -> None:
        ctx.reply(
            "ruleset",
            "rules.txt",
            game=state,
            rules=self.game.rules_for_display(state),
            scores=self.game.score_lines(state),
            standing=self.game.standing_lines(state),
            proposals=self.game.ruleset_proposals(state, ctx),
        )

    def players_word(self, state: GameState) -> str:
        """What the game's own rules call its players ("Pebblers"), else "Players"."""
        noun = str(state.get("ruleset", {}).get("noun") or "Player")
        return noun if noun.endswith("s") else noun + "s"
