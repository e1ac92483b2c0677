"""[Forfeit]: give up this turn (sidekick). A plain Reply to the game's own turn mail
("Re: [Eire] [Turn 3] Orders are due …") keeps its tag, [Turn 3] (SPEC §2.5): in an orders
game that reply is the player's orders, and the GM's reply to the orders of all players is
the turn's results; elsewhere it says how to move."""

from mailref.engine import Refused
from mailref.handlers import REGISTRY, GameView, handles, not_a_player
from mailref.read import Envelope


@handles("forfeit")
def forfeit(env: Envelope, view: GameView) -> dict:
    return {"type": "forfeit", "player": view.name}


@handles("turn", players_only=False)
def reply_to_turn(env: Envelope, view: GameView) -> dict:
    if view.player is None:
        gm = (view.state.get("gm") or "").lower()
        if gm and (env.from_addr or "").lower() == gm and view.variant.takes("results"):
            # The GM's plain Reply to "[Turn 3] Orders of all players" (the digest that asks for
            # the results) is the results; its subject is the digest's, not a title.
            return {**REGISTRY["results"].fn(env, view), "title": ""}
        not_a_player(env, view)
    if view.variant.takes("orders"):
        return REGISTRY["orders"].fn(env, view)
    move = next((usage for usage, _ in view.variant.commands if usage.startswith("[Proposal]")), None)
    if move:
        raise Refused("a reply to the turn mail is not a move by itself: a move is a proposal with a title",
                      "send a new mail with the subject [Proposal] followed by your title, and the rule "
                      "changes in the body (send [Help] for the forms)")
    raise Refused("a reply to the turn mail is not a command", "send [Help] for the commands of this game")
