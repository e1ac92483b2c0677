"""The full older pages of a game's matters and of its journal: each rendered once while what it
shows stays the same. Each lists every older page; when one more fills up (fifty matters, a
hundred journal entries), only that list is made anew on the others, not the pages."""

from __future__ import annotations

import re
from typing import Any

from mailref.site import history, kept, pages

# (game, page) -> (what it showed, the rows of matters it showed, the page)
_rendered: dict[tuple[str, str], tuple[Any, list[dict], bytes]] = {}
kept.on_forget(lambda game: [_rendered.pop(k) for k in list(_rendered) if k[0] == game])

_LIST = re.compile(rb'<nav aria-label="Older[^"]*" class="older">.*?</nav>', re.S)


def _listing(page: bytes, bare: bytes) -> bytes:
    """PAGE with the list of older pages of BARE: the same page rendered with nothing in it."""
    listed = _LIST.search(bare)
    if listed is None or _LIST.search(page) is None:
        raise ValueError("an older page without its list of older pages")
    return _LIST.sub(lambda _: listed.group(0), page, count=1)


def matters_page(snap: history.Snapshot, ctx: dict, older: dict) -> bytes:
    """A page of older matters (pages.paged): rendered again only when what it shows changed,
    which for a full page is seldom (a stale matter decided late, the game renamed, a newer
    page of the journal begun where its matters' entries were the newest). A matter unchanged
    since the last build has the same row and article (pages.matters, fragments.matters): the
    page is known by them, not by what they say."""
    game = ctx["game"]
    shown = (
        game["name"],
        game["address"],
        ctx["nomic"],
        ctx["vote_words"],
        (bool(ctx["gamestate"]), bool(ctx["dice"]), ctx["orders_game"]),
    )
    listed = [p["name"] for p in ctx["older_pages"]]
    rows = older["matters"]
    # A row's article is made anew when its links to the journal move (fragments.matters).
    articles = [r["html"] for r in rows]
    key = (kept.name(snap.key), older["name"])
    was = _rendered.get(key)

    def render(matters: list[dict]) -> bytes:
        made = {**ctx, "matters": matters, "this_page": older["name"]}
        return pages.render_page("proposals.html", page="proposals.html", **made).encode()

    same = (
        was is not None
        and was[0][0] == shown
        and len(was[1]) == len(rows)
        and all(a is b for a, b in zip(was[1], rows, strict=True))
        and all(a is b for a, b in zip(was[0][2], articles, strict=True))
    )
    if was is not None and same:
        page = was[2] if was[0][1] == listed else _listing(was[2], render([]))
    else:
        page = render(rows)
    _rendered[key] = ((shown, listed, articles), list(rows), page)
    return page


def journal_page(
    snap: history.Snapshot, ctx: dict, name: str, block: list[dict], older: list[str]
) -> bytes:
    """A page of the journal; a full older page is rendered once (its entries never change),
    its list of older pages made anew when one more fills up."""
    key = (kept.name(snap.key), name)
    nav = (bool(ctx["gamestate"]), bool(ctx["dice"]), ctx["orders_game"], ctx["game"]["name"])
    shown = (block[0]["number"], block[-1]["number"], nav) if block else ()
    was = _rendered.get(key)

    def render(entries: list[dict]) -> bytes:
        made = {**ctx, "page": "journal.html", "entries": entries, "this_page": name}
        return pages.render_page("journal.html", **made, older=older).encode()

    if name != "journal.html" and was is not None and was[0][0] == shown:
        page = was[2] if was[0][1] == older else _listing(was[2], render([]))
    else:
        page = render(block)
    _rendered[key] = ((shown, list(older)), [], page)
    return page
