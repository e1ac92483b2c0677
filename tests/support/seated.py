"""A new game's state with players seated in it, for engine tests that drive the rules without
mail or a store."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from mailref.engine.variants import get_variant


def seated(variant: str, slug: str, names: tuple[str, ...], now: datetime) -> tuple[Any, Any]:
    """The VARIANT and a state of a game SLUG begun at NOW whose active players are NAMES."""
    v = get_variant(variant)
    state = v.initial_state(slug, slug.upper(), f"{slug}@example.org", None, "UTC", {}, now)
    for n in names:
        state["players"].append(
            {
                "name": n,
                "addresses": [f"{n.lower()}@example.org"],
                "status": "active",
                "score": 0,
                "offices": [],
                "joined": "2026-03-01T00:00:00Z",
            }
        )
    return v, state
