"""The game's gamestate page: the table of every player's values, what each column holds, and
each alteration with who made it, when, why and from which mail, newest first."""

from __future__ import annotations

from typing import Any

from mailref.engine.mechanics.columns import shown
from mailref.engine.state import GameState
from mailref.site.times import when


def _says(c: dict[str, Any]) -> str:
    """What a column holds, in words: "a whole number, at least 0, from rule 2.15"."""
    kind = c["kind"]
    if kind == "asset":
        says = "an asset, at least 0, moved by [Transfer]"
    elif kind == "integer":
        bounds = [f"at least {c['min']}" if c.get("min") is not None else ""]
        bounds.append(f"at most {c['max']}" if c.get("max") is not None else "")
        says = ", ".join(["a whole number", *filter(None, bounds)])
    elif kind == "list":
        says = "a list" + (f" of at most {c['max_len']}" if c.get("max_len") else "")
    elif kind == "choice":
        says = "one of " + ", ".join(c.get("choices") or [])
    elif kind == "player":
        says = "a player's name"
    else:
        says = "text"
    says += f", starting at {shown(c['default'])}"
    return says + (f" (rule {c['rule']})" if c.get("rule") else " (declared by the GM)")


def page_context(state: GameState) -> dict[str, Any] | None:
    """What gamestate.html shows, or None for a game that keeps no gamestate."""
    gs = state.get("gamestate")
    if not gs:
        return None
    zone = state.get("timezone", "UTC")
    cols = gs["columns"]
    names = [p["name"] for p in state["players"] if p["status"] != "left"]
    return {
        "columns": [{"name": c["name"], "says": _says(c)} for c in cols],
        "rows": [
            {"name": n, "values": [shown(gs["values"].get(n, {}).get(c["slug"])) for c in cols]}
            for n in names
        ],
        "history": [
            {
                **a,
                "at": when(a["at"], zone),  # type: ignore[dict-item]
                "old": shown(a["old"]),
                "new": shown(a["new"]),
                "source": a["source"].replace("mail:", "mail ") or "the referee",
            }
            for a in reversed(gs.get("log") or [])
        ],
    }
