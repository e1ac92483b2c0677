"""[Press] to Brian, Ciara (or `to all`; `grey` for no sender name): words to some players
through the referee. A Reply to "[Press] from Finn" answers Finn. Bold text is orders, which go
with [Orders]: press holding any is refused, so that orders never leak to other players."""

import re

from mailref.engine import Refused
from mailref.engine.state import Action
from mailref.handlers.registry import GameView, handles, read_whole
from mailref.read import Envelope

_GREY = re.compile(r"\b(?:grey|gray)\b", re.I)
_WHOM = re.compile(r"^\s*(?:to|from)\b[\s:]*", re.I)


@handles("press")
def press(env: Envelope, view: GameView) -> Action:
    read_whole(env, "press")
    if env.orders:
        raise Refused("press_holds_orders", count=len(env.orders))
    rest = env.subject.rest
    grey = bool(_GREY.search(rest))
    if grey and env.in_reply_to and not press_names(_GREY.sub(" ", rest)):
        raise Refused("press_grey_reply")  # "Re: [Press] grey": its sender is not to be known
    return {
        "type": "press",
        "player": view.name,
        "recipients": press_names(_GREY.sub(" ", rest)),
        "grey": grey,
        "text": env.text,
    }


def press_names(text: str) -> list[str]:
    """The players a subject's rest names: "to Brian, Ciara and Dara", "to all", "from Finn"."""
    names = re.split(r"\s*(?:,|;|&|\band\b)\s*", _WHOM.sub("", text.strip(), count=1), flags=re.I)
    return [" ".join(n.split()) for n in names if n.strip()]
