"""Press: in an orders game talk is the game, and it goes through the referee. `[Press] to
Brian, Ciara` (or `to all`) reaches those players, always with a copy to the GM, and the
journal keeps it; `grey` leaves the sender's name out where the game's `press` allows it. Bold
text is orders, and orders go with [Orders] (handlers/press.py refuses press holding them)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from mailref.engine.context import Ctx, Refused
from mailref.engine.state import GameState, OtherAction
from mailref.engine.variants.actions import action

if TYPE_CHECKING:
    from mailref.engine.variants.players import Players


class PressHost(Protocol):
    """What press asks of the game: its parameters and its players."""

    @property
    def players(self) -> Players: ...

    def parameter(self, state: GameState, name: str) -> object: ...


class Press:
    """Press between players, copied to the GM."""

    def __init__(self, game: PressHost) -> None:
        self.game = game

    @action("press")
    def on_press(self, state: GameState, action: OtherAction, ctx: Ctx) -> None:
        allowed = str(self.game.parameter(state, "press"))
        if allowed == "off":
            raise Refused("press_off", game=state["name"])
        grey = bool(action.get("grey"))
        if grey and allowed != "grey":
            raise Refused("grey_press_off", game=state["name"])
        sender = self.game.players.must_player(state, str(action.get("player")))["name"]
        to = self.recipients(state, sender, action.get("recipients") or [])
        text = str(action.get("text") or "").strip()
        if not text:
            raise Refused("press_without_text")
        lines = text.splitlines()
        whom = ", ".join(to)
        ctx.send(
            "press",
            to,
            "[Press] grey" if grey else f"[Press] from {sender}",
            "notice.txt",
            game=state,
            heading=f"Press {'(grey)' if grey else 'from ' + sender} to {whom}",
            lines=lines,
        )
        # The GM reads all press, grey press with its sender's name.
        ctx.send(
            "press",
            "gm",
            f"[Press] {sender} to {whom}" + (" (grey)" if grey else ""),
            "notice.txt",
            game=state,
            heading=f"Press {'(grey) ' if grey else ''}from {sender} to {whom}",
            lines=lines,
        )
        ctx.ack(
            f"Your {'grey ' if grey else ''}press went to {whom}, with a copy to the GM"
            + (" (your name is left out of theirs)." if grey else ".")
        )
        ctx.note(f"Press went to {len(to)} player{'' if len(to) == 1 else 's'}.")

    def recipients(self, state: GameState, sender: str, named: list[str]) -> list[str]:
        """The players NAMED ("all": every other player still in the game), as the game
        spells them; Refused where one is no player or none is left."""
        others = [p["name"] for p in self.game.players.present(state) if p["name"] != sender]
        if [n.lower() for n in named] == ["all"]:
            to = others
        else:
            by_name = {n.lower(): n for n in others}
            to = []
            for name in named:
                if name.lower() == sender.lower():
                    continue
                if name.lower() not in by_name:
                    raise Refused("press_to_nobody", name=name, players=others)
                to.append(by_name[name.lower()])
        if not to:
            raise Refused("press_names_no_one", players=others)
        return list(dict.fromkeys(to))
