"""The GM steers the game by mail as the host's commands do: [Set] with lines `dormant_below=3`
(`mailref game set`, all or none), [Decide] 3 enact|fail|veto (`mailref proposal`), [Override]
3 Bob FOR (`mailref vote`) and [Office] historian Bob (`mailref office`). Each is the same
action the host's command applies, the GM's (or the host admin's) alone, and taken only as a
Reply to the game's mail; a line `Reason: ...` is what the players are told why."""

from __future__ import annotations

import re

from mailref.engine import Refused
from mailref.engine.state import OtherAction
from mailref.engine.variants.admin import in_journal_order
from mailref.handlers.corrections import from_the_gm
from mailref.handlers.registry import GameView, handles
from mailref.read import Envelope, vote_meaning

_REASON = re.compile(r"^\s*reason\s*:\s*(?P<why>\S.*)$", re.I)
# "dormant_below=3", "dormant_below: 3", "min_open = 1d"
_SETTING = re.compile(r"^\s*(?P<key>[a-z][a-z0-9_]*)\s*(?P<sep>[=:])\s*(?P<value>\S.*?)\s*$", re.I)
# What `mailref game set` takes besides the parameters; the GM's address stays the host's.
_GAME_KEYS = {"name", "timezone"}
_ON = ("on", "true", "yes", "1")  # require_auth switched on (parameters.OnOff)
# A value by mail is a word, a number or a name: the game's name is in every mail it sends.
VALUE_MOST = 200
_MATTER = r"(?:(?:proposal|prop\.?|p|cfj|dov)\s*)?#?(?P<number>\d{1,9})"
_REOPEN = r"(?P<reopen>\s+(?:reopen|reverse|reversing(?:\s+the\s+result)?))?\s*\.?\s*$"
# "3 enact", "proposal 3 fail", "3 enact reopen" (reverse a closed result); or "enact 3"
_DECISION = (
    re.compile(rf"^\s*{_MATTER}\s+(?P<outcome>enact|fail|veto){_REOPEN}", re.I),
    re.compile(rf"^\s*(?P<outcome>enact|fail|veto)\s+{_MATTER}{_REOPEN}", re.I),
)
# "3 Bob FOR", "proposal 3 Bob: AGAINST"
_OVERRIDE = re.compile(rf"^\s*{_MATTER}\s+(?P<name>\S.*?)\s*:?\s+(?P<word>\S+)\s*$", re.I)
# "historian Bob", "Historian: Bob", "emperor" (vacated)
_OFFICE = re.compile(r"^\s*(?P<office>[a-z][a-z-]{0,30})\s*:?\s*(?P<holder>\S.*?)?\s*\.?\s*$", re.I)


def _said(env: Envelope) -> list[str]:
    """The subject's words after the tag, then the body's lines, each stripped, none empty."""
    lines = [env.subject.rest.strip()] + [x.strip() for x in env.text.splitlines()]
    return [x for x in lines if x]


def _command(env: Envelope, lines: list[str], numbered: bool = False) -> str:
    """The first of LINES that is not the GM's reason: the command's own words, after the
    subject's number where the command is NUMBERED ("[Decide 3] enact")."""
    said = next((x for x in lines if not _REASON.match(x)), "")
    return f"{env.subject.number} {said}" if numbered and env.subject.number is not None else said


def _reason(lines: list[str]) -> str:
    return next((m.group("why").strip()[:300] for x in lines if (m := _REASON.match(x))), "")


def _as_the_gm(action: OtherAction, lines: list[str]) -> OtherAction:
    """ACTION as the GM's: journaled by role, told with the GM's reason."""
    action.update({"by": "GM", "by_label": "the GM", "gm": True})
    if reason := _reason(lines):
        action["reason"] = reason
    return action


def _only_the_gm(env: Envelope, view: GameView, does: str, example: str, cli: str) -> None:
    if not from_the_gm(env, view):
        raise Refused("only_gm_by_mail", does=does, gm=view.gm, example=example, cli=cli)


@handles("set", players_only=False)
def game_set(env: Envelope, view: GameView) -> OtherAction:
    if not from_the_gm(env, view):
        raise Refused("only_gm_sets", gm=view.gm)
    lines = _said(env)
    known = set(view.variant.parameter_table.params) | _GAME_KEYS | {"gm"}
    values: dict[str, str] = {}
    for line in lines:
        m = _SETTING.match(line)
        if m is None or _REASON.match(line):
            continue
        key = m.group("key").lower()
        if m.group("sep") == ":" and key not in known:
            continue  # "Thanks: all", words about the change, not a setting
        values[key] = m.group("value")
    if "gm" in values:
        raise Refused("gm_set_on_the_host", slug=view.state["slug"])
    if long := next((k for k, v in values.items() if len(v) > VALUE_MOST), None):
        raise Refused("set_value_too_long", key=long, most=VALUE_MOST)
    if not view.verifies and str(values.get("require_auth", "")).lower() in _ON:
        # Every later mail would be refused, the GM's own [Set] require_auth=off included.
        raise Refused("require_auth_unverifiable", slug=view.state["slug"])
    if not values:
        raise Refused("set_names_no_setting")
    return _as_the_gm({"type": "set", "values": in_journal_order(values)}, lines)


@handles("decide", players_only=False)
def decide(env: Envelope, view: GameView) -> OtherAction:
    _only_the_gm(env, view, "decides a proposal", "[Decide] 3 enact", "proposal enact")
    lines = _said(env)
    said = _command(env, lines, numbered=True)
    m = _DECISION[0].match(said) or _DECISION[1].match(said)
    if m is None:
        raise Refused("decide_unreadable", line=said[:80])
    action: OtherAction = {
        "type": "decide",
        "number": int(m.group("number")),
        "outcome": m.group("outcome").lower(),
    }
    if m.group("reopen"):
        action["reopen"] = True
    return _as_the_gm(action, lines)


@handles("override", players_only=False)
def override(env: Envelope, view: GameView) -> OtherAction:
    _only_the_gm(env, view, "records another's vote", "[Override] 3 Bob FOR", "vote")
    lines = _said(env)
    said = _command(env, lines, numbered=True)
    m = _OVERRIDE.match(said)
    meaning = vote_meaning(m.group("word")) if m else None
    if m is None or meaning is None:
        raise Refused("override_unreadable", line=said[:80])
    action: OtherAction = {
        "type": "vote_override",
        "number": int(m.group("number")),
        "player": m.group("name"),
        "vote": meaning,
    }
    return _as_the_gm(action, lines)


@handles("office", players_only=False)
def office(env: Envelope, view: GameView) -> OtherAction:
    _only_the_gm(env, view, "names who holds an office", "[Office] historian NAME", "office")
    lines = _said(env)
    said = _command(env, lines)
    m = _OFFICE.match(said)
    if m is None:
        raise Refused("office_unreadable", line=said[:80])
    holder = (m.group("holder") or "").strip()
    if holder.lower() in ("none", "nobody", "vacant", "no one"):
        holder = ""
    action: OtherAction = {"type": "office", "office": m.group("office").lower(), "holder": None}
    if holder:
        action["holder"] = holder
    return _as_the_gm(action, lines)
