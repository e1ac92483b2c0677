"""The game's gamestate page (SPEC §4.5, §5.2): every Wizard's values, what each column holds,
and each alteration with who made it, when, why and from which mail."""

from __future__ import annotations

import pytest

from mailref.config import SiteConfig
from mailref.site import rebuild
from support.blognomic import send

pytestmark = pytest.mark.spec("4.5", "5.2")


def test_the_gamestate_page_shows_each_change_with_its_mail(blognomic_game, tmp_path):
    game = blognomic_game
    send(game, "Ann", "[Update] Thaum +3 because rule 2.8", "Hand: Fox, Owl")
    send(game, "Ben", "[Update] Home = Swamp")
    site = tmp_path / "site"
    rebuild(game.store, SiteConfig(site), now=game.clock())
    page = (site / "blog" / "gamestate.html").read_text()
    assert "<th>Hand</th><th>Home</th><th>Thaum</th>" in page
    assert "<td><bdi>Ann</bdi></td><td>Fox, Owl</td><td>Wilderness</td><td>3</td>" in page
    assert "Thaum: a whole number, at least 0, starting at 0 (rule 2.15)" in page
    rows = page.split("<h2>History</h2>")[1]
    assert rows.index("Swamp") < rows.index("Fox, Owl")  # newest first
    assert "<td>0</td><td>3</td><td>rule 2.8</td><td>mail " in rows
    assert 'href="gamestate.html"' in (site / "blog" / "index.html").read_text()
