"""Who reached a score first: rule 20 of Nomic Sidekick Nomic ("If more than one player achieves
this, the first player to do so is declared the winner ... at exactly the same time, the game
ends in a tie"). Each player keeps the checks since which they have held each level of score,
so that when the target changes (rule 23 lowered) the one who reached it first in time wins."""

from __future__ import annotations

from mailref.engine.state import GameState, Player

KEPT = 50


def note_score(player: Player, at: int) -> None:
    """Record PLAYER's score as of check AT (a count of the game's victory checks): `score_levels`
    lists [level, since] pairs, each level the lowest score the player has had since that
    check (levels rising), so a fall forgets the runs above it."""
    levels = player.setdefault("score_levels", [])
    score, since = player["score"], at
    if levels and levels[-1][0] == score:
        return
    while levels and levels[-1][0] >= score:
        since = levels.pop()[1]
    levels.append([score, since])
    # The lowest levels go first past KEPT: a target lowered below them finds the player has
    # held it since the earliest check kept, which bounds the state of a long game.
    del levels[:-KEPT]


def reached_at(player: Player, target: int) -> int | None:
    """Since when PLAYER has held TARGET or more without a break; None if they hold less now."""
    if player["score"] < target:
        return None
    for level, since in player.get("score_levels") or []:
        if level >= target:
            return since
    return None


def first_to_reach(state: GameState, players: list[Player], target: int) -> list[str]:
    """The players at or above TARGET who got there first; several only when at the same time."""
    times = {p["name"]: reached_at(p, target) or 0 for p in players if p["score"] >= target}
    if not times:
        return []
    first = min(times.values())
    return [name for name, t in times.items() if t == first]
