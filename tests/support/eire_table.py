"""Eire's adjudication as a table (tests/engine/test_eire_*.py): a Row is a position, the orders
of one turn and the d10s it rolls, and what the turn must come to; `check` plays it through the
engine alone (no mail, no store), the rolls given as replay gives them."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

from mailref.engine.context import Ctx
from mailref.engine.variants.eire import COLORS, Eire
from mailref.timeutil import parse_iso

NOW = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)
V = Eire()
FINN = ("Finn", "Plainsmen", "Llanc")
MAEVE = ("Maeve", "Plainsmen", "Donal")
OISIN = ("Oisin", "Plainsmen", "Cashel")
SIDHE = ("Oisin", "Sidhe", "Ardagh")
BRAN = ("Bran", "Woodkin", "Fánad")


@dataclass
class Row:
    """One turn: the position, the orders, the rolls, and what must come of them."""

    players: tuple[tuple[str, str, str], ...]  # (name, tribe, origin), joined in this order
    orders: dict[str, tuple[str, ...]]
    dice: tuple[int, ...] = ()
    holds: dict[str, str | None] = field(default_factory=dict)  # beyond each Origin Land
    output: dict[str, int] = field(default_factory=dict)
    grain: dict[str, int] = field(default_factory=dict)  # when the turn opens (else 100 each)
    params: dict = field(default_factory=dict)
    high_king: str | None = None  # at the start of the turn
    # What must come of it: owners and outputs after the turn, lines of the results mail,
    # lines it must not have, the High King after the turn (... leaves it unchecked), winners.
    owners: dict[str, str | None] = field(default_factory=dict)
    outputs: dict[str, int] = field(default_factory=dict)
    grain_after: dict[str, int] = field(default_factory=dict)  # next turn's income added
    said: tuple[str, ...] = ()
    unsaid: tuple[str, ...] = ()
    king: object = ...
    winners: tuple[str, ...] = ()
    eliminated: tuple[str, ...] = ()


def position(
    players: tuple[tuple[str, str, str], ...],
    holds: dict[str, str | None],
    output: dict[str, int],
    params: dict | None = None,
) -> dict:
    """PLAYERS joined, turn 1 open, the map as HOLDS and OUTPUT say, 100 Grain each."""
    state = V.initial_state(
        "eire", "Eire", "eire@ref.example", "gm@ref.example", "UTC", params or {}, NOW
    )
    for (name, tribe, origin), color in zip(players, COLORS, strict=False):
        choices = {"color": color, "tribe": tribe, "origin": origin}
        join = {"type": "join", "name": name, "address": f"{name}@x.org", "choices": choices}
        V.handle(state, join, Ctx(NOW))
    V.handle(state, {"type": "start"}, Ctx(NOW))
    for land, owner in holds.items():
        V.land(state, land)["owner"] = owner
    for land, value in output.items():
        V.land(state, land)["output"] = value
    state["grain"].update({name: 100 for name, _, _ in players})
    return state


def play(row: Row) -> tuple[dict, Ctx]:
    """ROW's position, its orders, and the turn resolved: (the state after, the context of the
    action that resolved it, whose mail holds the results)."""
    state = position(row.players, row.holds, row.output, row.params)
    state["grain"].update(row.grain)
    state["high_king"] = row.high_king
    ctx = Ctx(NOW, draws=list(row.dice))
    for name, sentences in row.orders.items():
        order = {"type": "orders", "player": name, "sentences": list(sentences)}
        V.handle(state, order, ctx)
    if state["turn"]["number"] == 1 and state["status"] != "ended":  # an order is missing
        ctx.now = parse_iso(state["turn"]["deadline"])
        V.handle(state, {"type": "tick"}, ctx)
    assert state["turn"]["number"] == 2 or state["status"] == "ended", "the turn resolved"
    assert ctx.draws == list(row.dice), "the row names exactly the rolls its turn uses"
    played = state["history"][-1]["orders"]
    for name, sentences in row.orders.items():
        assert [o["text"] for o in played[name]["orders"]] == list(sentences), "all accepted"
    return state, ctx


def check(row: Row) -> None:
    state, ctx = play(row)
    text = "\n".join(next(o for o in ctx.out if o.kind == "results").vars["lines"])
    for land, owner in row.owners.items():
        assert V.land(state, land)["owner"] == owner, land
    for land, output in row.outputs.items():
        assert V.land(state, land)["output"] == output, land
    for name, grain in row.grain_after.items():
        assert state["grain"][name] == grain, name
    for line in row.said:
        assert line in text
    for line in row.unsaid:
        assert line not in text
    if row.king is not ...:
        assert state["high_king"] == row.king
    assert tuple(state.get("winners") or ()) == row.winners
    gone = tuple(p["name"] for p in state["players"] if p.get("eliminated"))
    assert gone == row.eliminated
