"""Every key a game's state and journal carry is declared in engine/state.py: what mypy cannot
see (a key read or written through a variable) is checked here on games played."""

from __future__ import annotations

from typing import Any, get_args, get_type_hints

from mailref.engine.state import (
    Action,
    Ballot,
    BlogNomicState,
    EireState,
    Event,
    GameState,
    Matter,
    OrdersState,
    Player,
    Roll,
    Rule,
    SidekickState,
    Turn,
    VoteLine,
)

# Each variant's state type: the keys of its own beside those of every game.
STATES = {
    "sidekick": SidekickState,
    "imperial": GameState,
    "blognomic": BlogNomicState,
    "orders": OrdersState,
    "eire": EireState,
}


def keys(kind: Any) -> frozenset[str]:
    return kind.__required_keys__ | kind.__optional_keys__


def action_type(kind: str) -> Any:
    """The member of the Action union whose `type` is KIND, or None."""
    for member in get_args(Action):
        if kind in get_args(get_type_hints(member)["type"]):
            return member
    return None


def _check(record: object, kind: Any, where: str, out: list[str]) -> None:
    if isinstance(record, dict):
        out += [f"{where}.{k}" for k in record if k not in keys(kind)]


def undeclared(state: dict, actions: list[dict]) -> list[str]:
    """The keys of STATE and of the journaled ACTIONS that their types do not declare."""
    out: list[str] = []
    _check(state, STATES[state["variant"]], "state", out)
    for p in state.get("players") or []:
        _check(p, Player, "players[]", out)
    for collection in ("proposals", "judgements"):
        for m in state.get(collection) or []:
            _check(m, Matter, f"{collection}[]", out)
            for b in m.get("ballots") or []:
                _check(b, Ballot, f"{collection}[].ballots[]", out)
    _check(state.get("turn"), Turn, "turn", out)
    for r in state.get("rules") or []:
        _check(r, Rule, "rules[]", out)
    for e in state.get("events") or []:
        _check(e, Event, "events[]", out)
    for r in state.get("rolls") or []:
        _check(r, Roll, "rolls[]", out)
    for a in actions:
        kind = action_type(a["type"])
        if kind is None:
            out.append(f"action {a['type']}: a type Action does not name")
            continue
        _check(a, kind, f"action {a['type']}", out)
        for b in a.get("ballots") or []:
            _check(b, VoteLine, f"action {a.get('type')}.ballots[]", out)
    return sorted(set(out))


def assert_declared(referee) -> None:
    """Every game of REFEREE: its state (archived matters included) and journal declared."""
    from mailref.door import full_state
    from mailref.store import Game, JournalEntry

    with referee.store() as s:
        for g in s.query(Game):
            actions = [e.action for e in s.query(JournalEntry).filter_by(game_id=g.id)]
            found = undeclared(full_state(s, g), actions)
            assert found == [], (g.slug, found)
