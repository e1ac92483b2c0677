"""[Orders]: the bold sentences of the sender's own words; [Results]: the GM's turn results."""

from mailref.handlers import GameView, handles, read_whole
from mailref.read import Envelope


@handles("orders")
def orders(env: Envelope, view: GameView) -> dict:
    read_whole(env, "orders")
    return {"type": "orders", "player": view.name, "sentences": env.orders}


@handles("results", players_only=False)
def results(env: Envelope, view: GameView) -> dict:
    read_whole(env, "results")
    return {"type": "results", "player": view.name, "address": env.from_addr or "", "title": env.subject.rest.strip()[:200],
            "text": env.text}
