"""`mailref game show --json`: the stable, machine-readable view of SPEC §1.5."""

from __future__ import annotations

from typing import Any, cast

from mailref.engine.state import GameState, Matter, Player
from mailref.engine.variants import get_variant
from mailref.engine.variants.inbox import settings_of
from mailref.engine.variants.substitutes import tenures
from mailref.engine.variants.watching import watchers

_PLAYER = ("name", "addresses", "status", "score", "offices")
_PROPOSAL = ("number", "title", "author", "status", "reason", "votes", "deadline")
_JUDGEMENT = ("number", "kind", "question", "by", "judge", "status", "ruling")


def public_view(state: GameState) -> dict[str, Any]:
    turn = state.get("turn")
    view: dict[str, Any] = {
        "slug": state["slug"],
        "name": state["name"],
        "variant": state["variant"],
        "status": state["status"],
        "parameters": get_variant(state["variant"]).parameter_table.run_by(state["parameters"]),
        "players": [{k: p.get(k) for k in _PLAYER} | _extra_player(p) for p in state["players"]],
        "order": list(state.get("order", [])),
        "turn": {
            "number": turn["number"],
            "player": turn.get("player"),
            "deadline": turn.get("deadline"),
        }
        if turn
        else None,
        "proposals": [
            {k: m.get(k) for k in _PROPOSAL} | _extra_matter(m) for m in state["proposals"]
        ],
        "judgements": [
            {k: j.get(k) for k in _JUDGEMENT} | _extra_judgement(j) for j in state["judgements"]
        ],
        "rules": [
            {"number": r["number"], "title": r["title"], "text": r["text"]}
            | ({"type": r["type"]} if "type" in r else {})
            for r in state["rules"]
        ],
        "winners": list(state["winners"]),
        "watchers": len(watchers(state)),  # counted, never named: watching is private
    }
    if state.get("gm"):
        view["gm"] = state["gm"]
    own = cast("dict[str, Any]", state)  # the keys of some variants' states (state.py)
    for key in ("lands", "grain", "high_king", "orders", "historian", "dynasty", "ruleset"):
        if key in own:
            view[key] = own[key]
    if gs := state.get("gamestate"):  # the columns the rules declare, and each player's values
        view["gamestate"] = {"columns": gs["columns"], "values": gs["values"]}
    # Joins by mail not yet taken in (SPEC §2.3), without their confirmation codes.
    waiting = [(e, "confirmation") for e in state.get("joining") or ()]
    waiting += [(e, "gm") for e in state.get("awaiting_gm") or ()]
    if waiting:
        view["joins_waiting"] = [
            {"name": e["join"]["name"], "address": e["address"], "asked": e["asked"], "for": why}
            for e, why in waiting
        ]
    return view


def _extra_player(p: Player) -> dict[str, Any]:
    return _picked(p, ("color", "tribe", "origin")) | {
        "settings": settings_of(p),
        "away_until": p.get("away_until"),  # a dated absence ends by itself then (ISO 8601)
        "away_from": p.get("away_from"),  # set ahead: it begins then
        "vacant": p.get("vacant"),  # open to a [Takeover] since then
        "tenures": tenures(p),  # who held the seat, from when to when
    }


def _extra_matter(m: Matter) -> dict[str, Any]:
    return _picked(m, ("kind", "tally", "text"))


def _extra_judgement(j: Matter) -> dict[str, Any]:
    return _picked(j, ("votes", "reason", "deadline"))


def _picked(record: Matter | Player, keys: tuple[str, ...]) -> dict[str, Any]:
    """KEYS of RECORD that it has, in that order."""
    fields = cast("dict[str, Any]", record)
    return {k: fields[k] for k in keys if k in fields}
