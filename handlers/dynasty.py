"""[DoV], [Ascension] and [Historian]: BlogNomic's Declarations of Victory, the new Historian's
address, and the new Historian passing the role on."""

from mailref.engine import Refused
from mailref.engine.state import Action
from mailref.handlers.registry import GameView, body_fields, handles
from mailref.handlers.vote import ballots
from mailref.read import Envelope


@handles("dov")
def dov(env: Envelope, view: GameView) -> Action:
    if env.subject.number is not None:
        return ballots(env, view)
    title = env.subject.rest.strip() or "Declaration of Victory"
    return {"type": "dov", "player": view.name, "question": title[:300], "text": env.text}


@handles("ascension")
def ascension(env: Envelope, view: GameView) -> Action:
    theme = env.subject.rest.strip()
    fields = body_fields(env.text)
    if env.subject.is_reply and theme.lower().startswith("your ascension address"):
        # A plain Reply to the referee's own request: its subject is the request's, not a theme.
        theme = fields.get("theme", "")
        if not theme:
            raise Refused("ascension_needs_theme")
    if not theme:
        raise Refused("ascension_names_theme")
    # The address itself (what the players read), without the `Wizard: Dragon` lines the referee
    # acts on.
    said = "\n".join(
        ln
        for ln in env.text.splitlines()
        if ln.partition(":")[0].strip().lower() not in fields or not ln.partition(":")[1]
    ).strip()
    return {
        "type": "ascension",
        "player": view.name,
        "theme": theme[:200],
        "fields": fields,
        "text": said[:5000],
    }


@handles("historian")
def historian(env: Envelope, view: GameView) -> Action:
    """ "That Wizard may pass this role to another Wizard at this point by making a post to that
    effect"."""
    fields = body_fields(env.text)
    to = env.subject.rest.strip() or fields.get("to") or fields.get("historian") or ""
    to = to.removeprefix("to ").strip(" .")
    if not to:
        raise Refused("historian_names_no_one")
    return {"type": "historian", "player": view.name, "to": to[:60]}
