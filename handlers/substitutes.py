"""[Vacate] NAME: the GM opens NAME's seat to a substitute. [Takeover] NAME: one who does not
play asks to take that open seat; their name from a `Name:` line, else the From display name,
and confirmed by reply as a join is."""

from mailref.engine import Refused
from mailref.engine.state import Action
from mailref.handlers.join import person_name
from mailref.handlers.registry import GameView, body_fields, handles
from mailref.read import Envelope


@handles("vacate", players_only=False)
def vacate(env: Envelope, view: GameView) -> Action:
    gm = str(view.state.get("gm") or "").lower()
    if not gm or (env.from_addr or "").lower() != gm:
        raise Refused("only_gm_vacates", gm=gm)
    name = env.subject.rest.strip() or body_fields(env.text).get("name", "")
    if not name:
        raise Refused("vacate_names_no_one")
    return {"type": "vacate", "name": name, "player": view.name}


@handles("takeover", players_only=False)
def takeover(env: Envelope, view: GameView) -> Action:
    if view.player:
        raise Refused("plays_already", name=view.player["name"])
    fields = body_fields(env.text)
    seat = env.subject.rest.strip() or fields.get("seat", "")
    if not seat:
        raise Refused("takeover_names_no_seat")
    name = person_name(
        fields.get("name", "") or env.from_name or (env.from_addr or "").split("@")[0]
    )
    return {"type": "takeover", "seat": seat, "name": name, "address": env.from_addr or ""}
