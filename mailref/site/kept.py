"""What this process keeps of each game between builds of its pages, so that the build after
one more change reads and renders only what changed (a long game's pages otherwise cost more
with every turn), and the one rule that drops it: the journal rewritten under it (an undo's
court order, a journal shorter than what was read: a replay or an import), another game under
the same key, or a build asked for in full (`mailref site build`). Each cache that holds
something of a game registers here and is dropped with the rest."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_forgetters: list[Callable[[str], object]] = []
_read: dict[str, int] = {}  # game key -> the game version its kept results hold


def name(key: tuple[Any, ...]) -> str:
    """The game KEY (store, slug, creation time) as the caches hold it."""
    return repr(key)


def per_game(kept: dict[str, Any]) -> dict[str, Any]:
    """KEPT, a cache of game name -> what it holds, dropped game by game with the rest."""
    _forgetters.append(lambda game: kept.pop(game, None))
    return kept


def on_forget(forget: Callable[[str], object]) -> None:
    """Call FORGET(game name) whenever what is kept of a game is dropped."""
    _forgetters.append(forget)


def forget(key: tuple[Any, ...]) -> None:
    """Drop everything kept of the game KEY: its next build reads and renders it all."""
    game = name(key)
    _read.pop(game, None)
    for drop in _forgetters:
        drop(game)


def read_up_to(key: tuple[Any, ...]) -> int | None:
    """The game version the kept results of KEY hold, None when nothing is kept."""
    return _read.get(name(key))


def now_at(key: tuple[Any, ...], version: int) -> None:
    _read[name(key)] = version
