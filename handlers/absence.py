"""[Away], [Back], `NAME is away`, `NAME has returned` (sidekick rule 15); [Idle], [Unidle]."""

from mailref.engine.state import Action
from mailref.handlers.registry import GameView, handles
from mailref.read import Envelope


@handles("away")
def away(env: Envelope, view: GameView) -> Action:
    return {"type": "away", "player": view.name, "name": env.subject.name or view.name}


@handles("back")
def back(env: Envelope, view: GameView) -> Action:
    return {"type": "back", "player": view.name, "name": env.subject.name or view.name}


@handles("idle")
def idle(env: Envelope, view: GameView) -> Action:
    return {"type": "idle", "player": view.name}


@handles("unidle")
def unidle(env: Envelope, view: GameView) -> Action:
    return {"type": "unidle", "player": view.name}
