"""[Deadline]: the GM's `+2d`, `Fri 18:00`, `pause`, `resume`, and `ok` / `no` to a player's
request; a player's `+1d` asks the GM (SPEC §2.5). The command is after the tag or on a line
of the body (a Reply to the GM's request mail: the body)."""

from __future__ import annotations

import re
from datetime import timedelta

from mailref.engine import Refused
from mailref.engine.dates import looks_like_moment, read_length
from mailref.engine.state import Action, OtherAction
from mailref.engine.variants.extensions import AHEAD_MOST, spoken
from mailref.handlers.registry import GameView, handles, not_a_player
from mailref.read import Envelope
from mailref.timeutil import TooLong, format_duration

_WORDS = {
    "pause": "pause",
    "resume": "resume",
    "unpause": "resume",
    "ok": "ok",
    "okay": "ok",
    "yes": "ok",
    "granted": "ok",
    "grant": "ok",
    "approved": "ok",
    "no": "no",
    "refused": "no",
    "refuse": "no",
    "denied": "no",
}
_EXTEND = re.compile(r"^(?:\+\s*|extend\s+(?:by\s+)?)(?P<length>\d.*?)(?:\s+more)?$", re.I)
_ASKS = re.compile(r"^(?P<name>.+?) asks for ")  # the subject of the request mail


def read_command(line: str) -> tuple[str, str] | None:
    """("extend", "2d"), ("at", "Fri 18:00"), ("pause", ""), ... or None: no command."""
    s = " ".join(line.strip().strip(".!").split())
    if not s or len(s) > 60:
        return None
    if word := _WORDS.get(s.lower()):
        return word, ""
    first, _, name = s.partition(" ")
    if _WORDS.get(first.lower()) in ("ok", "no") and re.fullmatch(r"[\w .'-]{1,40}", name):
        return _WORDS[first.lower()], name  # "ok Bob": the answer to Bob's request
    if m := _EXTEND.match(s):
        try:
            read_length(m.group("length"))
        except TooLong:
            pass  # a command all the same: its answer says how long a length may be
        except ValueError:
            return None
        return "extend", m.group("length")
    if looks_like_moment(s):
        return "at", s
    return None


@handles("deadline", players_only=False)
def deadline(env: Envelope, view: GameView) -> Action:
    address = (env.from_addr or "").lower()
    gm = view.gm.lower() == address if view.gm else False
    if not gm and view.player is None:
        not_a_player(env, view)
    lines = [] if env.subject.is_reply else [env.subject.rest]
    lines += env.text.splitlines()[:20]
    found, why = None, []
    for line in lines:
        got = read_command(line) if found is None else None
        if got:
            found = got
        elif line.strip() and found is not None:
            why.append(line.strip())
    if found is None:
        raise Refused("no_deadline_command", gm=bool(gm))
    op, value = found
    reason = " ".join(why)[:300]
    if gm:
        if op in ("pause", "resume"):
            return {
                "type": "pause" if op == "pause" else "resume",
                "gm": True,
                "address": address,
                "reason": reason,
            }
        if op in ("ok", "no"):
            answer: OtherAction = {"type": "deadline_answer", "ok": op == "ok", "address": address}
            asked = _ASKS.match(env.subject.rest) if env.subject.is_reply else None
            if name := value or (asked and asked.group("name")):
                answer["name"] = name
            return answer
        out: OtherAction = {"type": "deadline", "gm": True, "address": address, "reason": reason}
        if op == "extend":
            out["extend"] = value_as_duration(value)
        else:
            out["at"] = value
        return out
    if op != "extend":
        raise Refused("only_gm_moves_deadline")
    return {
        "type": "deadline_request",
        "player": view.name,
        "extend": value_as_duration(value),
        "reason": reason,
    }


def value_as_duration(value: str) -> str:
    """ "2 days" -> "2d": the form the engine's parameters and the journal keep."""
    try:
        length: timedelta | None = read_length(value)
    except TooLong:
        length = None
    if length is None or length > AHEAD_MOST:
        raise Refused(
            "deadline_length_past_bound", value=value.strip()[:40], most=spoken(AHEAD_MOST)
        )
    return format_duration(length)
