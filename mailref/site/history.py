"""What only the journal knows, for the published site: each rule's history (which proposal,
proclamation or admin action enacted, amended, retitled or repealed it, when, with the
diff), every announcement made to all players, and every turn's results with its map.

It is found by replaying the journal with the engine, as `mailref replay` does. A process
keeps the last replayed state of a few games, so the rebuild after one more journal entry
replays only that entry."""

from __future__ import annotations

import copy
import difflib
import itertools
import logging
import re
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any, cast

from sqlalchemy import Text, func, select, type_coerce
from sqlalchemy.orm import Session

from mailref.engine.archive import merge, take_cold
from mailref.engine.context import Ctx, Outgoing
from mailref.engine.court import MARK, Court
from mailref.engine.schema import upgrade
from mailref.engine.state import Action, EireState, GameState, Matter
from mailref.engine.variants import get_variant
from mailref.render import render
from mailref.site import journal, kept
from mailref.store import ArchivedMatter, Game, JournalEntry
from mailref.store.decode import decode_json
from mailref.timeutil import iso

log = logging.getLogger("mailref.site")
VERBS = {
    "enact": "enacted",
    "amend": "amended",
    "replace": "amended",
    "retitle": "retitled",
    "repeal": "repealed",
}


@dataclass
class RuleEvent:
    rule: str
    change: str  # enacted | amended | retitled | repealed
    at: str
    by: str  # "proposal 3", 'proclamation "Roads"', "admin gm", "ascension"
    title: str  # the rule's title after the change (before, for a repeal)
    old_title: str = ""
    diff: list[tuple[str, str]] = field(default_factory=list)  # (add | del | same | gap, line)


@dataclass
class Announcement:
    key: str  # stable: journal seq and position
    at: str
    kind: str
    subject: str
    text: str


@dataclass
class TurnRecord:
    number: int
    at: str
    heading: str
    lines: list[str]
    svg: str | None
    holdings: dict[str, list[str]]  # owner -> lands, for the map's alt text
    seq: int = 0  # the journal entry that resolved it


_NUMBER = itemgetter("number")
_lineages: Iterator[int] = itertools.count()  # each replay from the start, numbered


@dataclass
class Chronicle:
    version: int
    state: GameState
    rules: dict[str, list[RuleEvent]] = field(default_factory=dict)
    announcements: list[Announcement] = field(default_factory=list)
    turns: list[TurnRecord] = field(default_factory=list)
    # (collection, number) -> the journal entries that opened it and changed its status
    entries: dict[tuple[str, int], list[int]] = field(default_factory=dict)
    complete: bool = True  # False: the journal could not be replayed; history from the state
    # Which replay this is: a chronicle stepped on in place keeps it, so that its events are
    # known by their place in each rule's list (they are only ever added to).
    lineage: int = field(default_factory=lambda: next(_lineages))


_CACHE: OrderedDict[tuple, Chronicle] = OrderedDict()
_CACHE_SIZE = 32
kept.on_forget(lambda game: [_CACHE.pop(k) for k in list(_CACHE) if kept.name(k) == game])


@dataclass
class Snapshot:
    """A game as read from the store: pages are made after its transaction has ended (on
    SQLite every transaction holds the write lock)."""

    key: tuple
    slug: str
    address: str
    version: int
    created: str
    state: GameState
    start: Chronicle  # the replay resumes from here
    entries: list[tuple[int, Any, Action, list[int] | None]]  # (seq, at, action, draws) after start
    journal: list[dict] = field(default_factory=list)  # every entry, as the journal page shows
    # The archived matters of STATE (by id): kept by this process as read, never changed.
    cold: frozenset[int] = frozenset()


def read(session: Session, game: Game, anew: bool = False) -> Snapshot:
    """GAME as its pages show it; ANEW: nothing kept of earlier builds is used (site/kept.py)."""
    key = (str(session.get_bind().engine.url), game.slug, iso(game.created_at))
    if anew or not journal.holds(session, game, key):  # another game under the same key
        journal.forget(key)
        kept.forget(key)
    rows_ = journal.rows(session, game, key)
    last = kept.read_up_to(key)
    if last is not None and (last > game.version or any(_undoes(r) for r in rows_[last:])):
        kept.forget(key)  # the journal was rewritten under what is kept: read it all anew
    kept.now_at(key, game.version)
    cached = _CACHE.get(key)
    if cached is None or cached.version > game.version or not cached.complete:
        start = Chronicle(0, cast(GameState, game.initial))
    elif any(_undoes(r) for r in rows_[cached.version :]):
        start = Chronicle(0, cast(GameState, game.initial))  # an undo replays it all anew
    else:
        start = cached
    rows = session.execute(
        select(JournalEntry.seq, JournalEntry.at, JournalEntry.action, JournalEntry.draws)
        .where(JournalEntry.game_id == game.id, JournalEntry.seq > start.version)
        .order_by(JournalEntry.seq)
    )
    # The full state: ended matters archived out of the hot state are published too.
    cold = _archived(session, game, key)
    full = merge(upgrade(cast(GameState, game.state)), cold)
    return Snapshot(
        key,
        game.slug,
        game.address,
        game.version,
        iso(game.created_at) or "",
        full,
        start,
        [tuple(r) for r in rows],
        rows_,
        frozenset(id(m) for _, m in cold),
    )


_cold: dict[str, tuple[int, list[tuple[str, Matter]]]] = kept.per_game({})


def _archived(session: Session, game: Game, key: tuple) -> list[tuple[str, Matter]]:
    """GAME's archived matters, in the order they left the hot state. They only accumulate (an
    undo rewrites them all, and drops what is kept): only those archived since the last build
    are read, the rest kept while the rows up to the last one read are still the same count."""
    last_id, cold = _cold.get(kept.name(key), (0, []))
    table = ArchivedMatter.__table__
    if cold and session.scalar(
        select(func.count()).where(table.c.game_id == game.id, table.c.id <= last_id)
    ) != len(cold):
        last_id, cold = 0, []
    data = (
        table.c.data
        if session.get_bind().dialect.name != "sqlite"
        else type_coerce(table.c.data, Text)
    )
    query = (
        select(table.c.id, table.c.collection, data)
        .where(table.c.game_id == game.id, table.c.id > last_id)
        .order_by(table.c.id)
    )
    for id_, collection, matter in session.execute(query):
        cold.append((collection, decode_json(matter) if isinstance(matter, str) else matter))
        last_id = id_
    _cold[kept.name(key)] = (last_id, cold)
    return cold


def _undoes(row: dict) -> bool:
    """Whether the journal entry ROW ordered undos (engine/court.py)."""
    return any(line.startswith(MARK) for line in row["what"])


def chronicle(snap: Snapshot) -> Chronicle:
    """The history of the game up to SNAP's version."""
    s = snap.start
    if _CACHE.get(snap.key) is s:
        # The cached replay steps on in place: copying its state cost more than the pages
        # (0.4 s of a 0.6 s rebuild at 10,000 turns). Out of the cache while it steps, so a
        # replay that fails half-way is never resumed from.
        del _CACHE[snap.key]
        ch = s
    else:  # from the game's initial state, which is the ORM row's own dict
        ch = Chronicle(
            s.version,
            upgrade(copy.deepcopy(s.state)),  # as `replay` takes it: in today's shape
            {k: list(v) for k, v in s.rules.items()},
            list(s.announcements),
            list(s.turns),
            {k: list(v) for k, v in s.entries.items()},
        )
    whole = snap.entries if ch.version == 0 else None  # from the start: undos can replay
    court = Court()
    try:
        for entry in snap.entries:
            _step(ch, *entry, whole=whole, court=court, initial=snap.start.state)
        if ch.state.get("rules") != snap.state.get("rules"):
            raise RuntimeError("the replayed ruleset differs from the live one")
    except Exception as e:  # a journal the engine no longer replays: publish what the state knows
        log.warning(
            "site: the journal of %s does not replay (%s); rule history from the state only",
            snap.slug,
            e,
        )
        _CACHE.pop(snap.key, None)
        return _from_state(snap)
    _CACHE[snap.key] = ch
    _CACHE.move_to_end(snap.key)
    while len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return ch


def _step(
    ch: Chronicle,
    seq: int,
    at_: Any,
    action: Action,
    draws: list[int] | None,
    whole: list[tuple[int, Any, Action, list[int] | None]] | None = None,
    court: Court | None = None,
    initial: GameState | None = None,
) -> None:
    state = ch.state
    variant = get_variant(state["variant"])
    rules_before = state["rules"]
    labels_at = len(state.get("rule_history", []))
    turns_at = len(cast(EireState, state).get("history", []))
    ctx = Ctx(at_, draws=draws)
    statuses = _statuses(state)
    variant.handle(state, action, ctx)
    if ctx.court:  # an undo replays the whole journal anew (engine/court.py)
        if whole is None or court is None or initial is None:
            raise RuntimeError(f"journal entry {seq} undoes earlier entries")
        cold: list[tuple[str, Matter]] = []
        upto = [(a, t, d) for _, t, a, d in whole[:seq]]
        state = merge(court.rule(variant, initial, upto, ctx.court, cold, state), cold)
        ch.state = state
    for key, status in _statuses(state).items():
        if statuses.get(key) != status:
            ch.entries.setdefault(key, []).append(seq)
    at = iso(at_)
    if state["rules"] is not rules_before:  # a change makes a new list (engine/rule_index.py)
        labels = {h["rule"]: h["by"] for h in state.get("rule_history", [])[labels_at:]}
        _rule_events(ch, rules_before, state["rules"], labels, _who(action), at)
    for i, out in enumerate(ctx.out):
        if out.to == "all":
            ch.announcements.append(
                Announcement(f"{seq}.{i}", at, out.kind, out.subject, _text_of(out))
            )
    orders = cast(EireState, state)  # the keys of an orders game, Eire's map among them
    history = orders.get("history", [])
    if len(history) > turns_at:
        results = next((o for o in ctx.out if o.kind == "results"), None)
        svg = _svg_of(results) if results else None
        holdings: dict[str, list[str]] = {}
        for land in orders.get("lands", []):
            if land.get("owner"):
                holdings.setdefault(land["owner"], []).append(land["name"])
        ch.turns.append(
            TurnRecord(
                history[-1].get("turn", len(history)),
                at,
                str(results.vars.get("heading", "")) if results else "",
                [str(x) for x in results.vars.get("lines", [])] if results else [],
                svg,
                holdings,
                seq,
            )
        )
    # Ended matters leave the replayed state as they left the live one (engine/replay.py):
    # a step then walks what the live game walked, not every matter ever made.
    take_cold(state, variant.archived_collections, variant.still_open(), at_)
    ch.version = seq


def _rule_events(
    ch: Chronicle, was: list, now: list, labels: dict[str, str], fallback: str, at: str
) -> None:
    """Each rule's history: what one journal entry enacted, retitled, amended or repealed,
    from the ruleset before it (WAS) and after it (NOW)."""
    before = dict(zip(map(_NUMBER, was), was, strict=True))
    after = dict(zip(map(_NUMBER, now), now, strict=True))
    for number, rule in after.items():
        old = before.get(number)
        if old is rule:  # a rule a change writes to is copied: this one is as it was
            continue
        by = labels.get(number, fallback)
        if old is None:
            ch.rules.setdefault(number, []).append(
                RuleEvent(
                    number,
                    "enacted",
                    at,
                    by,
                    rule["title"],
                    diff=[("add", ln) for ln in rule["text"].splitlines()],
                )
            )
            continue
        if old["title"] != rule["title"]:
            ch.rules.setdefault(number, []).append(
                RuleEvent(number, "retitled", at, by, rule["title"], old["title"])
            )
        if old["text"] != rule["text"]:
            ch.rules.setdefault(number, []).append(
                RuleEvent(
                    number,
                    "amended",
                    at,
                    by,
                    rule["title"],
                    diff=text_diff(old["text"], rule["text"]),
                )
            )
    if not before.keys() - after.keys():
        return
    for number, old in before.items():  # the repealed, in the order they stood
        if number in after:
            continue
        ch.rules.setdefault(number, []).append(
            RuleEvent(
                number,
                "repealed",
                at,
                labels.get(number, fallback),
                old["title"],
                diff=[("del", ln) for ln in old["text"].splitlines()],
            )
        )


def _statuses(state: GameState) -> dict[tuple[str, int], str]:
    """Each matter of the hot state by (collection, number), and its status."""
    return {
        (c, m["number"]): str(m.get("status"))
        for c, matters in (
            ("proposals", state.get("proposals")),
            ("judgements", state.get("judgements")),
        )
        for m in matters or ()
    }


def _svg_of(out: Outgoing) -> str | None:
    """The map a results mail carries: a picture (content id, stem, SVG), or an SVG attachment."""
    for image in getattr(out, "images", None) or []:
        return image[-1]
    return next((d.decode() for _n, mime, d in out.attachments if mime == "image/svg+xml"), None)


def text_diff(old: str, new: str) -> list[tuple[str, str]]:
    """A line diff with one line of context, as the ruleset mail shows it."""
    out: list[tuple[str, str]] = []
    for line in list(difflib.unified_diff(old.splitlines(), new.splitlines(), lineterm="", n=1))[
        2:
    ]:
        if line.startswith("@@"):
            out.append(("gap", "…"))
        elif line.startswith("+"):
            out.append(("add", line[1:]))
        elif line.startswith("-"):
            out.append(("del", line[1:]))
        else:
            out.append(("same", line[1:]))
    if out and out[0][0] == "gap":
        out.pop(0)
    return out


def _who(action: Action) -> str:
    """Who changed a rule, when the variant kept no label for it."""
    kind = action.get("type", "")
    if kind == "rule":
        return action.get("by_label") or f"admin {action.get('by')}"
    if kind == "ascension":
        return f"the Ascension Address of {action.get('player')}"
    if action.get("by"):
        return f"admin {action['by']}"
    if action.get("player"):
        return f"{kind} by {action['player']}"
    return kind or "?"


def _text_of(out: Outgoing) -> str:
    """What the players read, without the mail footer; a ruleset mail as its diff only."""
    v = out.vars
    if out.kind == "ruleset":
        return "\n".join([str(v.get("why", ""))] + [str(x) for x in v.get("diff", [])])
    try:
        text = render(out.template, **v)
    except Exception:  # a template that wants what only the door adds: the lines will do
        text = "\n".join([str(v.get("heading", ""))] + [str(x) for x in v.get("lines", [])])
    return re.split(r"\n-- ?\n", text, maxsplit=1)[0].strip()


def _from_state(snap: Snapshot) -> Chronicle:
    ch = Chronicle(snap.version, snap.state, complete=False)
    for h in snap.state.get("rule_history", []):
        rule = next((r for r in snap.state["rules"] if r["number"] == h["rule"]), None)
        ch.rules.setdefault(h["rule"], []).append(
            RuleEvent(
                h["rule"],
                VERBS.get(h["change"], h["change"]),
                h["at"],
                h["by"],
                rule["title"] if rule else "",
            )
        )
    return ch
