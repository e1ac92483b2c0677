"""The host's hall page: the games that ended and who won them, read as a browser shows it."""

from __future__ import annotations

import html5lib

from mailref.config import SiteConfig
from mailref.site import rebuild
from support.orders_play import play_eire


def test_the_hall_shows_an_ended_games_winner(referee, clock, tmp_path, chromium):
    """Eire ends with Finn's Communion: the hall lists the game and Finn as its winner and
    champion, and the host's page links to it."""
    play_eire(referee, clock)
    site = tmp_path / "site"
    rebuild(referee.store, SiteConfig(site), "eire", referee.clock())
    hall = site / "hall.html"
    html5lib.HTMLParser(strict=True).parse(hall.read_bytes())
    text = chromium.open(hall).text
    assert "Hall of the games" in text
    assert "Eire" in text and "Finn" in text
    assert "Finn: 1 game won" in text
    assert 'href="hall.html"' in (site / "index.html").read_text()
