"""A game of thousands of matters on the published pages (SPEC §4.5): BlogNomic runs for
years. 10,000 proposals made one proposals.html of some 9 MB, rendered anew after every mail
(about a second of CPU a change at 3,000). The newest are on proposals.html; older ones in
pages of a fixed size counted from the first matter, each rendered once while it stays the same."""

from __future__ import annotations

import re

import pytest

from mailref.config import SiteConfig
from mailref.site import journal, pages, rebuild
from support.helpers import mail
from support.joining import confirm_waiting
from support.site import see, valid

pytestmark = pytest.mark.spec("4.5")

G = "paging@ref.example"


def ids(path) -> list[str]:
    return re.findall(r'<article class="matter[^"]*" id="([^"]+)"', path.read_text())


def test_many_matters_are_paged_and_every_link_finds_its_matter(
    referee, tmp_path, browser, monkeypatch
):  # noqa: F811
    monkeypatch.setattr(pages, "MATTERS_PER_PAGE", 10)
    # 47 proposals in 4 hours, more than matters_per_day lets one player open.
    referee.create_game("paging", "imperial", G, parameters={"matters_per_day": "100"})
    for name in ("Alice", "Bob"):
        referee.accept(mail(f"{name.lower()}@x.org", G, "[Join]", f"Name: {name}"))
        confirm_waiting(referee)
    for i in range(47):  # the oldest undecided are replaced as new ones come (max_undecided)
        who = "alice@x.org" if i % 2 else "bob@x.org"
        referee.accept(
            mail(who, G, f"[Proposal] Idea {i + 1}", f'Enact rule {100 + i} "R{i}":\nText {i}.\n')
        )
        referee.clock.advance(minutes=5)
    site = tmp_path / "site"
    rebuild(referee.store, SiteConfig(site), now=referee.clock())
    valid(site, "paging")
    root = site / "paging"
    newest = ids(root / "proposals.html")
    older = sorted(root.glob("proposals-*.html"), key=lambda p: int(p.stem.split("-")[1]))
    assert [p.name for p in older] == [f"proposals-{k}.html" for k in (1, 2, 3)]
    assert 10 <= len(newest) < 20 and newest[0] == "proposal-47"
    assert ids(older[0])[-1] == "proposal-1" and all(len(ids(p)) == 10 for p in older)
    everything = newest + [i for p in reversed(older) for i in ids(p)]
    assert everything == [f"proposal-{n}" for n in range(47, 0, -1)]  # each once, newest first
    # The pending matters on the game's page link to the page that shows them.
    for page, anchor in re.findall(
        r'href="(proposals[^"#]*\.html)#([^"]+)"', (root / "index.html").read_text()
    ):
        assert anchor in ids(root / page), (page, anchor)

    first = see(browser, site, "paging/proposals.html", "paging-proposals.png")
    assert "Older:" in first.text and "Proposal 1 to Proposal 10" in first.text
    oldest = see(browser, site, "paging/proposals-1.html", "paging-proposals-1.png")
    assert (
        "Idea 1\n" in oldest.text + "\n"
        and "Idea 47" not in oldest.text
        and "the first page" in oldest.text
    )

    # Another mail: the full older pages are the same bytes, not rendered again.
    before = {p.name: p.read_bytes() for p in older}
    referee.accept(mail("bob@x.org", G, "[Proposal] Idea 48", 'Enact rule 200 "Z":\nZ.\n'))
    rebuild(referee.store, SiteConfig(site), "paging", now=referee.clock())
    assert {p.name: p.read_bytes() for p in older} == before
    assert ids(root / "proposals.html")[0] == "proposal-48"


def _published(page) -> str:
    """A page without the line saying when it was made."""
    return re.sub(r"<p>Published by mailref on <time [^\n]*", "", page.read_text())


def test_a_new_older_page_is_listed_on_the_others_as_a_build_from_scratch_lists_it(
    referee, tmp_path, monkeypatch
):
    monkeypatch.setattr(pages, "MATTERS_PER_PAGE", 10)
    referee.create_game("paging", "imperial", G, parameters={"matters_per_day": "100"})
    for name in ("Alice", "Bob"):
        referee.accept(mail(f"{name.lower()}@x.org", G, "[Join]", f"Name: {name}"))
        confirm_waiting(referee)
    site, scratch = tmp_path / "site", tmp_path / "scratch"

    def propose(first: int, last: int) -> None:
        for i in range(first, last + 1):
            who = "alice@x.org" if i % 2 else "bob@x.org"
            referee.accept(
                mail(who, G, f"[Proposal] Idea {i}", f'Enact rule {100 + i} "R{i}":\nT.\n')
            )
            referee.clock.advance(minutes=5)

    propose(1, 30)
    rebuild(referee.store, SiteConfig(site), "paging", now=referee.clock(), force=False)
    assert "proposals-3.html" not in (site / "paging" / "proposals-1.html").read_text()
    propose(31, 40)  # a third older page fills up
    rebuild(referee.store, SiteConfig(site), "paging", now=referee.clock(), force=False)
    rebuild(referee.store, SiteConfig(scratch), "paging", now=referee.clock())
    for k in (1, 2, 3):
        name = f"proposals-{k}.html"
        kept, fresh = site / "paging" / name, scratch / "paging" / name
        assert 'href="proposals-3.html"' in kept.read_text()
        assert _published(kept) == _published(fresh), kept.name


def test_an_older_page_links_to_the_journal_page_its_entries_moved_to(
    referee, tmp_path, monkeypatch
):
    monkeypatch.setattr(pages, "MATTERS_PER_PAGE", 2)
    monkeypatch.setattr(journal, "PER_PAGE", 10)
    referee.create_game("paging", "imperial", G, parameters={"matters_per_day": "100"})

    def join(name: str) -> None:
        referee.accept(mail(f"{name.lower()}@x.org", G, "[Join]", f"Name: {name}"))
        confirm_waiting(referee)

    for name in ("Alice", "Bob"):
        join(name)
    for i in range(1, 5):
        who = "alice@x.org" if i % 2 else "bob@x.org"
        referee.accept(mail(who, G, f"[Proposal] Idea {i}", f'Enact rule {100 + i} "R{i}":\nT.\n'))
    site, scratch = tmp_path / "site", tmp_path / "scratch"
    rebuild(referee.store, SiteConfig(site), "paging", now=referee.clock(), force=False)
    older = site / "paging" / "proposals-1.html"
    assert 'href="journal.html#entry-' in older.read_text()
    for name in ("Carol", "Dan", "Eve", "Fay"):  # the journal's first page fills up
        join(name)
    rebuild(referee.store, SiteConfig(site), "paging", now=referee.clock(), force=False)
    rebuild(referee.store, SiteConfig(scratch), "paging", now=referee.clock())
    assert 'href="journal-1.html#entry-' in older.read_text()
    assert _published(older) == _published(scratch / "paging" / older.name)
