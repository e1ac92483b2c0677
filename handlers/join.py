"""[Join]: ask to play; name from a `Name:` line, else the From display name."""

from mailref.engine import Refused
from mailref.engine.state import Action
from mailref.handlers.registry import GameView, body_fields, handles
from mailref.read import Envelope


@handles("join", players_only=False)
def join(env: Envelope, view: GameView) -> Action:
    if view.player:
        raise Refused(f"you already play as {view.player['name']}")
    fields = body_fields(env.text)
    if "colour" in fields:  # British (and Irish) spelling; the game says Color
        fields.setdefault("color", fields.pop("colour"))
    name = person_name(
        fields.pop("name", "") or env.from_name or (env.from_addr or "").split("@")[0]
    )
    return {"type": "join", "name": name, "address": env.from_addr, "choices": fields}


def person_name(text: str) -> str:
    """A name as people write it, as the game keeps it: "Seán D’Arcy" with a typographic
    apostrophe is "Seán D'Arcy"; a directory's "Chen, Carla" is "Carla Chen"."""
    name = " ".join(text.translate({0x2019: "'", 0x2018: "'", 0x02BC: "'", 0x00B4: "'"}).split())
    last, comma, first = name.partition(",")
    if (
        comma
        and first.strip()
        and "," not in first
        and len(last.split()) <= 2
        and len(first.split()) <= 2
    ):
        name = f"{first.strip()} {last.strip()}"
    return name
