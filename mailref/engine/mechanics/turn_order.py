"""A turn order: players' names in a fixed round, and who in it moves or judges next. It is
given the names and whom it may name (a present, active player), and knows nothing else of
the game."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class TurnOrder:
    names: Sequence[str]
    can_move: Callable[[str], bool]  # whether a name may be named now (not away, not gone)

    def after(self, name: str | None) -> str | None:
        """The first who can move after NAME, round the order (from its start where NAME is not
        in it); None when nobody can."""
        n = len(self.names)
        start = self.names.index(name) + 1 if name in self.names else 0
        return next((w for i in range(n) if self.can_move(w := self.names[(start + i) % n])), None)

    def before(self, name: str) -> str | None:
        """The nearest before NAME, round the order, who can move, NAME left out; None where
        NAME is not in the order or nobody else can."""
        if name not in self.names:
            return None
        n, i = len(self.names), self.names.index(name)
        return next((w for k in range(1, n) if self.can_move(w := self.names[(i - k) % n])), None)
