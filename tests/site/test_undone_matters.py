"""The Matters page keeps a matter an undo took away (SPEC §4.4): the replayed state no longer
holds it, so the page reads it from the journal, marked undone, with when and by which order."""

from __future__ import annotations

import html
import re

import pytest

from mailref.config import SiteConfig
from mailref.site import rebuild
from support import clients
from support.client_play import NOMES, play
from support.joining import confirm
from support.play import addr
from support.site import valid

pytestmark = pytest.mark.spec("4.4")


def _mail(referee, who: str, subject: str, body: str = "") -> None:
    play(referee, clients.fresh(addr(who), who, NOMES, subject, body))


def test_a_proposal_a_ruling_undoes_stays_on_the_matters_page_marked_undone(referee, tmp_path):
    referee.create_game("nomes", "sidekick", NOMES, gm="gm@ref.example")
    for p in ("Alice", "Bob", "Carol"):
        _mail(referee, p, "[Join]", f"Name: {p}\n")
        confirm(referee, addr(p))
    mover = referee.state("nomes")["turn"]["player"]
    _mail(referee, mover, "[Proposal] Tea time", 'Enact rule 24 "Tea":\nAll drink tea.\n')
    asker = next(p for p in ("Alice", "Bob", "Carol") if p != mover)
    _mail(referee, asker, "[CfJ] Was it legal?", "")
    judge = referee.state("nomes")["judgements"][0]["judge"]
    _mail(referee, judge, "[Ruling] 1", "Undo proposal 1\n")
    assert all(p["number"] != 1 for p in referee.state("nomes")["proposals"])
    site = tmp_path / "site"
    rebuild(referee.store, SiteConfig(site), now=referee.clock())
    valid(site, "nomes")
    page = html.unescape((site / "nomes" / "proposals.html").read_text())
    undone = re.search(
        r'<article class="matter status-undone" id="undone-proposal-1">.*?</article>', page, re.S
    )
    assert undone, page
    text = re.sub(r"<[^>]+>", " ", undone.group(0))
    assert "Proposal 1: Tea time" in text
    assert "undone" in text and "UTC" in text
    assert f"ruling on judgement 1 by {judge}" in text
    assert re.search(r'href="journal\.html#entry-\d+"', undone.group(0))
