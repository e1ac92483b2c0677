"""The journal page (SPEC §4.4, §4.5): every entry anchored by the number undo lines name, and
each matter linking to the entries that opened and decided it."""

from __future__ import annotations

import html
import re

import pytest

from mailref.config import SiteConfig
from mailref.site import journal, rebuild
from support import clients
from support.client_play import NOMES, play
from support.helpers import make_referee, migrated_sqlite
from support.joining import confirm
from support.play import addr
from support.site import valid

pytestmark = pytest.mark.spec("4.4")


def _mail(referee, who: str, subject: str, body: str = "") -> None:
    play(referee, clients.fresh(addr(who), who, NOMES, subject, body))


def _anchors(page) -> list[int]:
    return [int(n) for n in re.findall(r'<tr id="entry-(\d+)"', page.read_text())]


def test_the_journal_page_lists_every_entry_and_matters_link_to_theirs(referee, tmp_path):
    """A passed proposal links to the entry that opened it and the one that decided it; both
    are rows of journal.html, newest first; after a ruling undoes it, the page lists the
    ruling's entry too and every page is still valid HTML."""
    referee.create_game("nomes", "sidekick", NOMES, gm="gm@ref.example")
    for p in ("Alice", "Bob", "Carol"):
        _mail(referee, p, "[Join]", f"Name: {p}\n")
        confirm(referee, addr(p))
    mover = referee.state("nomes")["turn"]["player"]
    _mail(referee, mover, "[Proposal] Tea time", 'Enact rule 24 "Tea":\nAll drink tea.\n')
    for p in ("Alice", "Bob", "Carol"):
        if p != mover:
            _mail(referee, p, "[Vote] 1", "FOR")
    site = tmp_path / "site"
    rebuild(referee.store, SiteConfig(site), now=referee.clock())
    valid(site, "nomes")
    root = site / "nomes"
    rows = _anchors(root / "journal.html")
    count = len(rows)
    assert rows == list(range(count, 0, -1)) and count >= 6
    text = html.unescape((root / "journal.html").read_text())
    assert f'{mover} proposed 1 "Tea time"' in text
    links = re.findall(
        r'href="journal\.html#entry-(\d+)">entry \d+</a>', (root / "proposals.html").read_text()
    )
    assert len(links) == 2 and all(int(n) in rows for n in links), links
    asker = next(p for p in ("Alice", "Bob", "Carol") if p != mover)
    _mail(referee, asker, "[CfJ] Was it legal?", "")
    judge = referee.state("nomes")["judgements"][0]["judge"]
    _mail(referee, judge, "[Ruling] 1", "Undo proposal 1\n")
    rebuild(referee.store, SiteConfig(site), now=referee.clock())
    valid(site, "nomes")
    assert _anchors(root / "journal.html")[0] == count + 2
    assert "Journal entries void:" in (root / "journal.html").read_text()


def test_a_full_older_journal_page_links_to_an_older_page_made_after_it(
    referee, tmp_path, monkeypatch
):
    """When the journal grows by a page, every full older page lists the new one among the
    older pages, as a build from scratch does: a kept page never lags behind."""
    monkeypatch.setattr(journal, "PER_PAGE", 3)  # the proposal makes journal-2.html
    referee.create_game("nomes", "sidekick", NOMES, gm="gm@ref.example")
    for p in ("Alice", "Bob", "Carol"):
        _mail(referee, p, "[Join]", f"Name: {p}\n")
        confirm(referee, addr(p))
    site, root = SiteConfig(tmp_path / "site"), tmp_path / "site" / "nomes"
    rebuild(referee.store, site, "nomes", now=referee.clock(), force=False)
    assert 'href="journal-2.html"' not in (root / "journal-1.html").read_text()
    mover = referee.state("nomes")["turn"]["player"]
    _mail(referee, mover, "[Proposal] Tea time", 'Enact rule 24 "Tea":\nAll drink tea.\n')
    rebuild(referee.store, site, "nomes", now=referee.clock(), force=False)
    assert (root / "journal-2.html").exists()
    assert 'href="journal-2.html"' in (root / "journal-1.html").read_text()
    rebuild(referee.store, SiteConfig(tmp_path / "fresh"), "nomes", now=referee.clock())
    fresh = tmp_path / "fresh" / "nomes"
    assert (root / "journal-1.html").read_bytes() == (fresh / "journal-1.html").read_bytes()


def test_a_long_journal_is_paged_and_each_link_finds_its_page(monkeypatch):
    """Entries are paged from the first; a link names the page its entry is on."""
    monkeypatch.setattr(journal, "PER_PAGE", 10)
    entries = [{"number": n} for n in range(1, 26)]
    names = [name for name, _ in journal.pages(entries)]
    assert names == ["journal.html", "journal-1.html", "journal-2.html"]
    assert journal.link(5, 25) == "journal-1.html#entry-5"
    assert journal.link(25, 25) == "journal.html#entry-25"
    assert [e["number"] for e in dict(journal.pages(entries))["journal.html"]] == list(
        range(25, 20, -1)
    )


def test_a_database_made_again_under_the_same_name_shows_its_own_journal(tmp_path, clock):
    """The pages keep what they read of a journal between builds, by database URL, slug and
    creation time: a database made again under that name, with a game of that slug made at
    that time, is read anew."""
    db, site = tmp_path / "again.sqlite3", tmp_path / "site"
    for name in ("Alice", "Zed"):
        db.unlink(missing_ok=True)
        referee = make_referee(tmp_path, clock, url=migrated_sqlite(db))
        referee.create_game("nomes", "sidekick", NOMES, gm="gm@ref.example")
        player = {"type": "player_add", "name": name, "address": f"{name.lower()}@x.org"}
        referee.admin("nomes", player, "test")
        rebuild(referee.store, SiteConfig(site), now=referee.clock())
        referee.store.dispose()
    page = html.unescape((site / "nomes" / "journal.html").read_text())
    assert "Zed" in page and "Alice" not in page


def test_a_full_older_journal_page_is_not_written_again_and_leads_to_the_newest(
    referee, tmp_path, monkeypatch
):
    """After another change a full older page of the journal is the same file (same inode, same
    modification time): only what changed is written. Its links lead to the newest page, which
    holds the newest entry, and every entry is on exactly one page."""
    monkeypatch.setattr(journal, "PER_PAGE", 4)  # entries 1-4 on journal-1.html, 5-7 newest
    referee.create_game("nomes", "sidekick", NOMES, gm="gm@ref.example")
    for p in ("Alice", "Bob", "Carol"):
        _mail(referee, p, "[Join]", f"Name: {p}\n")
        confirm(referee, addr(p))
    site, root = SiteConfig(tmp_path / "site"), tmp_path / "site" / "nomes"
    rebuild(referee.store, site, "nomes", now=referee.clock(), force=False)
    oldest = root / "journal-1.html"
    before = oldest.stat()
    mover = referee.state("nomes")["turn"]["player"]
    _mail(referee, mover, "[Proposal] Tea time", 'Enact rule 24 "Tea":\nAll drink tea.\n')
    assert rebuild(referee.store, site, "nomes", now=referee.clock(), force=False) == ["nomes"]
    valid(tmp_path / "site", "nomes")
    after = oldest.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    newest = max(n for p in root.glob("journal*.html") for n in _anchors(p))
    assert 'href="journal.html"' in oldest.read_text()
    assert _anchors(root / "journal.html")[0] == newest
    assert 'proposed 1 "Tea time"' in html.unescape((root / "journal.html").read_text())
    every = sorted(n for p in root.glob("journal*.html") for n in _anchors(p))
    assert every == list(range(1, newest + 1))
