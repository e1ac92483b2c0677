"""[Update]: alterations of the gamestate, one a line (`Thaum -3`, `Thaum of Bob +2`,
`Hand: Fox, Owl`, `Home = Wilderness`), each with an optional `because ...`."""

from __future__ import annotations

import re
from typing import Any

from mailref.engine import Refused
from mailref.engine.state import Action, OtherAction
from mailref.handlers.registry import GameView, Talk, handles, not_a_player
from mailref.read import Envelope

# The column, whose (else the sender's), and the alteration: a number added or taken away, an
# item added to or taken from a list, or a value set.
_LINE = re.compile(
    r"(?P<column>[A-Za-z][\w-]*)(?:\s+of\s+(?P<of>[^\s:=+-][^:=+]*?))?\s*"
    r"(?:(?P<sign>[+-])\s*(?P<change>\S.*)|[:=]\s*(?P<value>.*))"
)
_BECAUSE = re.compile(r"\s+because\s+", re.I)


def read_line(line: str) -> dict[str, Any] | None:
    """One alteration as the engine takes it, or None when LINE is none."""
    said, because = (_BECAUSE.split(line.strip(), maxsplit=1) + [""])[:2]
    # A roll, as in the GNDT: "DICE20", "DICE20 for the deal", "DICE6 because rule 2.5".
    if d := re.fullmatch(r"(?i)dice\s*(\d{1,21})(?:\s+(\S.*))?", said.strip()):
        why = because.strip() or (d.group(2) or "")
        return {"line": line.strip(), "roll": int(d.group(1)), "because": why}
    m = _LINE.fullmatch(said.strip())
    if m is None:
        return None
    op = m.group("sign") or "="
    value = m.group("change") if m.group("sign") else m.group("value")
    return {
        "line": line.strip(),
        "column": m.group("column"),
        "of": (m.group("of") or "").strip(),
        "op": op,
        "value": (value or "").strip(),
        "because": because.strip().rstrip("."),
    }


@handles("update", players_only=False)
def update(env: Envelope, view: GameView) -> Action:
    """Every line is read or the mail is refused whole, before the engine checks the columns.
    The GM's [Update] is the officer's: it alone writes an asset directly."""
    gm = bool(view.gm) and (env.from_addr or "").lower() == view.gm.lower()
    if view.player is None and not gm:
        not_a_player(env, view)
    written = [env.subject.rest, *env.text.splitlines()]
    lines = []
    for line in (x.strip() for x in written):
        if not line:
            continue
        read = read_line(line)
        if read is None:
            raise Refused("update_unreadable", line=line)
        lines.append(read)
    action: OtherAction = {"type": "update", "player": view.name, "lines": lines}
    if gm:
        action["gm"] = True
    return action


_OFFER = re.compile(
    r"(?P<to>[^:\s][^:]*?)\s*:\s*my\s+(?P<give>\S.*?)\s+for\s+(?:your|their|his|her)\s+"
    r"(?P<take>\S.*?)\s*\.?",
    re.I,
)
_ACCEPT = re.compile(
    r"(?:accept(?:ed)?|yes|agreed?)\s+#?(?P<n>\d{1,6})|#?(?P<m>\d{1,6})\s+accept", re.I
)
_DECLINE = re.compile(r"(?:decline|withdraw|no)\s+#?(?P<n>\d{1,6})", re.I)
# The first word of a Reply to a trade's announcement: "yes", "Accept.", "No thanks."
_YES = frozenset({"yes", "accept", "accepted", "ok", "okay", "agreed", "deal"})
_NO = frozenset({"no", "decline", "declined", "withdraw", "withdrawn"})


class TradeTalk(Talk):
    """A Reply to a trade's announcement that neither accepts nor declines it: discussion."""


def answer_to_trade(env: Envelope, view: GameView, number: int) -> Action:
    """A Reply in trade NUMBER's thread: its first word accepts ("yes", "ok") or declines ("no")
    it, from the side that may; any other words are the players talking."""
    first = re.match(r"\s*([A-Za-z]+)", env.text)
    word = first.group(1).lower() if first else ""
    gs: Any = view.state.get("gamestate") or {}
    t = next((t for t in gs.get("trades") or [] if t.get("number") == number), None)
    if t is not None and word in _YES and view.name == t["to"]:
        return {"type": "trade", "player": view.name, "number": number}
    if t is not None and word in _NO and view.name in (t["to"], t["from"]):
        return {"type": "trade", "player": view.name, "number": number, "answer": "decline"}
    raise TradeTalk("trade_no_answer", number=number)


@handles("trade")
def trade(env: Envelope, view: GameView) -> Action:
    """`[Trade] Ben: my Fox for your Owl` offers a trade; `[Trade] Accept 3` accepts trade 3,
    `[Trade] Decline 3` declines (or withdraws) it, and so does a Reply of "yes" or "no"."""
    if env.subject.is_reply and env.subject.number is not None:
        return answer_to_trade(env, view, env.subject.number)
    said = env.subject.rest.strip() or next(
        (x.strip() for x in env.text.splitlines() if x.strip()), ""
    )
    if m := _ACCEPT.fullmatch(said):
        return {"type": "trade", "player": view.name, "number": int(m.group("n") or m.group("m"))}
    if m := _DECLINE.fullmatch(said):
        return {"type": "trade", "player": view.name, "number": int(m["n"]), "answer": "decline"}
    if m := _OFFER.fullmatch(said):
        return {
            "type": "trade",
            "player": view.name,
            "to": m.group("to").strip(),
            "give": m.group("give").strip(),
            "take": m.group("take").strip(),
        }
    raise Refused("trade_unreadable", line=said)


_TRANSFER = re.compile(
    r"(?:transfer\s+)?(?P<amount>-?\d{1,9})\s+(?P<column>[A-Za-z][\w-]*)\s+to\s+(?P<to>\S.*?)\.?"
)

_TRIED = re.compile(r"(?:transfer\s+)?-?\d", re.IGNORECASE)  # a body line that tries a transfer


@handles("transfer")
def transfer(env: Envelope, view: GameView) -> Action:
    """`[Transfer] 5 Thaum to Ben`, one transfer a line, each with an optional `because ...`."""
    lines = []
    named = env.subject.rest.strip()
    body = (x.strip() for x in env.text.splitlines())
    # Under a transfer in the subject, a body line that tries none is a note to its receiver.
    for line in [named, *(x for x in body if not named or _TRIED.match(x))]:
        if not line:
            continue
        said, because = (_BECAUSE.split(line, maxsplit=1) + [""])[:2]
        m = _TRANSFER.fullmatch(said.strip())
        if m is None:
            raise Refused("transfer_unreadable", line=line)
        lines.append(
            {
                "line": line,
                "amount": int(m.group("amount")),
                "column": m.group("column"),
                "to": m.group("to").strip(),
                "because": because.strip().rstrip("."),
            }
        )
    return {"type": "transfer", "player": view.name, "lines": lines}


@handles("column", players_only=False)
def column(env: Envelope, view: GameView) -> Action:
    """`[Column] Gold integer` from the GM, with body lines `Default: 10`, `Min: 0`, `Max: 20`,
    `Max length: 4`, `Choices: Happy, Sad`: a column no rule's sentence declares."""
    if not view.gm or (env.from_addr or "").lower() != view.gm.lower():
        raise Refused("only_gm_declares_columns")
    words = env.subject.rest.split()
    if len(words) != 2:
        raise Refused("column_unwritten")
    fields: dict[str, Any] = {"kind": words[1].lower()}
    for line in env.text.splitlines():
        key, _, value = line.partition(":")
        key = key.strip().lower().replace(" ", "_")
        if key in ("min", "max", "max_length") and re.fullmatch(r"-?\d{1,9}", value.strip()):
            fields["max_len" if key == "max_length" else key] = int(value)
        elif key == "default":
            fields["default"] = value.strip()
        elif key == "choices":
            fields["choices"] = [c.strip() for c in value.split(",") if c.strip()]
    return {"type": "column", "name": words[0], "fields": fields, "gm": True}
