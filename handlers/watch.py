"""[Watch]: anyone asks to follow a game without playing it, and is sent a confirmation;
[Unwatch]: a watcher stops (the List-Unsubscribe of a watcher's mail sends it)."""

from mailref.engine import Refused
from mailref.engine.state import Action
from mailref.handlers.registry import GameView, handles
from mailref.read import Envelope


@handles("watch", players_only=False)
def watch(env: Envelope, view: GameView) -> Action:
    if view.player:
        raise Refused("player_watches_already", game=view.state["name"])
    return {"type": "watch", "address": env.from_addr or ""}


@handles("unwatch", players_only=False)
def unwatch(env: Envelope, view: GameView) -> Action:
    return {"type": "unwatch", "address": env.from_addr or ""}
