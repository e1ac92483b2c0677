"""[Score] NAME +N: the GM changes a player's score by mail, as `mailref score` does on the
host (a ruling's score held for the GM, a penalty no rule carries out). `-N` takes away, `=N`
sets; words after "because", or the lines below, are the reason the players are told."""

from __future__ import annotations

import re

from mailref.engine import Refused
from mailref.engine.state import Action
from mailref.handlers.registry import GameView, handles
from mailref.read import Envelope

_LINE = re.compile(
    r"(?P<name>\S.*?)\s*(?P<op>[+=-])\s*(?P<amount>-?\d{1,9})(?:\s+because\s+(?P<why>\S.*))?",
    re.I,
)


@handles("score", players_only=False)
def score(env: Envelope, view: GameView) -> Action:
    gm = str(view.state.get("gm") or "").lower()
    if not gm or (env.from_addr or "").lower() != gm:
        raise Refused("only_gm_scores", gm=gm)
    lines = [x.strip() for x in env.text.splitlines() if x.strip()]
    said = env.subject.rest.strip() or (lines.pop(0) if lines else "")
    m = _LINE.fullmatch(said)
    if m is None or (m.group("op") != "=" and m.group("amount").startswith("-")):
        raise Refused("score_unreadable", line=said[:80])
    reason = (m.group("why") or " ".join(lines))[:300].rstrip(".")
    action: Action = {
        "type": "score",
        "player": m.group("name").strip(),
        "op": m.group("op"),
        "amount": int(m.group("amount")),
        "gm": True,
    }
    if reason:
        action["reason"] = reason
    return action
