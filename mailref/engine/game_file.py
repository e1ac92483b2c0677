"""A game as it stands, in a ruleset file (docs/rulesets.md): the header and rules a GM reads
and writes, then, after the line `=== the game as it stands ===`, the rest of the state as JSON
(players with addresses, scores, statuses and offices; matters with their votes; the turn and
deadlines; each rule's history). `game export` writes it and `game import` reads it back."""

from __future__ import annotations

import json
from typing import Any

from mailref.engine.dice import commitment, drawn_as
from mailref.engine.ruleparams import Table
from mailref.engine.ruleset_file import MECHANICS, Ruleset, RulesetProblems, load
from mailref.engine.schema import SCHEMA
from mailref.engine.state import GameState

MARK = "=== the game as it stands ==="
MAIN = {m.variants[0]: name for name, m in MECHANICS.items() if m.main}
TEXT_KEYS = ("number", "title", "text")  # what the rules part holds of each rule


def shown_values(table: Table, values: dict[str, Any]) -> dict[str, str]:
    """VALUES as the GM writes them, in the order of the variant's TABLE."""
    return {
        p.name: table.shown(p.name, values[p.name]) for p in table if values.get(p.name) is not None
    }


def export(state: GameState, shown: dict[str, str], dice: dict[str, Any] | None = None) -> str:
    """STATE as a file: its own ruleset header where it was made from one, else its variant's
    mechanics, with every parameter no rule binds set (SHOWN: each value as the GM writes it,
    in the order of the variant's table). DICE, the seed in use and the journal entries it
    served after (`seed_in_use`), goes with it, so that the game draws on as it would have."""
    part = state.get("ruleset") or {}
    lines = [f"name: {state['name']}"]
    lines.append(f"mechanics: {', '.join(part.get('mechanics') or [MAIN[state['variant']]])}")
    if part.get("noun"):
        lines.append(f"noun: {part['noun']}")
    bindings = part.get("bindings", {})
    lines += [f"bind {name}: {rule}" for name, rule in bindings.items()]
    lines += [f"runs {rule}: {what}" for rule, what in part.get("runs", {}).items()]
    lines += [f"set {k}: {v}" for k, v in shown.items() if k not in bindings]
    for r in state["rules"]:
        lines += ["", f"## {r['number']} {r.get('title', '')}".rstrip(), str(r.get("text", ""))]
    rest = {k: v for k, v in state.items() if k not in ("rules", "entries_before")}
    if dice:
        rest["dice"] = dice
    rest["rule_fields"] = {
        r["number"]: {k: v for k, v in r.items() if k not in TEXT_KEYS}
        for r in state["rules"]
        if set(r) - set(TEXT_KEYS)
    }
    return "\n".join(lines) + f"\n\n{MARK}\n" + json.dumps(rest, indent=1, sort_keys=True) + "\n"


def parse(text: str, source: str = "game") -> tuple[Ruleset, dict[str, Any]]:
    """The ruleset and the state a game file holds; RulesetProblems, each with its line."""
    at = next((i for i, line in enumerate(text.splitlines()) if line.strip() == MARK), None)
    if at is None:
        raise RulesetProblems(
            source,
            [
                f"line {len(text.splitlines()) + 1}: no `{MARK}` line: a game to import is "
                "written by `mailref game export`; a ruleset alone makes a new game with "
                "`mailref game create --ruleset`"
            ],
        )
    head, _, tail = text.partition(MARK)
    ruleset = load(head, source)
    try:
        rest = json.loads(tail)
    except json.JSONDecodeError as e:
        raise RulesetProblems(
            source, [f"line {at + e.lineno}: the game's state is not JSON ({e.msg})"]
        ) from None
    fields = rest.pop("rule_fields", {})
    rest["rules"] = [{**r, **fields.get(r["number"], {})} for r in ruleset.rules]
    missing = [k for k in ("variant", "players", "parameters", "turn") if k not in rest]
    if missing:
        raise RulesetProblems(
            source, [f"line {at + 2}: the game's state lacks {', '.join(missing)}: export it again"]
        )
    if int(rest.get("schema", 0)) > SCHEMA:
        raise RulesetProblems(
            source,
            [f"line {at + 2}: a newer mailref wrote this game: import it with that version"],
        )
    if rest["variant"] != ruleset.variant:
        raise RulesetProblems(
            source,
            [
                f"line {at + 2}: the state is a {rest['variant']} game, the mechanics make "
                f"{ruleset.variant}: write `mechanics: {MAIN[rest['variant']]}`"
            ],
        )
    if "dice" in rest and not _seed_kept(rest["dice"]):
        raise RulesetProblems(
            source,
            [f"line {at + 2}: the dice seed does not hash to its SHA-256: export the game again"],
        )
    return ruleset, rest


def seed_in_use(entries: int, before: int | None, number: int, seed: str) -> dict[str, Any]:
    """The dice part of a game file: seed NUMBER, in use and unrevealed, and how many journal
    entries the game has drawn by (ENTRIES, its own, on from BEFORE where it was imported)."""
    return {
        "number": number,
        "seed": seed,
        "sha256": commitment(seed),
        "entries": drawn_as(entries, before),
    }


def _seed_kept(dice: Any) -> bool:
    """DICE is a seed whose SHA-256 is the one the players were told, and a count of entries."""
    try:
        return (
            commitment(dice["seed"]) == dice["sha256"]
            and int(dice["number"]) > 0
            and int(dice["entries"]) >= 0
        )
    except (KeyError, TypeError, ValueError):
        return False


__all__ = ["MARK", "export", "parse", "seed_in_use", "shown_values"]
