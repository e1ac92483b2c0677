"""The version of a game's state JSON (`state["schema"]`) and the ordered steps that bring an
older state to it. A state without `schema` was written before there was one: schema 0.

Each step takes a state of schema N to N+1, in place, and is never changed once released; a
new shape of the state is a new step at the end. A state is brought up to date wherever the
engine takes it in: the live state before an action, the initial state before a replay, the
live state `mailref replay` compares with."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mailref.engine.state import GameState


def _split_held(state: dict[str, Any]) -> None:
    """0 -> 1: a player's `held` meant both the digest's waiting announcements (records) and
    the score levels of the victory check ([level, since] pairs); the levels move to
    `score_levels`, so a capped player's vote no longer breaks the victory check."""
    for player in state.get("players") or []:
        held = player.get("held")
        if not isinstance(held, list):
            continue
        levels = [h for h in held if isinstance(h, list)]
        items = [h for h in held if isinstance(h, dict)]
        if levels:
            player["score_levels"] = levels
        if items:
            player["held"] = items
        else:
            del player["held"]


def _gamestate(state: dict[str, Any]) -> None:
    """1 -> 2: the columns a game's rules declare ("Each Wizard has an amount of Thaum ...
    tracked in the GNDT") are kept in `gamestate`, every player's value at its default."""
    from mailref.engine.mechanics.gamestate import keep_columns

    if isinstance(state.get("rules"), list) and isinstance(state.get("players"), list):
        keep_columns(state)  # type: ignore[arg-type]


STEPS: list[Callable[[dict[str, Any]], None]] = [_split_held, _gamestate]
SCHEMA = len(STEPS)  # the schema this mailref writes


def upgrade(state: GameState) -> GameState:
    """STATE brought to SCHEMA in place, each step in order from its own; returned. A state
    of a newer schema than this mailref knows is refused rather than misread."""
    at = int(state.get("schema", 0))
    if at == SCHEMA:
        return state
    if at > SCHEMA:
        raise ValueError(f"game state of schema {at}, newer than this mailref's ({SCHEMA})")
    plain: dict[str, Any] = state  # type: ignore[assignment]  # the steps see older shapes
    for step in STEPS[at:]:
        step(plain)
    state["schema"] = SCHEMA
    return state
