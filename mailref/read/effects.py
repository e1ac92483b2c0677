"""The effect lines of a ruling, a CfJ or a Proclamation (SPEC §4.4), each a line of its own:

    Undo entry 57            Undo proposal 3            Undo the vote of Bob on proposal 3
    Score Alice -10          Score Alice +5
    Set Thaum of Bob to 5    (a column of the gamestate, engine/mechanics/gamestate.py)

Other lines are the judgement's words (or rule changes, read by read/rulechanges.py)."""

from __future__ import annotations

import re
from typing import Any

_END = r"\s*[.;!]?\s*$"
_NUMBER = r"#?(\d{1,9})"  # the names below are bounded: a line is read in linear time
_MATTER = r"(?:proposal|cfj|dov|matter|judgement|call for judgement)"
_ENTRY = re.compile(
    rf"^\s*undo\s+(?:journal\s+)?entr(?:y|ies)\s+({_NUMBER}(?:\s*(?:,|and)\s*{_NUMBER})*){_END}",
    re.I,
)
_PROPOSAL = re.compile(rf"^\s*undo\s+{_MATTER}\s+{_NUMBER}{_END}", re.I)
_VOTE = re.compile(
    rf"^\s*undo\s+(?:the\s+)?(?:vote|ballot)\s+of\s+(\S.{{0,79}}?)\s+on\s+{_MATTER}\s+{_NUMBER}{_END}",
    re.I,
)
_SCORE = re.compile(
    rf"^\s*score\s+(?:of\s+)?(\S.{{0,79}}?)\s*:?\s+([+\-\u2212\u2013]\s?\d{{1,9}})(?:\s+points?)?{_END}",
    re.I,
)

_SET = re.compile(
    r"^\s*set\s+([A-Za-z][\w-]{0,39})\s+of\s+(\S.{0,79}?)\s+to\s+(\S.{0,199}?)\s*[.;!]?\s*$", re.I
)


def _is_effect(line: str) -> bool:
    return any(p.match(line) for p in (_ENTRY, _PROPOSAL, _VOTE, _SCORE, _SET))


def without_effects(text: str) -> str:
    """TEXT without its effect lines: what the rule changes are read from, so that a score line
    after `Enact rule 24 "Tea":` is not taken for the new rule's text."""
    return "\n".join(line for line in text.splitlines() if not _is_effect(line))


def read_effects(text: str) -> list[dict[str, Any]]:
    """The effect lines of TEXT, in order: {"entry": N}, {"proposal": N}, {"vote": N,
    "player": NAME}, {"score": NAME, "amount": ±N} and {"set": COLUMN, "player": NAME,
    "value": TEXT}, names as written."""
    out: list[dict[str, Any]] = []
    for line in text.splitlines():
        if m := _ENTRY.match(line):
            out += [{"entry": int(n)} for n in re.findall(r"\d+", m.group(1))]
        elif m := _PROPOSAL.match(line):
            out.append({"proposal": int(m.group(1))})
        elif m := _VOTE.match(line):
            out.append({"vote": int(m.group(2)), "player": m.group(1).strip()})
        elif m := _SCORE.match(line):
            amount = re.sub(r"[\u2212\u2013]", "-", m.group(2)).replace(" ", "")
            out.append({"score": m.group(1).strip(), "amount": int(amount)})
        elif m := _SET.match(line):
            out.append({"set": m.group(1), "player": m.group(2).strip(), "value": m.group(3)})
    return out
