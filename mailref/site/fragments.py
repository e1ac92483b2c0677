"""Parts of a page rendered once while what they show stays the same: a long game's rules page
holds hundreds of rules, and a change touches one or two of them, so each rule's section is
kept with a fingerprint of what it showed and rendered again only when that changed."""

from __future__ import annotations

import hashlib
from typing import Any

from jinja2 import Environment
from markupsafe import Markup

from mailref.site import kept


class Fragment(Markup):
    """A part of a page already rendered: shown as it is, its values isolated when it was."""

    __slots__ = ()


# game -> event's chain fingerprint -> it
_events_kept: dict[str, dict[str, Fragment]] = kept.per_game({})
# game -> rule id -> (shown, section)
_rules: dict[str, dict[str, tuple[str, Fragment]]] = kept.per_game({})


def rules(env: Environment, game: str, rows: list[dict[str, Any]]) -> None:
    """Give each row of the rules page its section as `html`, rendering only the rules whose
    content, history or place in the tree changed since GAME's last build in this process."""
    kept = _rules.get(game, {})
    now: dict[str, tuple[str, Fragment]] = {}
    macro = None
    for row in rows:
        shown = _shown(row)
        old = kept.get(row["id"])
        if old is None or old[0] != shown:
            if macro is None:
                macro = env.get_template("site/_rule.html").module.rule  # type: ignore[attr-defined]
            _events(env, game, row)
            old = (shown, Fragment(macro(row)))
        now[row["id"]] = old
        row["html"] = old[1]
    _rules[game] = now


def _shown(row: dict[str, Any]) -> str:
    """What ROW's section shows. A rule's history only grows or loses whole events (a ruling's
    undo), so an event is told by its time, mover, change and link (its diff, rule 21's after
    hundreds of amendments, would cost more to print than to render) and the last one whole."""
    history = row["history"]
    told = [(e["change"], e["at"], e["by"], e["link"], e["title"]) for e in history]
    rest = sorted((k, v) for k, v in row.items() if k not in ("children", "html", "history"))
    return hashlib.sha256(repr((rest, told, history[-1:])).encode()).hexdigest()


def _events(env: Environment, game: str, row: dict[str, Any]) -> None:
    """Give each change in ROW's history its item as `html`: an event is known by what it
    shows and every event before it (a change's diff follows from the changes before)."""
    kept = _events_kept.setdefault(game, {})
    chain = row["id"]
    macro = None
    for e in row["history"]:
        told = (e["change"], e["at"], e["by"], e["link"], e["title"], e["old_title"])
        chain = hashlib.sha256(repr((chain, told, len(e["diff"] or ()))).encode()).hexdigest()
        html = kept.get(chain)
        if html is None:
            if macro is None:
                macro = env.get_template("site/_rule.html").module.event  # type: ignore[attr-defined]
            html = kept[chain] = Fragment(macro(e))
        e["html"] = html
