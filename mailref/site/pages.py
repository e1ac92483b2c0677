"""A game's state and chronicle -> the files of its pages, from templates/site/ with
autoescaping on: whatever a player wrote (a name, a title, a rule's text) shows literally."""

from __future__ import annotations

import os
import re
import secrets
from collections import Counter
from collections.abc import Collection
from datetime import datetime
from functools import lru_cache
from typing import Any, cast
from urllib.parse import quote
from xml.sax.saxutils import escape

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from mailref import resource
from mailref.engine.matters import label as label_of
from mailref.engine.state import EireState, GameState, Matter, OrdersState
from mailref.engine.variants import get_variant
from mailref.site import journal, rules_page
from mailref.site.clean import as_text
from mailref.site.fragments import Fragment
from mailref.site.history import Chronicle
from mailref.site.rules_page import anchor
from mailref.site.times import when
from mailref.store import fastjson
from mailref.timeutil import iso
from mailref.write.nouns import noun_of, reworded

FEED_ENTRIES = 50


@lru_cache(maxsize=4)
def environment(override: str | None = None) -> Environment:
    paths = [
        p
        for p in (override or os.environ.get("MAILREF_TEMPLATES"), str(resource("templates")))
        if p
    ]
    env = Environment(
        loader=FileSystemLoader(paths),
        undefined=StrictUndefined,
        autoescape=select_autoescape(["html", "atom", "xml"], default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=isolated,
    )
    env.filters["mailto"] = mailto
    return env


_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")
_BIDI_SPLIT = re.compile("([\u202a-\u202e\u2066-\u2069])")
_OPENS = {
    "\u202a": "\u202c",
    "\u202b": "\u202c",
    "\u202d": "\u202c",
    "\u202e": "\u202c",  # embeddings, overrides
    "\u2066": "\u2069",
    "\u2067": "\u2069",
    "\u2068": "\u2069",
}  # isolates


def isolated(value: Any) -> Any:
    """A value a page shows, its bidi controls kept to itself: a title starting with U+202E
    (RIGHT-TO-LEFT OVERRIDE) reversed the rest of its heading ("… B rule", "by Alice"). What it
    opens is closed at its end, a closer that closes nothing of its own is dropped, and the
    whole is isolated (FSI … PDI, what <bdi> does), in text and in attribute values alike."""
    if not isinstance(value, str) or not _BIDI.search(value) or isinstance(value, Fragment):
        return value
    kept, open_ = [], []
    for piece in _BIDI_SPLIT.split(value):
        if piece in _OPENS:
            open_.append(_OPENS[piece])
        elif piece == "\u202c":  # PDF: closes the innermost embedding, never an isolate
            if not open_ or open_[-1] != "\u202c":
                continue
            open_.pop()
        elif piece == "\u2069":  # PDI: closes its isolate and what was opened inside it
            if "\u2069" not in open_:
                continue
            del open_[len(open_) - 1 - open_[::-1].index("\u2069") :]
        kept.append(piece)
    out = "\u2068" + "".join(kept) + "".join(reversed(open_)) + "\u2069"
    return (
        Markup(out) if isinstance(value, Markup) else out
    )  # markup stays markup, text is escaped after


def mailto(address: str, subject: str, body: str = "") -> str:
    url = f"mailto:{address}?subject={quote(subject)}"
    return url + (f"&body={quote(body)}" if body else "")


# A game of thousands of matters: proposals.html holds the newest MATTERS_PER_PAGE to twice
# that, older ones pages of MATTERS_PER_PAGE from the first (proposals-1.html), which keep their
# content once full: a link to one stays right, and a rebuild costs the same at any length.
MATTERS_PER_PAGE = 50


def paged(all_matters: list[dict]) -> tuple[list[dict], list[dict], dict[str, str]]:
    """ALL_MATTERS (newest first) as (the newest, for proposals.html; the older pages, oldest
    first, each {"name", "first", "last", "matters"}; a matter's id -> the page showing it)."""
    per = MATTERS_PER_PAGE
    full = max(0, (len(all_matters) - per) // per)
    oldest_first = all_matters[::-1]
    older: list[dict[str, Any]] = []
    where: dict[str, str] = {}
    for k in range(full):
        chunk = oldest_first[k * per : (k + 1) * per]
        name = f"proposals-{k + 1}.html"
        older.append({"name": name, "first": chunk[0], "last": chunk[-1], "matters": chunk[::-1]})
        where.update((m["id"], name) for m in chunk)
    return oldest_first[full * per :][::-1], older, where


def matters(
    state: GameState, kept: dict[Any, Any] | None = None, cold: Collection[int] = ()
) -> list[dict[str, Any]]:
    """Proposals and judgements alike: number, label, title, author, status, votes … KEPT holds
    the rows of the last build by the matter they were made of: a matter the state holds as it
    was then (most of a long game's: ended) keeps its row, and so the article made of it. COLD:
    the matters (by id) that never change, archived ones as the pages read them: the same one
    keeps its row without being compared."""
    zone = state.get("timezone", "UTC")
    was, made = kept or {}, {}
    out = []
    for collection, m in [
        *(("proposals", p) for p in state.get("proposals", [])),
        *(("judgements", j) for j in state.get("judgements", [])),
    ]:
        key = (collection, m["number"])
        row = was.get(key)
        if row is None or row[1] != zone or not (row[3] is m and id(m) in cold or row[0] == m):
            # Kept as it is now: the state the pages are made of may be the referee's own,
            # which its next change changes in place (site.rebuild's HELD).
            row = (fastjson.copy(m), zone, _row(collection, m, zone), m)
        made[key] = row
        out.append(row[2])
    if kept is not None:
        kept.clear()
        kept.update(made)
    return sorted(out, key=lambda m: (m["opened_iso"] or "", m["number"]), reverse=True)


def _row(collection: str, m: Matter, zone: str) -> dict[str, Any]:
    if collection == "proposals":
        label = label_of(m.get("kind") or "proposal")
        row = _matter(m, label, m.get("title", ""), m.get("author"), m.get("text", ""), zone)
    else:
        j = cast("dict[str, Any]", m)
        label = label_of(j.get("kind") or "", "Judgement")
        row = _matter(
            m,
            label,
            j.get("question", ""),
            j.get("by"),
            j.get("detail") or j.get("text") or "",
            zone,
        )
    row["collection"] = collection
    return row


# A tally reads as the result mail wrote it (PostgreSQL's JSONB keeps no key order).
_TALLY = ("FOR", "YES", "AGAINST", "NO", "ABSTAIN", "DEFERENTIAL", "VETO", "quorum", "senators")


def _tally_order(item: tuple[str, Any]) -> tuple[int, str]:
    return (_TALLY.index(item[0]) if item[0] in _TALLY else len(_TALLY), item[0])


def _matter(
    m: Matter, label: str, title: str, author: str | None, text: str, zone: str
) -> dict[str, Any]:
    votes = m.get("votes") or {}
    counts: dict[str, int] = {}
    for v in votes.values():
        counts[v] = counts.get(v, 0) + 1
    opened = m.get("opened") or cast("dict[str, Any]", m).get("at")  # as older records said
    return {
        "number": m["number"],
        "label": label,
        "id": anchor(f"{label} {m['number']}"),
        "title": title,
        "author": author,
        "status": m.get("status", ""),
        "reason": m.get("reason"),
        "text": text or "",
        "votes": sorted(votes.items()),
        "judge": m.get("judge"),
        # A decided matter shows the tally it was decided by, as its result mail did (a BlogNomic
        # DEFERENTIAL counted as the Historian's FOR); an open one, the votes cast so far.
        "counts": sorted(m["tally"].items(), key=_tally_order)
        if isinstance(m.get("tally"), dict)
        else sorted(counts.items()),
        "decided": isinstance(m.get("tally"), dict),
        "ruling": m.get("ruling"),
        "opened": when(opened, zone),
        "opened_iso": opened,
        "deadline": when(m.get("deadline"), zone),
        "closed": when(m.get("closed"), zone),
        "tally": m.get("tally"),
        "voted": "votes" in m,
    }


def players(state: GameState) -> list[dict]:
    grain = cast(EireState, state).get("grain") or {}
    zone = state.get("timezone") or "UTC"
    rows = []
    for p in state.get("players", []):
        if p.get("status") == "left":
            continue
        # Grain first: on a phone the table scrolls sideways, and the number a player looks for
        # should not be the one past the screen's edge.
        extra: dict[str, Any] = {"grain": grain[p["name"]]} if p["name"] in grain else {}
        fields = cast("dict[str, Any]", p)
        extra.update({k: fields[k] for k in ("color", "tribe", "origin") if fields.get(k)})
        rows.append(
            {
                "name": p["name"],
                "status": p.get("status", ""),
                "score": p.get("score", 0),
                "offices": list(p.get("offices", [])),
                "extra": extra,
                "open": bool(p.get("vacant")),
                # each holder of a seat taken over, with the time they held it
                "tenures": [
                    {
                        "holder": t["holder"],
                        "from": when(t["from"], zone),
                        "to": when(t["to"], zone),
                    }
                    for t in p.get("tenures") or []
                ],
            }
        )
    return rows


def champions(ended: list[dict]) -> list[tuple[str, int]]:
    """Who won the host's ended games, and how many, most first (a shared win counts)."""
    won = Counter(w for g in ended for w in g.get("winners") or [])
    return sorted(won.items(), key=lambda x: (-x[1], x[0]))


def holdings_alt(
    state: GameState, holdings: dict[str, list[str]] | None = None, title: str = "Map of the island"
) -> str:
    """The map in words: who holds which land (the alt text of every map)."""
    if holdings is None:
        holdings = {}
        for land in cast(EireState, state).get("lands", []):
            if land.get("owner"):
                holdings.setdefault(land["owner"], []).append(land["name"])
    held = "; ".join(f"{who}: {', '.join(lands)}" for who, lands in sorted(holdings.items()))
    return f"{title}. " + (
        held + "; every other land is independent." if held else "Every land is independent."
    )


def game_context(
    state: GameState,
    chron: Chronicle,
    now: datetime,
    base_url: str,
    has_png: bool,
    kept_rows: dict[Any, Any] | None = None,
    cold: Collection[int] = (),
) -> dict[str, Any]:
    variant = get_variant(state["variant"])
    zone = state.get("timezone", "UTC")
    open_statuses = set(variant.open_statuses) | {"open", "awaiting-judgement"}
    all_matters = matters(state, kept_rows, cold)
    raw: dict[tuple[str, int], Any] = {
        **{("proposals", x["number"]): x for x in state.get("proposals", [])},
        **{("judgements", x["number"]): x for x in state.get("judgements", [])},
    }
    for m in all_matters:  # where an open one stands (BlogNomic: Popular, enacted when)
        m["outlook"] = (
            variant.outlook(state, raw[(m["collection"], m["number"])], now)
            if m["status"] in open_statuses
            else ""
        )
    turn, stating = state.get("turn"), variant.enactment.rules_stating(state)

    def marks(r: Any) -> Any:  # only the rules that state a parameter have marks
        return str(r["number"]) in stating and variant.enactment.marked_text(state, r)

    ctx: dict[str, Any] = {
        "game": state,
        "variant_title": variant.title,
        "root": "../",
        "nomic": variant.nomic,
        "orders_game": "history" in state and not variant.nomic,
        "zone": zone,
        "generated": when(iso(now), zone),
        "players": players(state),
        "watchers": len(state.get("watchers") or []),
        "turn": (
            {
                "number": turn.get("number"),
                "player": turn.get("player"),
                "deadline": when(turn.get("deadline"), zone),
            }
            if turn
            else None
        ),
        "pending": [m for m in all_matters if m["status"] in open_statuses],
        "matters": all_matters,
        "voting_statuses": sorted(open_statuses - {"open", "awaiting-judgement"}),
        "vote_words": variant.ballot_words(state) or ["FOR", "AGAINST"],
        "rules": rules_page.rule_tree(variant.rules_for_display(state), chron, marks),
        "rule_rows": [],
        # An orders game has no rule list: what governs it, and its parameters (as its [Rules]
        # mail).
        "rules_told": variant.rules_told(state),
        "parameter_lines": variant.parameter_lines(state),
        "repealed": [],
        "history_complete": chron.complete,
        "feed_url": (base_url.rstrip("/") + f"/{state['slug']}/feed.atom")
        if base_url
        else "feed.atom",
        "page_url": (base_url.rstrip("/") + f"/{state['slug']}/") if base_url else "",
        "has_png": has_png,
        "turns": [],
        "lands": [],
        "map_svg": None,
        "map_alt": "",
        "ordered": len(cast(OrdersState, state).get("orders") or {}),
        # BlogNomic decides by quorum (FOR >= quorum enacts): the page said nothing of it.
        "quorum": variant.quorum(state),
    }
    eire = cast(EireState, state)
    if eire.get("lands"):
        from mailref.engine.variants.eire_svg import map_svg

        colors = {p["name"]: p.get("color", "") for p in state.get("players", [])}
        ctx["map_svg"] = Markup(map_svg(eire, colors))
        ctx["map_alt"] = holdings_alt(state, title=f"Map of {state['name']} now")
        ctx["lands"] = sorted(
            eire.get("lands", []), key=lambda x: ((x.get("owner") or "~"), x["name"])
        )
    for t in chron.turns:
        ctx["turns"].append(
            {
                "number": t.number,
                "at": when(t.at, zone),
                "heading": t.heading,
                "lines": t.lines,
                "map": f"turn-{t.number}.svg" if t.svg else None,
                "entry": t.seq,
                "alt": holdings_alt(state, t.holdings, f"Map after turn {t.number}")
                if t.svg
                else "",
            }
        )
    ctx["turns"].reverse()
    journal.link_matters(all_matters, chron.entries)
    ctx["rule_rows"] = rules_page.rule_rows(ctx["rules"])
    ctx["matters"], ctx["older_pages"], ctx["page_of"] = paged(all_matters)
    ctx["this_page"] = ""  # proposals.html; an older page's name when one is rendered
    # a rule's history links to the page that shows its proposal now
    ctx["repealed"] = rules_page.repealed(state, chron, zone, ctx["page_of"])
    return ctx


def feed(state: GameState, chron: Chronicle, now: datetime, base_url: str, created: str) -> str:
    """The Atom feed: one entry per announcement to all players, newest first."""
    domain_id = f"tag:{state['address']},{created[:10]}:{state['slug']}"
    entries = [
        {
            "id": f"{domain_id}/announcement/{a.key}",
            "title": a.subject,
            "updated": a.at,
            "kind": a.kind,
            "text": a.text,
        }
        for a in reversed(chron.announcements[-FEED_ENTRIES:])
    ]
    base = (base_url.rstrip("/") + f"/{state['slug']}/") if base_url else ""
    feed = (
        environment()
        .get_template("site/feed.atom")
        .render(
            game=state,
            feed_id=domain_id,
            entries=entries,
            updated=entries[0]["updated"] if entries else iso(now),
            base=base,
            xml_escape=escape,
        )
    )
    return as_text(reworded(feed, cast("dict[str, Any]", state), html=True))


def render_page(template: str, **ctx: Any) -> str:
    """The page, in the game's own noun for a player where its ruleset gives one."""
    page = environment().get_template(f"site/{template}").render(**ctx)
    game = ctx.get("game")
    return as_text(reworded(page, game, html=True) if isinstance(game, dict) else page)


def render_with(template: str, parts: dict[str, str], **ctx: Any) -> str:
    """The page, with PARTS (a name in the template -> a part already rendered and made as_text)
    put in after the rest is made: a rules page of a thousand rules is a megabyte, most of it
    its kept sections. A game with its own noun for a player is reworded as a whole."""
    game = ctx.get("game")
    if isinstance(game, dict) and noun_of(game):
        return render_page(template, **ctx, **{k: Markup(v) for k, v in parts.items()})
    marks = {name: f"\ue000{secrets.token_hex(8)}\ue000" for name in parts}
    page = as_text(
        environment()
        .get_template(f"site/{template}")
        .render(**ctx, **{k: Markup(v) for k, v in marks.items()})
    )
    for name, mark in marks.items():
        page = page.replace(mark, parts[name], 1)
    return page
