"""The GM's corrections by mail, as `mailref rule` and `mailref undo` make them on the host:
[Rule] with rule changes written as a proposal writes them (all or none), and [Undo] 41 42,
which voids those journal entries. Only the game's GM (or the host's admin) may; a line
`Reason: ...` (for [Undo], any words besides the entries) is the reason the players are told.
The journal names the GM by role, not by address: the site shows who did what."""

from __future__ import annotations

import re
from typing import Any

from mailref.engine import Refused
from mailref.engine.ruleset import free_rule_number
from mailref.engine.state import Action, OtherAction
from mailref.handlers.judgement import effects_of
from mailref.handlers.registry import GameView, Talk, handles, signer
from mailref.read import Envelope, RuleChangeError, read_rule_changes

_REASON = re.compile(r"^\s*reason\s*:\s*(?P<why>\S.*)$", re.I)
# "41 42", "41, 42", "entries 41 and 42", "#41": journal entries by number
_ENTRIES = re.compile(
    r"^\s*(?:journal\s+)?(?:entr(?:y|ies)\s*)?"
    r"(?P<list>#?\d+(?:(?:\s*,\s*|\s+and\s+|\s+)#?\d+)*)\s*\.?\s*$",
    re.I,
)


def from_the_gm(env: Envelope, view: GameView) -> bool:
    """Whether the mail is from the game's GM or the host's admin (the mail's own proof, a
    Reply to the game's mail, is asked for before the handler runs)."""
    sender = (env.from_addr or "").lower()
    return bool(sender) and sender in {view.gm.lower(), view.admin.lower()} - {""}


def _reason(lines: list[str]) -> str:
    """The reason told to the players: a `Reason:` line, else the other words, in one line."""
    for line in lines:
        if m := _REASON.match(line):
            return m.group("why").strip()[:300]
    return " ".join(" ".join(lines).split())[:300]


@handles("rule", players_only=False)
def rule(env: Envelope, view: GameView) -> Action:
    if not from_the_gm(env, view):
        raise Refused("only_gm_changes_rules", gm=view.gm)
    rest = env.subject.rest.strip()
    text = f"{rest}\n{env.text}" if rest else env.text
    kept = [x for x in text.splitlines() if not _REASON.match(x)]
    try:
        changes = read_rule_changes("\n".join(kept), signer(env, view))
    except RuleChangeError as e:
        free = free_rule_number(view.state.get("rules", []), view.state.get("rule_history"))
        faults = [(n, line.strip()[:80], why) for n, line, why in e.faults]
        raise Refused("unreadable_rule_changes", faults=faults, free=free) from None
    if not changes:
        raise Refused("rule_names_no_change")
    # A player's proposal is bounded by max_text; the GM's mail is no bigger to all players.
    size = sum(len(c.text or "") + len(c.new or "") + len(c.title or "") for c in changes)
    limit = int(view.state["parameters"].get("max_text", view.variant.defaults["max_text"]))
    if size > limit:
        raise Refused("text_too_long", size=size, limit=limit)
    reason = _reason([x for x in text.splitlines() if _REASON.match(x)])
    action: Action = {
        "type": "rule",
        "changes": [c.as_dict() for c in changes],
        "by": "GM",
        "by_label": "the GM",
    }
    if reason:
        action["reason"] = reason
    return action


@handles("undo", players_only=False)
def undo(env: Envelope, view: GameView) -> Action:
    if not from_the_gm(env, view):
        if env.subject.is_reply and view.player is not None:
            # "Re: [Undo] Journal entry 8": a player's words on the announcement, for the others
            raise Talk("only_gm_undoes", gm=view.gm)
        raise Refused("only_gm_undoes", gm=view.gm)
    said = [env.subject.rest.strip()] + [x.strip() for x in env.text.splitlines()]
    entries: list[int] = []
    ordered: list[dict[str, Any]] = []
    words = []
    for line in filter(None, said):
        if not entries and not ordered and (numbers := _numbers(line)):
            entries = numbers  # the first line that is only numbers: "[Undo] 41 42"
        elif found := _undo_lines(line, view):
            ordered += found  # "[Undo] proposal 3", "the vote of Bob on proposal 3"
        else:
            words.append(line)
    if not entries and not ordered:
        raise Refused("undo_names_no_entry")
    action: OtherAction = {
        "type": "undo",
        "entries": entries,
        "by": "GM",
        "by_label": "the GM",
    }
    if ordered:
        action["effects"] = ordered
    if reason := _reason(words):
        action["reason"] = reason
    return action


def _undo_lines(line: str, view: GameView) -> list[dict[str, Any]]:
    """The undo a LINE orders in a ruling's words, "Undo" said or not ("proposal 3", "the vote
    of Bob on proposal 3", "Undo entry 57"), each player named as the game spells them."""
    text = line if line.lower().startswith("undo") else f"Undo {line}"
    return [e for e in effects_of(text, view) if "score" not in e and "set" not in e]


def _numbers(text: str) -> list[int]:
    """The journal entries TEXT names ("41 42", "entries 41 and 42"), else none."""
    m = _ENTRIES.match(text)
    return [int(n) for n in re.findall(r"\d+", m.group("list"))] if m else []
