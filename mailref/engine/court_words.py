"""What an undo changed (engine/court.py), in the words the players read: scores, rules with
their diff, statuses of players and matters, the turn, the winners."""

from __future__ import annotations

import difflib

from mailref.engine.state import GameState, Matter, Turn


def what_changed(
    before: GameState, after: GameState, during: GameState, judgement: str = "Judgement"
) -> list[str]:
    """The lines that say how AFTER differs from BEFORE (full states, archived matters in).
    DURING is the state the ordering entry itself made: a matter it decided is not news.
    JUDGEMENT: how the game names its judgements ("" names them by kind: CfJ, DoV)."""
    lines = _scores(before, after) + _players(before, after)
    lines += _rules(before, after) + _matters(before, after, during, judgement)
    lines += _turn(before, after) + _ending(before, after) + _parameters(before, after)
    return lines


def _scores(before: GameState, after: GameState) -> list[str]:
    old = {p["name"]: p.get("score") for p in before.get("players", [])}
    return [
        f"Score of {p['name']}: {old.get(p['name'])} -> {p.get('score')}."
        for p in after.get("players", [])
        if p.get("score") is not None and old.get(p["name"]) != p.get("score")
    ]


def _players(before: GameState, after: GameState) -> list[str]:
    old = {p["name"]: p.get("status") for p in before.get("players", [])}
    new = {p["name"]: p.get("status") for p in after.get("players", [])}
    out = [f"{n} is {s} (was {old[n]})." for n, s in new.items() if n in old and old[n] != s]
    out += [f"{n} is no longer in the game." for n in old if n not in new]
    out += [f"{n} is in the game ({s})." for n, s in new.items() if n not in old]
    return out


def _rules(before: GameState, after: GameState) -> list[str]:
    old = {str(r["number"]): r for r in before.get("rules", [])}
    new = {str(r["number"]): r for r in after.get("rules", [])}
    out: list[str] = []
    for n, r in old.items():
        if n not in new:
            out.append(f'Rule {n} "{r.get("title", "")}" is no longer in the ruleset.')
    for n, r in new.items():
        if n not in old:
            out.append(f'Rule {n} "{r.get("title", "")}" is in the ruleset:')
            out += [f"  {line}" for line in str(r.get("text", "")).splitlines()]
            continue
        was = old[n]
        if was.get("title") != r.get("title"):
            out.append(f'Rule {n} is titled "{r.get("title")}" (was "{was.get("title")}").')
        if was.get("text") != r.get("text"):
            out.append(f"Rule {n} changed (- as it read, + as it reads now):")
            diff = difflib.unified_diff(
                str(was.get("text", "")).splitlines(),
                str(r.get("text", "")).splitlines(),
                lineterm="",
                n=0,
            )
            out += [f"  {d}" for d in diff if not d.startswith(("---", "+++", "@@"))]
    return out


def _matters(before: GameState, after: GameState, during: GameState, judgement: str) -> list[str]:
    out: list[str] = []
    for collection in ("proposals", "judgements"):
        old = {m["number"]: m for m in _listed(before, collection)}
        new = {m["number"]: m for m in _listed(after, collection)}
        own = {m["number"]: m.get("status") for m in _listed(during, collection)}
        for n, m in old.items():
            label = _label(m, collection, judgement)
            title = m.get("question") or m.get("title") or ""
            if n not in new:
                out.append(f'{label} {n} "{title}" no longer exists (it was {m.get("status")}).')
            elif new[n].get("status") != m.get("status") and own.get(n) != new[n].get("status"):
                out.append(
                    f'{label} {n} "{title}" is {new[n].get("status")} (was {m.get("status")}).'
                )
        out += [
            f'{_label(m, collection, judgement)} {n} "{m.get("question") or m.get("title") or ""}"'
            f" is {m.get('status')}."
            for n, m in new.items()
            if n not in old and n not in own
        ]
    return out


def _label(m: Matter, collection: str, judgement: str) -> str:
    if collection == "proposals":
        return "Proposal"
    if judgement:
        return judgement[:1].upper() + judgement[1:]
    return {"cfj": "CfJ", "dov": "DoV"}.get(str(m.get("kind")), "Judgement")


def _listed(state: GameState, collection: str) -> list[Matter]:
    if collection == "proposals":
        return state.get("proposals", [])
    return state.get("judgements", [])


def _turn(before: GameState, after: GameState) -> list[str]:
    old, new = _turn_words(before.get("turn")), _turn_words(after.get("turn"))
    return [f"The turn: {new} (was {old})."] if old != new else []


def _turn_words(turn: Turn | None) -> str:
    if not turn:
        return "none yet"
    who = turn.get("player")
    return f"turn {turn.get('number')}" + (f", {who} to move" if who else "")


def _ending(before: GameState, after: GameState) -> list[str]:
    out = []
    if before.get("status") != after.get("status"):
        out.append(f"The game is {after.get('status')} (was {before.get('status')}).")
    if before.get("winners") != after.get("winners"):
        won = ", ".join(after.get("winners") or []) or "nobody"
        out.append(f"Winners: {won} (was {', '.join(before.get('winners') or []) or 'nobody'}).")
    return out


def _parameters(before: GameState, after: GameState) -> list[str]:
    old, new = before.get("parameters", {}), after.get("parameters", {})
    return [
        f"The referee runs {k} = {new.get(k)} (was {old.get(k)})."
        for k in sorted(set(old) | set(new), key=str)
        if old.get(k) != new.get(k)
    ]
