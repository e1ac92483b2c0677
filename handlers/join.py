"""[Join]: ask to play; name from a `Name:` line, else the From display name. [Confirm]:
the answer to the confirmation of a join or of a [Watch]; [Approve] NAME: the GM takes in a
confirmed join."""

import re

from mailref.engine import Refused
from mailref.engine.state import Action
from mailref.engine.variants.watching import watching_asked
from mailref.handlers.registry import GameView, body_fields, handles
from mailref.read import Envelope


@handles("join", players_only=False)
def join(env: Envelope, view: GameView) -> Action:
    if view.player:
        raise Refused("plays_already", name=view.player["name"])
    fields = body_fields(env.text)
    if "colour" in fields:  # British (and Irish) spelling; the game says Color
        fields.setdefault("color", fields.pop("colour"))
    name = person_name(
        fields.pop("name", "") or env.from_name or (env.from_addr or "").split("@")[0]
    )
    # a mail that names no sender is machine mail, never a command: "" is never read
    return {"type": "join", "name": name, "address": env.from_addr or "", "choices": fields}


# The Message-ID of a join's confirmation (outgoing.confirmation_id) carries its code.
_CONFIRMATION = re.compile(r"<join\.([0-9a-f]{32})@", re.I)


@handles("confirm", players_only=False)
def confirm(env: Envelope, view: GameView) -> Action:
    """A reply to the confirmation names it (In-Reply-To, References); a new mail carries
    its `Code:` line."""
    if view.player:
        raise Refused("plays_already", name=view.player["name"])
    codes = [
        m.group(1).lower()
        for r in env.in_reply_to + env.references
        if (m := _CONFIRMATION.match(r))
    ]
    code = body_fields(env.text).get("code", "").strip().lower()
    tokens = [*codes, *([code] if code else [])]
    if watching_asked(view.state, tokens):  # the confirmation of a [Watch], not of a join
        return {
            "type": "watch_confirm",
            "address": env.from_addr or "",
            "tokens": tokens,
            "consents": bool(code) or consents(env.text, codes),
        }
    return {
        "type": "confirm",
        "address": env.from_addr or "",
        "tokens": tokens,
        # A ticket system's or an absence notice's answer names the confirmation too: only
        # words saying yes, or the code, consent (journaled: older confirmations replay).
        "consents": bool(code) or consents(env.text, codes),
    }


_YES = re.compile(
    r"^\W*(?:yes|yeah|yep|yup|ok|okay|sure|confirm(?:ed)?|i\s+confirm|agreed?|i\s+agree|"
    r"count\s+me\s+in|i'?m\s+in|join|y|ja|oui|s[ií]|sim|da|tak)\b",
    re.I,
)


def consents(text: str, codes: list[str]) -> bool:
    """Whether a reply's own words say yes (their first line), or carry a code it names."""
    first = next((ln for ln in text.splitlines() if ln.strip()), "")
    return bool(_YES.match(first)) or any(c in text.lower() for c in codes)


@handles("approve", players_only=False)
def approve(env: Envelope, view: GameView) -> Action:
    gm = str(view.state.get("gm") or "").lower()
    if not gm or (env.from_addr or "").lower() != gm:
        raise Refused("only_gm_approves", gm=gm)
    name = env.subject.rest.strip() or body_fields(env.text).get("name", "")
    if not name:
        raise Refused("approve_names_no_one")
    return {"type": "approve", "name": name, "player": view.name}


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
