"""[Settings]: the sender's own inbox settings as `key: value` lines, in the body or after the
tag (`[Settings] digest: daily`); `[Settings] digest` alone is what a mail program's
unsubscribe button sends (List-Unsubscribe), whatever its body says."""

import re

from mailref.engine import Refused
from mailref.engine.state import Action
from mailref.handlers.registry import GameView, handles
from mailref.read import Envelope

_LINE = re.compile(r"^\s*(digest|zone|discussion)\s*[:=]\s*(\S+)\s*$", re.I | re.M)


@handles("settings")
def settings(env: Envelope, view: GameView) -> Action:
    values = {k.lower(): v for k, v in _LINE.findall(f"{env.subject.rest}\n{env.text}")}
    rest = env.subject.rest.strip()
    # "[Settings] digest" is what the List-Unsubscribe mailto sends: the daily digest.
    unsubscribe = rest.lower() == "digest"
    if unsubscribe:
        values = {"digest": "daily"}
    elif rest and not _LINE.match(rest):
        raise Refused("unreadable_setting", line=rest)
    return {"type": "settings", "player": view.name, "values": values, "unsubscribe": unsubscribe}
