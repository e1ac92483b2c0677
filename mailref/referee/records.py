"""A player's record across the host's games, for [Stats]: the figures of the holder's address
in every other game, summed here and journaled with the mail, so that replay needs no other
game."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from mailref.engine.variants.record import FIGURES, figures
from mailref.engine.variants.substitutes import tenures
from mailref.store import Game


def elsewhere(s: Session, slug: str, state: Any, action: Any, now: datetime) -> dict[str, int]:
    """The figures, summed over the host's games but SLUG, of the address that holds or held
    the seat ACTION's [Stats] names (the sender's own without a name)."""
    want = str(action.get("name") or action.get("player") or "").strip().lower()
    address = next(
        (
            str(t.get("address") or "")
            for p in state["players"]
            for t in tenures(p)
            if want in (str(t["holder"]).lower(), p["name"].lower())
        ),
        "",
    )
    summed = dict.fromkeys(FIGURES, 0)
    if not address:
        return summed
    for other in s.scalars(select(Game.state).where(Game.slug != slug)):
        for key, value in figures(other, address, now).items():
            summed[key] += value
    return summed
