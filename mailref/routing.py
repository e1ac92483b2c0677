"""Mail that belongs to no game, or to no command: the referee's own answers (SPEC §2.3,
§2.5) — the list of the games it runs, and "did you mean [Proposal]?" for a misspelt tag."""

from __future__ import annotations

import difflib

from sqlalchemy import select
from sqlalchemy.orm import Session

from mailref import engine
from mailref.read.subject import TAGS
from mailref.store import Game


def games_list(session: Session) -> list[dict]:
    """Every game on this host, as the referee's [Help] lists it."""
    out = []
    for g in session.scalars(select(Game).order_by(Game.slug)):
        variant = engine.get_variant(g.variant)
        join = next((what for usage, what in variant.commands if usage.startswith("[Join]")), "")
        out.append({"name": g.state.get("name", g.slug), "slug": g.slug, "variant": g.variant,
                    "title": variant.title, "address": g.address, "status": g.state.get("status", ""),
                    "players": sum(1 for p in g.state.get("players", []) if p.get("status") != "left"),
                    "join": join})
    return out


def did_you_mean(word: str) -> tuple[str, str]:
    """(reason, hint) for a subject whose leading [WORD] is no command."""
    names = sorted({k for k in TAGS} | {t.replace("-", " ") for t in TAGS.values()})
    close = difflib.get_close_matches(word.strip().lower(), names, n=1, cutoff=0.7)
    if close:
        tag = close[0].title().replace("Cfj", "CfJ").replace("Dov", "DoV")
        return (f"[{word}] is not a command: did you mean [{tag}]?",
                f"Write the subject as [{tag}] … and send it again. Send [Help] for all the commands.")
    return (f"[{word}] is not a command of this game",
            "Start the subject with a command tag such as [Status] or [Vote]; send [Help] for all of them.")
