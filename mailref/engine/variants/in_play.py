"""The game in play as the components that follow its players over time see it (dated
absences, an orders game's agreed end): one Protocol both ask for."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from mailref.engine.context import Ctx
from mailref.engine.state import GameState

if TYPE_CHECKING:
    from mailref.engine.variants.deadlines import Deadlines
    from mailref.engine.variants.players import Players


class GameInPlay(Protocol):
    """A game's players, its parameters, its clock's words and its announcements."""

    @property
    def players(self) -> Players: ...

    def parameter(self, state: GameState, name: str) -> object: ...

    @property
    def deadlines(self) -> Deadlines: ...

    def event(self, state: GameState, ctx: Ctx, text: str) -> None: ...

    def announce(self, state: GameState, ctx: Ctx, subject: str, lines: list[str]) -> None: ...
