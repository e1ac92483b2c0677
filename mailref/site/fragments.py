"""Parts of a page rendered once while what they show stays the same: a long game's rules page
holds hundreds of rules, and a change touches one or two of them, so each rule's section (and
its line in the contents) is kept with what it showed and rendered again only when that
changed; each change in a rule's history is rendered once, and again only when the matter it
links to has moved to another page."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

from jinja2 import Environment
from markupsafe import Markup

from mailref.site import journal, kept
from mailref.site.clean import as_text
from mailref.site.rules_page import event_row, matter_link, resolve


class Fragment(Markup):
    """A part of a page already rendered: shown as it is, its values isolated when it was."""

    __slots__ = ()


def _clean(html: str) -> Fragment:
    """HTML as a page holds it (pages.as_text, which goes character by character): a part made
    so is put into its page after the rest was made so (pages.render_with)."""
    return Fragment(as_text(str(html)))


@dataclass
class Sections:
    """A game's rules page as last rendered: while its chronicle and zone stay the same, a
    rule's history only grows, so a rule whose fields and count of changes are unchanged, and
    none of whose changes links to a matter that has moved to another page, shows the same
    section."""

    made_of: tuple[Any, ...]  # (the chronicle's lineage, the zone)
    rules: dict[str, tuple[tuple[Any, ...], Fragment, Fragment]] = field(default_factory=dict)
    # (rule, index) -> the change as rendered, with the link to its matter it was rendered with
    events: dict[tuple[str, int], tuple[str | None, Fragment]] = field(default_factory=dict)
    page_of: dict[str, str] = field(default_factory=dict)  # a matter's id -> its older page


_kept: dict[str, Sections] = kept.per_game({})


def rules(
    env: Environment,
    game: str,
    rows: list[dict[str, Any]],
    made_of: tuple[Any, ...],
    zone: str,
    page_of: dict[str, str],
) -> tuple[Fragment, Fragment]:
    """The contents' lines and the sections of the rules ROWS (pages.rule_rows), rendering only
    the rules whose content, history or place in the tree changed since GAME's last build in
    this process, or whose history links to a matter that PAGE_OF now puts on another page.
    MADE_OF says what every section depends on besides its rule: when it changes, all are
    rendered anew."""
    was = _kept.get(game)
    if was is None or was.made_of != made_of:
        was = Sections(made_of)
    # Matters go to an older page fifty at a time: only the rules linking to those are redone.
    moved = {m for m in was.page_of.keys() | page_of.keys() if was.page_of.get(m) != page_of.get(m)}
    was.page_of = dict(page_of)
    now: dict[str, tuple[tuple[Any, ...], Fragment, Fragment]] = {}
    macros: Any = None
    toc: list[str] = []
    sections: list[str] = []
    for row in rows:
        shown = (
            row["number"],
            row["title"],
            row["text"],
            row["inactive"],
            row["kind"],
            row["id"],
            row["depth"],
            row["close"],
            [(p.get("text"), p.get("mark")) for p in row["pieces"]],
            len(row["events"]),
        )
        old = was.rules.get(row["id"])
        if old is None or old[0] != shown or moved and _links_to(row["events"], moved):
            if macros is None:
                macros = env.get_template("site/_rule.html").module
            # The history goes in as its items were made (a long one is most of the page).
            mark = f"\ue000{secrets.token_hex(8)}\ue000"
            row["history"] = [{"html": Markup(mark)}] if row["events"] else []
            section = as_text(str(macros.rule(row))).replace(
                mark, "".join(_history(macros, was, row, zone, page_of)), 1
            )
            old = (shown, Fragment(section), _clean(macros.toc(row)))
        now[row["id"]] = old
        row["html"] = old[1]
        sections.append(old[1])
        if row["depth"] == 0:
            toc.append(old[2])
    was.rules = now
    _kept[game] = was
    return Fragment("".join(toc)), Fragment("".join(sections))


def _history(
    macros: Any, was: Sections, row: dict[str, Any], zone: str, page_of: dict[str, str]
) -> list[Fragment]:
    """ROW's changes for its section, each rendered once: a change never changes, and the
    pages it links to are part of what the kept sections are made of."""
    out = []
    for i, e in enumerate(row["events"]):
        link = resolve(matter_link(e.by), page_of)
        made = was.events.get((row["number"], i))
        if made is None or made[0] != link:
            made = was.events[row["number"], i] = (
                link,
                _clean(macros.event(event_row(e, zone, page_of))),
            )
        out.append(made[1])
    return out


def _links_to(events: list[Any], matters: set[str]) -> bool:
    """Whether any of EVENTS links to one of MATTERS (their ids: proposal-3)."""
    for e in events:
        link = matter_link(e.by)
        if link and link.split("#", 1)[1] in matters:
            return True
    return False


def matters(env: Environment, rows: list[dict[str, Any]], journal_link: Any, block: int) -> None:
    """Give each matter's row of the matters pages its article as `html`. A row is kept while
    its matter is (pages.matters), and its article with it while the same of its journal
    entries are on the newest page of the journal (BLOCK): a link to one of those names that
    page, and names its own page once a newer one begins."""
    macro: Any = None
    for m in rows:
        newest = tuple(n for n in m.get("entries") or () if (n - 1) // journal.PER_PAGE >= block)
        if m.get("html_of") != newest or "html" not in m:
            if macro is None:
                module: Any = env.get_template("site/_matter.html").module
                macro = module.matter
            m["html"], m["html_of"] = Fragment(macro(m, journal_link)), newest
