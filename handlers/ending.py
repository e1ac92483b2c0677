"""[Draw] (the players who would share the game, or none: every survivor) and [Concede] to
NAME propose an agreed end; a Reply to "[Draw 2] …" or "[Concede 2] …" is the sender's YES or
NO on it."""

import re

from mailref.engine import Refused
from mailref.engine.state import Action
from mailref.handlers.press import press_names
from mailref.handlers.registry import GameView, handles
from mailref.read import Envelope

_YES = {"yes", "y", "aye", "accept", "accepted", "agree", "agreed", "ok", "okay"}
_NO = {"no", "n", "nay", "reject", "refuse", "refused", "decline", "against"}


@handles("draw", "concede")
def ending(env: Envelope, view: GameView) -> Action:
    tag, number = env.subject.tag, env.subject.number
    if number is not None:
        return {"type": "end_vote", "player": view.name, "number": number, "vote": ballot(env)}
    if tag == "draw":
        return {"type": "draw", "player": view.name, "names": press_names(env.subject.rest)}
    named = press_names(env.subject.rest)
    if len(named) != 1:
        raise Refused("concede_names_no_one")
    return {"type": "concede", "player": view.name, "to": named[0]}


def ballot(env: Envelope) -> str:
    """YES or NO: the first word of the sender's own words."""
    first = next((line for line in env.text.splitlines() if line.strip()), "")
    word = re.sub(r"[^\w]", " ", first).split()[:1]
    said = word[0].lower() if word else ""
    if said in _YES:
        return "yes"
    if said in _NO:
        return "no"
    raise Refused("no_end_ballot", number=env.subject.number, tag=env.subject.tag)
