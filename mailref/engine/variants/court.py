"""Judgements that change the game (SPEC §4.4): the admin's `mailref undo`, and the effect
lines of a ruling, an enacted CfJ or a Proclamation (`Score Alice -10`, `Undo proposal 3`).
The undos themselves are the court's (engine/court.py): the door replays the journal."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, cast

from mailref.engine.context import Ctx, Outgoing, Refused
from mailref.engine.court import describe
from mailref.engine.mechanics.alterations import alter
from mailref.engine.state import GameState, OtherAction
from mailref.engine.variants.actions import action
from mailref.timeutil import iso

if TYPE_CHECKING:
    from mailref.engine.variants.players import Players


class CourtHost(Protocol):
    """What the court asks of the game: its players, its journal of events, its victory."""

    @property
    def players(self) -> Players: ...

    def event(self, state: GameState, ctx: Ctx, text: str) -> None: ...

    def check_victory(self, state: GameState, ctx: Ctx) -> None: ...


class CourtOrders:
    """The admin's undo, and the effect lines every variant's judgements carry out."""

    def __init__(self, game: CourtHost) -> None:
        self.game = game

    @action("undo")
    def on_undo(self, state: GameState, action: OtherAction, ctx: Ctx) -> None:
        named = cast(Sequence[int | str], action.get("entries") or ())  # journal numbers
        entries = [int(n) for n in named]
        # the forms of a ruling's lines: {"proposal": 3}, {"vote": 3, "player": "Bob"}
        ordered = [dict(e) for e in action.get("effects") or () if "score" not in e]
        if not entries and not ordered:
            raise Refused("undo_names_no_entry")
        who = action.get("by_label") or "the admin"  # the GM by mail, else the host's admin
        who = who[:1].upper() + who[1:]
        listed = ", ".join(str(n) for n in entries)
        lines = []
        if entries:
            self.game.event(state, ctx, f"{who} undid journal entries {listed}.")
            lines.append(
                f"{who} voids journal {'entries' if len(entries) > 1 else 'entry'} {listed}."
            )
        if ordered:
            said = "; ".join(describe(e) for e in ordered)
            self.game.event(state, ctx, f"{who} ordered: {said}.")
            lines.append(f"{who} orders: {said}.")
        if action.get("reason"):
            lines.append(f"Reason: {action['reason']}")
        subject = (
            f"[Undo] Journal {'entries' if len(entries) > 1 else 'entry'} {listed}"
            if entries
            else "[Undo] " + "; ".join(describe(e).removeprefix("Undo ") for e in ordered)
        )
        mail = ctx.send(
            "announcement",
            "all",
            subject,
            "notice.txt",
            game=state,
            heading="",
            lines=lines,
            undoing=entries,  # the door names them in the game's words (mailref/court.py)
        )
        label = "the GM" if action.get("by_label") else f"admin {action.get('by')}"
        ctx.order([{"entry": n} for n in entries] + ordered, label, strict=True, mail=mail)

    def carry_out(
        self, state: GameState, ctx: Ctx, effects: list[dict[str, Any]], by: str, strict: bool
    ) -> list[str]:
        """Apply the score and set lines of EFFECTS at once; order its undo lines (the door
        replays the journal without what they name). Returns the lines saying what was done; a
        score of a player not in the game, or a value its column forbids, refuses when STRICT,
        else is named."""
        told: list[str] = []
        for e in effects:
            if "set" in e:
                told += self.set_value(state, ctx, e, by, strict)
                continue
            if "score" not in e:
                continue
            p = self.game.players.player(state, e["score"])
            if p is None:
                if strict:
                    raise Refused("score_names_no_player", player=e["score"], amount=e["amount"])
                told.append(f'"Score {e["score"]} {e["amount"]:+d}" names no player: not applied.')
                continue
            before = p["score"]
            p["score"] = before + int(e["amount"])
            told.append(f"Score of {p['name']}: {before} -> {p['score']} ({by}).")
            self.game.event(state, ctx, told[-1])
        if any("score" in e for e in effects):
            self.game.check_victory(state, ctx)
        return told

    def set_value(
        self, state: GameState, ctx: Ctx, e: dict[str, Any], by: str, strict: bool
    ) -> list[str]:
        """A `Set Thaum of Bob to 5` line carried out on the gamestate, as an [Update] by BY."""
        line = describe(e)
        set_line = {"line": line, "column": e["set"], "of": e["player"], "value": e["value"]}
        try:
            done = alter(state, [set_line], by, iso(ctx.now), by)
        except Refused as r:
            if strict:
                raise
            return [f'"{line}" cannot be carried out ({r.words("alert")[0]}): not applied.']
        for text in done:
            self.game.event(state, ctx, f"{text} ({by}).")
        return [f"{text} ({by})." for text in done]

    @staticmethod
    def order_undos(
        ctx: Ctx, effects: list[dict[str, Any]], by: str, strict: bool, mail: Outgoing | None
    ) -> list[str]:
        """Order the undo lines of EFFECTS; the lines that say what was ordered."""
        undo = [e for e in effects if "score" not in e and "set" not in e]
        if undo:
            ctx.order(undo, by, strict=strict, mail=mail)
        return [describe(e) + "." for e in undo]
