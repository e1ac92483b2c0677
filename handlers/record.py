"""[History]: the game's results so far. [Stats] NAME: the record of one who plays or played
(the sender's own without a name)."""

from mailref.engine.state import Action
from mailref.handlers.registry import GameView, handles
from mailref.read import Envelope


@handles("history", players_only=False)
def history(env: Envelope, view: GameView) -> Action:
    return {"type": "history", "player": view.name}


@handles("stats", players_only=False)
def stats(env: Envelope, view: GameView) -> Action:
    return {"type": "stats", "player": view.name, "name": env.subject.rest.strip()}
