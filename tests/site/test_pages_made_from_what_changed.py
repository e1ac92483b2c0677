"""The pages after each change are made from what changed (site/kept.py, site/fragments.py):
a long game's rebuild keeps what it read and rendered of the game between builds. Whatever
it keeps, the pages show what a build from scratch (`mailref site build`) shows of the same
game, byte for byte, through enactments, amendments, retitles, repeals, failed proposals,
pages that fill and roll over, and an undo that rewrites the game under what was kept."""

from __future__ import annotations

import json
import re

import pytest
from sqlalchemy import func, select

from mailref.config import SiteConfig
from mailref.referee.threads import lent_state
from mailref.site import journal, pages, rebuild
from mailref.store import ArchivedMatter
from support import clients
from support.client_play import NOMES, play
from support.joining import confirm
from support.site import valid

pytestmark = pytest.mark.spec("4.5")

PLAYERS = ("Alice", "Bob", "Carol")
# A full older page is kept as the same file, and says when it was made.
_MADE = re.compile(rb"<p>Published by mailref on <time [^\n]*")


def addr(who: str) -> str:
    return f"{who.lower()}@players.example"


def _mail(referee, who: str, subject: str, body: str = "") -> None:
    play(referee, clients.fresh(addr(who), who, NOMES, subject, body))


def _proposal(n: int) -> str:
    """Turn N's proposal: a new rule each turn, and now and then an amendment, a retitle or a
    repeal of an earlier one."""
    text = f'Enact rule {100 + n} "Idea {n}":\nPlayers may hum {n} times a day.\n'
    if n % 3 == 0:
        text += f'\nIn rule {100 + n - 1}, replace "{n - 1} times" with "{n} times".\n'
    if n % 4 == 0:
        text += f'\nRetitle rule {100 + n - 2} to "Tune {n}".\n'
    if n % 5 == 0:
        text += f"\nRepeal rule {100 + n - 4}.\n"
    return text


def _files(root) -> dict[str, bytes]:
    return {
        p.name: _MADE.sub(b"", p.read_bytes())
        if re.match(r"(journal|proposals)-\d+\.html$", p.name)
        else p.read_bytes()
        for p in sorted(root.iterdir())
    }


# Made from the state read from the store, or from the state the referee committed, lent to
# the pages as the daemon lends it (the referee changes it in place at its next change).
@pytest.mark.parametrize("lent", [False, True], ids=["read", "lent"])
def test_pages_made_after_each_change_are_those_a_build_from_scratch_makes(
    referee, tmp_path, monkeypatch, lent
):
    monkeypatch.setattr(pages, "MATTERS_PER_PAGE", 2)
    monkeypatch.setattr(journal, "PER_PAGE", 5)
    referee.create_game("nomes", "sidekick", NOMES, gm="gm@ref.example")
    site = SiteConfig(tmp_path / "site")
    taken = []

    def change(who: str, subject: str, body: str = "") -> None:
        _mail(referee, who, subject, body)
        with lent_state(referee.states if lent else {}, "nomes") as held:
            taken.append(held is not None)
            before = json.dumps(held)
            rebuild(referee.store, site, "nomes", now=referee.clock(), force=False, held=held)
            assert json.dumps(held) == before  # the pages change nothing of it

    for p in PLAYERS:
        change(p, "[Join]", f"Name: {p}\n")
        confirm(referee, addr(p))
    for n in range(1, 11):
        mover = referee.state("nomes")["turn"]["player"]
        number = referee.state("nomes")["next_number"]
        change(mover, f"[Proposal] Idea {n}", _proposal(n))
        for p in PLAYERS:
            if p != mover:
                change(p, f"[Vote] {number}", "AGAINST" if n % 6 == 0 else "FOR")
        if n % 5 == 0:  # before an undo drops what is kept
            _same_as_from_scratch(referee, tmp_path, f"fresh-{n}")
        referee.clock.advance(days=1)
    asker = next(p for p in PLAYERS if p != referee.state("nomes")["turn"]["player"])
    change(asker, "[CfJ] Was the last one legal?", "")
    judge = referee.state("nomes")["judgements"][0]["judge"]
    last = max(m["number"] for m in referee.state("nomes")["proposals"])
    change(
        judge,
        f"[Ruling] {referee.state('nomes')['judgements'][0]['number']}",
        f"Undo proposal {last}\n",
    )

    made = tmp_path / "site" / "nomes"
    rules = (made / "rules.html").read_text()
    assert "change-amended" in rules and "change-retitled" in rules and "change-repealed" in rules
    assert (made / "proposals-2.html").exists() and (made / "journal-5.html").exists()
    matters = "".join(p.read_text() for p in made.glob("proposals*.html"))
    assert "status-failed" in matters and "status-undone" in matters
    assert "Journal entries void:" in (made / "journal.html").read_text()
    assert any(taken) == lent
    with referee.store() as s:  # matters ended long ago left the hot state as the pages replayed
        assert s.scalar(select(func.count()).select_from(ArchivedMatter)) >= 2
    valid(tmp_path / "site", "nomes")
    _same_as_from_scratch(referee, tmp_path, "fresh")


def _same_as_from_scratch(referee, tmp_path, fresh_dir: str) -> None:
    rebuild(referee.store, SiteConfig(tmp_path / fresh_dir), "nomes", now=referee.clock())
    fresh = _files(tmp_path / fresh_dir / "nomes")
    made = _files(tmp_path / "site" / "nomes")
    assert made.keys() == fresh.keys()
    for name, page in made.items():
        assert page == fresh[name], name
