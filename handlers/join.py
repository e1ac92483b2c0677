"""[Join]: ask to play; name from a `Name:` line, else the From display name."""

from mailref.engine import Refused
from mailref.handlers import GameView, body_fields, handles
from mailref.read import Envelope


@handles("join", players_only=False)
def join(env: Envelope, view: GameView) -> dict:
    if view.player:
        raise Refused(f"you already play as {view.player['name']}")
    fields = body_fields(env.text)
    name = fields.pop("name", "") or env.from_name or (env.from_addr or "").split("@")[0]
    return {"type": "join", "name": name, "address": env.from_addr, "choices": fields}
