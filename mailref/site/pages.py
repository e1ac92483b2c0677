"""A game's state and chronicle -> the files of its pages, from templates/site/ with
autoescaping on: whatever a player wrote (a name, a title, a rule's text) shows literally."""

from __future__ import annotations

import os
import re
from collections import Counter
from datetime import datetime
from functools import lru_cache
from typing import Any, cast
from urllib.parse import quote
from xml.sax.saxutils import escape
from zoneinfo import ZoneInfo

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from mailref import resource
from mailref.engine.matters import label as label_of
from mailref.engine.state import EireState, GameState, Matter, OrdersState, Rule
from mailref.engine.variants import get_variant
from mailref.site import journal
from mailref.site.history import Chronicle
from mailref.timeutil import iso, parse_iso
from mailref.write.nouns import reworded

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
    if not isinstance(value, str) or not _BIDI.search(value):
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


def when(text: str | None, zone: str = "UTC") -> dict[str, str] | None:
    """A time for people, in the game's zone with UTC beside it, and ISO for <time>."""
    t = parse_iso(text) if text else None
    if t is None:
        return None
    fmt = "%a %-d %b %Y %H:%M"
    local = t.astimezone(ZoneInfo(zone))
    shown = (
        t.strftime(fmt) + " UTC"
        if zone == "UTC"
        else f"{local.strftime(fmt)} {local.tzname()} ({t.strftime('%H:%M')} UTC)"
    )
    return {"iso": iso(t), "text": shown}


def anchor(label: str) -> str:
    """`proposal 3` -> `proposal-3`: the id of that matter on proposals.html."""
    return re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-")


# A game of thousands of matters (BlogNomic runs for years): proposals.html holds the newest
# MATTERS_PER_PAGE to twice that, older ones go in pages of MATTERS_PER_PAGE counted from the
# first matter (proposals-1.html: the oldest), which keep their content once full, so that a
# link to one stays right and each is rendered once per process (10,000 matters made one page
# of 9 MB, rendered again after every mail).
MATTERS_PER_PAGE = 200


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


def matter_link(by: str) -> str | None:
    m = re.fullmatch(r"(proposal|cfj|dov|judgement|point of order) (\d+)", by.strip(), re.I)
    return f"proposals.html#{anchor(by)}" if m else None


def matters(state: GameState) -> list[dict[str, Any]]:
    """Proposals and judgements alike: number, label, title, author, status, votes …"""
    zone = state.get("timezone", "UTC")
    out = []
    for p in state.get("proposals", []):
        label = label_of(p.get("kind") or "proposal")
        out.append(_matter(p, label, p.get("title", ""), p.get("author"), p.get("text", ""), zone))
        out[-1]["collection"] = "proposals"
    for j in state.get("judgements", []):
        label = label_of(j.get("kind") or "", "Judgement")
        out.append(
            _matter(
                j,
                label,
                j.get("question", ""),
                j.get("by"),
                j.get("detail") or j.get("text") or "",
                zone,
            )
        )
        out[-1]["collection"] = "judgements"
    return sorted(out, key=lambda m: (m["opened_iso"] or "", m["number"]), reverse=True)


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


def rule_tree(rules: list[Rule], chron: Chronicle, zone: str, marks: Any = None) -> list[dict]:
    """Rules in order, each sub-rule (21.3.1) under its parent (21.3) where that exists; MARKS
    (a rule -> its text in pieces) marks the sentences the referee runs by a parameter."""
    roots: list[dict] = []
    stack: list[dict] = []
    for r in rules:
        title = r["title"]
        inactive = bool(r.get("inactive")) or bool(re.search(r"\[inactive\]\s*$", title, re.I))
        node = {
            "number": r["number"],
            "title": title,
            "text": r["text"],
            "inactive": inactive,
            "kind": r.get("type"),
            "id": "rule-" + r["number"].replace(".", "-"),
            "pieces": marks(r) if marks else [{"text": r["text"], "mark": ""}],
            "history": _events(chron.rules.get(r["number"], []), zone),
            "children": [],
        }
        while stack and not r["number"].startswith(stack[-1]["number"] + "."):
            stack.pop()
        (stack[-1]["children"] if stack else roots).append(node)
        stack.append(node)
    return roots


def rule_rows(roots: list[dict]) -> list[dict]:
    """The rule tree in reading order, flat, for a template without recursion (a chain of a
    few hundred sub-rules passed Python's recursion limit in a recursive macro): each node
    with its `depth` and how many sections `close` after it."""
    rows = list(_walk(roots))
    for i, row in enumerate(rows):
        below = rows[i + 1]["depth"] if i + 1 < len(rows) else 0
        row["close"] = row["depth"] + 1 - below
    return rows


def _events(events: list, zone: str) -> list[dict]:
    return [
        {
            "change": e.change,
            "at": when(e.at, zone),
            "by": e.by,
            "link": matter_link(e.by),
            "title": e.title,
            "old_title": e.old_title,
            "diff": e.diff,
        }
        for e in events
    ]


def repealed(state: GameState, chron: Chronicle, zone: str) -> list[dict]:
    """Rules no longer in the ruleset whose last change was a repeal, with their history."""
    current = {r["number"] for r in state["rules"]}
    out = []
    for number, events in chron.rules.items():
        if number not in current and events and events[-1].change == "repealed":
            out.append(
                {
                    "number": number,
                    "title": events[-1].title,
                    "id": "repealed-" + number.replace(".", "-"),
                    "history": _events(events, zone),
                }
            )
    return sorted(out, key=lambda r: [int(x) for x in re.findall(r"\d+", r["number"])])


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
    state: GameState, chron: Chronicle, now: datetime, base_url: str, has_png: bool
) -> dict[str, Any]:
    variant = get_variant(state["variant"])
    zone = state.get("timezone", "UTC")
    open_statuses = set(variant.open_statuses) | {"open", "awaiting-judgement"}
    all_matters = matters(state)
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
    turn = state.get("turn")
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
        "rules": rule_tree(
            variant.rules_for_display(state),
            chron,
            zone,
            lambda r: variant.enactment.marked_text(state, r),
        ),
        "rule_rows": [],
        # An orders game has no rule list: what governs it, and its parameters (as its [Rules]
        # mail).
        "rules_told": variant.rules_told(state),
        "parameter_lines": variant.parameter_lines(state),
        "repealed": repealed(state, chron, zone),
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
    ctx["rule_rows"] = rule_rows(ctx["rules"])
    ctx["matters"], ctx["older_pages"], ctx["page_of"] = paged(all_matters)
    ctx["this_page"] = ""  # proposals.html; an older page's name when one is rendered
    if ctx["page_of"]:  # a rule's history links to the page that shows its proposal now
        for node in _walk(ctx["rules"] + ctx["repealed"]):
            for e in node["history"]:
                if e["link"]:
                    e["link"] = (
                        ctx["page_of"].get(e["link"].split("#", 1)[1], "proposals.html")
                        + "#"
                        + e["link"].split("#", 1)[1]
                    )
    return ctx


def _walk(nodes: list[dict]):
    """Every node of the tree NODES in reading order, setting its `depth`; without recursion."""
    stack = [(n, 0) for n in reversed(nodes)]
    while stack:
        n, depth = stack.pop()
        n["depth"] = depth
        yield n
        stack.extend((c, depth + 1) for c in reversed(n.get("children", [])))


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


# What XML 1.0 does not allow, and HTML takes for a parse error: C0 controls but tab, line feed
# and carriage return, C1 controls and DEL, surrogates, noncharacters. A title or rule text a
# player pasted with a bell, an escape sequence or a form feed made the feed not well-formed
# (a reader drops the whole feed) and the pages invalid HTML.
_NOT_TEXT = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff]")


def as_text(page: str) -> str:
    """PAGE with every character a page or feed may not hold shown as U+FFFD (a form feed, a
    page break in plain text, as a space)."""
    return _NOT_TEXT.sub("\ufffd", page.replace("\x0c", " "))


def render_page(template: str, **ctx: Any) -> str:
    """The page, in the game's own noun for a player where its ruleset gives one."""
    page = environment().get_template(f"site/{template}").render(**ctx)
    game = ctx.get("game")
    return as_text(reworded(page, game, html=True) if isinstance(game, dict) else page)
