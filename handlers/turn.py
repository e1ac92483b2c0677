"""[Forfeit]: give up this turn (sidekick). A plain Reply to the game's own turn mail
("Re: [Eire] [Turn 3] Orders are due …") keeps its tag, [Turn 3] (SPEC §2.5): in an orders
game that reply is the player's orders; elsewhere it says how to move."""

from mailref.engine import Refused
from mailref.handlers import REGISTRY, GameView, handles
from mailref.read import Envelope


@handles("forfeit")
def forfeit(env: Envelope, view: GameView) -> dict:
    return {"type": "forfeit", "player": view.name}


@handles("turn")
def reply_to_turn(env: Envelope, view: GameView) -> dict:
    if view.variant.takes("orders"):
        return REGISTRY["orders"].fn(env, view)
    move = next((usage for usage, _ in view.variant.commands if usage.startswith("[Proposal]")), None)
    if move:
        raise Refused("a reply to the turn mail is not a move by itself: a move is a proposal with a title",
                      "send a new mail with the subject [Proposal] followed by your title, and the rule "
                      "changes in the body (send [Help] for the forms)")
    raise Refused("a reply to the turn mail is not a command", "send [Help] for the commands of this game")
