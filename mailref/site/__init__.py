"""The published site (SPEC §4.5): static pages of every game, regenerated after each
committed change and replaced atomically, so a reader never sees half a site.

    DIR/index.html            the games on this host
    DIR/style.css             one small stylesheet
    DIR/SLUG/index.html       status, turn and deadline, players, pending matters, how to vote
    DIR/SLUG/rules.html       the ruleset, each rule with its history from the journal
    DIR/SLUG/proposals.html   every matter: text, votes, outcome; judgements and rulings
    DIR/SLUG/feed.atom        one entry per announcement
    DIR/SLUG/journal.html     the court record: every journal entry, anchored by its number
    DIR/SLUG/gamestate.html   each player's values the rules declare, each change with its mail
    DIR/SLUG/dice.html        every seed's SHA-256, the seeds revealed, each roll recomputed
    DIR/SLUG/turns.html       orders games: every turn's results with its map (turn-N.svg)
    DIR/SLUG/map.svg          orders games with a map: the island now (map.png beside it when
                              a PNG renderer is installed)
"""

from __future__ import annotations

import errno
import fcntl
import logging
import time
from collections.abc import Collection
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from sqlalchemy import select
from sqlalchemy.orm import Session, defer
from sqlalchemy.orm.attributes import set_committed_value

from mailref import resource
from mailref.config import SiteConfig
from mailref.site import (
    dice,
    fragments,
    gamestate,
    history,
    journal,
    kept,
    older_pages,
    pages,
    trouble,
    undone,
)
from mailref.site.publish import replace_dir, replace_file
from mailref.store import Game, Store
from mailref.timeutil import iso, utcnow

log = logging.getLogger("mailref.site")
__all__ = ["SiteConfig", "catch_up", "rebuild"]


_built: dict[tuple[str, str], int] = {}  # (site dir, slug) -> the game version last published
VERSION_FILE = ".mailref-version"  # in each game's folder: the game version its pages show
CATCH_UP_AT_ONCE = 20  # games catch_up renders in one go
LOCK_WAIT = 10.0  # seconds a rebuild waits for another writer of the same site
_listed: dict[
    str, dict[str, tuple[int, dict]]
] = {}  # site dir -> slug -> (version, its row on the host index)


def rebuild(
    store: Store,
    site: SiteConfig,
    slug: str | None = None,
    now: datetime | None = None,
    force: bool = True,
    most: int | None = None,
    held: tuple[int, dict[str, Any]] | None = None,
    leave: Collection[str] = (),
) -> list[str]:
    """Regenerate SLUG's pages (every game's without SLUG but those to LEAVE) and the host's
    index. Without FORCE a game whose pages already show its version is left alone (a [Status]
    request changes nothing). At most MOST games at a time. Returns the slugs written. HELD: SLUG's
    state as this process committed it, with its version, taken instead of the row's while
    the row is at that version (a long game's state is megabytes of JSON to decode); nobody
    changes it while the pages are made, and they keep no part of it."""
    now = now or utcnow()
    root = Path(site.dir)
    if not root.exists():
        root.mkdir(parents=True, exist_ok=True)
        # The pages are public: a web server (another user) must read them, whatever the
        # umask (the unit's UMask=0027 made it 0750, and every page behind it a 403).
        root.chmod(0o755)
    where = str(root.resolve())
    written = []
    # One writer at a time per site: the daemon and a CLI command may both rebuild.
    with open(root / ".mailref-site.lock", "a") as lock:
        _take(lock)
        listed = _listed.setdefault(where, {})
        with store() as s:  # read everything first: no transaction is held while pages are made
            versions = {g: v for g, v in s.execute(select(Game.slug, Game.version)).all()}
            if slug is not None and slug not in versions:
                return []
            wanted = [
                g
                for g in ([slug] if slug else sorted(set(versions) - set(leave)))
                if force
                or _published(root, where, g, versions[g]) != versions[g]
                and trouble.page_due(where, g, versions[g])
            ][:most]
            snaps, rolls, read = [], {}, {}
            for g in wanted:
                game = read[g] = _game(s, g, held if g == slug else None)
                snaps.append(history.read(s, game, anew=force))
                rolls[g] = dice.verify(s, game, snaps[-1].key)
            # A game left to the build about to come is listed by it, from the state it holds.
            stale = [
                g
                for g in versions
                if (g not in listed or listed[g][0] != versions[g]) and g not in leave
            ]
            unread = [g for g in stale if g not in read]  # a long game's state is read once
            for game in s.scalars(select(Game).where(Game.slug.in_(unread))) if unread else []:
                read[game.slug] = game
            for g in stale:
                listed[g] = (read[g].version, host_row(read[g]))
        for gone in set(listed) - set(versions):
            del listed[gone]
        for snap in snaps:
            try:
                files = game_files(snap, now, site.base_url, rolls.get(snap.slug))
            except Exception as e:  # one game's fault: the others' pages go on (site/trouble.py)
                if force:
                    raise
                trouble.page_failed(where, snap.slug, snap.version, e)
                continue
            trouble.page_made(where, snap.slug)
            replace_dir(root, snap.slug, files)
            _built[(where, snap.slug)] = snap.version
            written.append(snap.slug)
        if written or not (root / "index.html").exists():
            replace_file(
                root / "style.css", (resource("templates") / "site" / "style.css").read_bytes()
            )
            replace_file(
                root / "index.html",
                pages.render_page(
                    "host.html",
                    games=[listed[g][1] for g in sorted(listed)],
                    root="",
                    generated=pages.when(iso(now)),
                    game=None,
                ).encode(),
            )
            ended = [listed[g][1] for g in sorted(listed) if listed[g][1]["status"] == "ended"]
            replace_file(
                root / "hall.html",
                pages.render_page(
                    "hall.html",
                    games=ended,
                    champions=pages.champions(ended),
                    root="",
                    generated=pages.when(iso(now)),
                    game=None,
                ).encode(),
            )
    return written


def _game(s: Session, slug: str, held: tuple[int, dict[str, Any]] | None) -> Game:
    """The game SLUG, its state the HELD one when the row is at HELD's version (else read)."""
    if held is None:
        return s.scalars(select(Game).where(Game.slug == slug)).one()
    game = s.scalars(select(Game).where(Game.slug == slug).options(defer(Game.state))).one()
    if game.version == held[0]:
        set_committed_value(game, "state", held[1])
    return game


def _take(lock: IO) -> None:
    """The site's lock, waited for at most LOCK_WAIT: a writer stuck on the folder (a hung NFS
    server, a stopped `mailref site build`) must not keep the daemon's pages thread, and so
    its stop, waiting for ever. The pages are retried at the next catch-up."""
    until = time.monotonic() + LOCK_WAIT
    while True:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() > until:
                raise TimeoutError(
                    errno.ETIMEDOUT,
                    f"another process has held the site's lock "
                    f"({Path(lock.name).name}) for {LOCK_WAIT:.0f} s",
                ) from None
            time.sleep(0.05)


def _published(root: Path, where: str, slug: str, current: int) -> int | None:
    """The game version SLUG's pages in ROOT show: as this process last wrote them, else as
    the folder says (written by an earlier run, or by another daemon sharing the folder).
    Pages an older mailref wrote say nothing: they are taken as CURRENT, as that mailref took
    them (else an upgrade would render every game of the host again at once)."""
    known = _built.get((where, slug))
    if known is None:
        try:
            known = int((root / slug / VERSION_FILE).read_text())
        except FileNotFoundError:
            if not (root / slug / "index.html").exists():
                return None
            known = current
        except (OSError, ValueError):
            return None
        _built[(where, slug)] = known
    return known


def game_files(
    snap: history.Snapshot, now: datetime, base_url: str, rolls: dice.Report | None = None
) -> dict[str, bytes]:
    state = snap.state
    chron = history.chronicle(snap)
    game = kept.name(snap.key)
    ctx = pages.game_context(
        state,
        chron,
        now,
        base_url,
        has_png=False,
        kept_rows=_matter_rows.setdefault(game, {}),
        cold=snap.cold,
    )
    ctx["dice"] = rolls
    ctx["gamestate"] = gamestate.page_context(state)
    last = snap.journal[-1]["number"] if snap.journal else 0
    ctx["journal_link"] = lambda n: journal.link(n, last)
    block = (last - 1) // journal.PER_PAGE if last else 0  # the newest page of the journal
    for shown in [ctx["matters"], *(p["matters"] for p in ctx["older_pages"])]:
        fragments.matters(pages.environment(), shown, ctx["journal_link"], block)
    read, taken = _undone.get(game, (0, []))
    if read > len(snap.journal):
        read, taken = 0, []
    taken = taken + undone.found_in(snap.journal[read:])
    _undone[game] = (len(snap.journal), taken)
    ctx["undone"] = [{**u, "when": pages.when(u["at"], ctx["zone"])} for u in taken[::-1]]
    files: dict[str, bytes] = {}
    if ctx["map_svg"] is not None:
        svg = str(ctx["map_svg"])
        files["map.svg"] = svg.encode()
        png = svg_to_png(svg)
        if png:
            files["map.png"] = png
            ctx["has_png"] = True
    for t in chron.turns:
        if t.svg:
            files[f"turn-{t.number}.svg"] = t.svg.encode()
    pages_ = ["index.html", "rules.html", "proposals.html"] + (
        ["turns.html"] if ctx["orders_game"] else []
    )
    if ctx["gamestate"] is not None:
        pages_.append("gamestate.html")
    made_of = (chron.lineage, ctx["zone"])
    ctx["contents"], ctx["sections"] = fragments.rules(
        pages.environment(),
        kept.name(snap.key),
        ctx["rule_rows"],
        made_of,
        ctx["zone"],
        ctx["page_of"],
    )
    for name in pages_:
        if name == "rules.html":  # its kept sections go in as they are
            parts = {"contents": ctx.pop("contents"), "sections": ctx.pop("sections")}
            files[name] = pages.render_with(name, parts, page=name, **ctx).encode()
            continue
        files[name] = pages.render_page(name, page=name, **ctx).encode()
    blocks = journal.pages(snap.journal)
    older = [name for name, _ in blocks][1:]
    for name, block in blocks:
        files[name] = older_pages.journal_page(snap, ctx, name, block, older)
    if rolls is not None:
        files["dice.html"] = pages.render_page(
            "dice.html", page="dice.html", how=dice.HOW, **ctx
        ).encode()
    for older in ctx["older_pages"]:
        files[older["name"]] = older_pages.matters_page(snap, ctx, older)
    files["feed.atom"] = pages.feed(state, chron, now, base_url, snap.created).encode()
    files[VERSION_FILE] = str(snap.version).encode()
    return files


_matter_rows: dict[str, dict[Any, Any]] = kept.per_game({})  # game -> pages.matters' rows
# game -> (journal entries read, the matters their undos took away, oldest first)
_undone: dict[str, tuple[int, list[dict[str, Any]]]] = kept.per_game({})


def host_row(g: Game) -> dict:
    st = g.state
    turn = st.get("turn") or {}
    return {
        "slug": g.slug,
        "name": st["name"],
        "variant": g.variant,
        "status": st["status"],
        "address": g.address,
        "players": len([p for p in st["players"] if p.get("status") != "left"]),
        "watchers": len(st.get("watchers") or []),
        "turn": turn.get("number"),
        "deadline": pages.when(turn.get("deadline"), st.get("timezone", "UTC")),
        "winners": list(st.get("winners", [])),  # kept past the build: its own
    }


def svg_to_png(svg: str) -> bytes | None:
    """The map as PNG with the renderer the mail uses (CairoSVG), where it is installed and
    usable; else None, and the site shows SVG only."""
    try:
        from mailref.write.picture import svg_to_png as render_png
    except ImportError:
        return None
    try:
        return render_png(svg)
    except Exception as e:
        log.warning("site: PNG map not rendered: %s", e)
        return None


def catch_up(
    store: Store, site: SiteConfig, now: datetime | None = None, leave: Collection[str] = ()
) -> None:
    """The pages of every game changed by another process since this one last published them:
    another daemon on the same database (its own host, its own site folder), a CLI run with a
    configuration without [site]. Only the games' versions are read when nothing changed. A
    few games at a time (CATCH_UP_AT_ONCE): the daemon's own changes wait for the site's lock
    meanwhile, and a new site folder for a host of many games fills over a few rounds. LEAVE:
    the games this process is about to build with the state it holds."""
    try:
        if rebuild(store, site, None, now, force=False, most=CATCH_UP_AT_ONCE, leave=leave):
            trouble.cleared(Path(site.dir))
    except OSError as e:
        trouble.failed(Path(site.dir), e)
    except Exception:
        log.exception("site: catching up with changes made elsewhere failed")


def rebuild_quietly(
    store: Store,
    site: SiteConfig,
    slug: str,
    now: datetime | None = None,
    held: tuple[int, dict[str, Any]] | None = None,
) -> None:
    """After a commit: the site catches up, and a failure here never fails the mail or timer.
    HELD: the state just committed, with its version (rebuild)."""
    try:
        rebuild(store, site, slug, now, force=False, held=held)
        if trouble.cleared(Path(site.dir)):
            rebuild(
                store, site, None, now, force=False
            )  # the games whose pages were missed meanwhile
    except OSError as e:  # the folder: one line while it lasts, naming the key (site/trouble.py)
        trouble.failed(Path(site.dir), e)
    except Exception:
        log.exception("site: rebuilding the pages of %s failed", slug)
