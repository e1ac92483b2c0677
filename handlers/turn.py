"""[Forfeit]: give up this turn (sidekick)."""

from mailref.handlers import GameView, handles
from mailref.read import Envelope


@handles("forfeit")
def forfeit(env: Envelope, view: GameView) -> dict:
    return {"type": "forfeit", "player": view.name}
