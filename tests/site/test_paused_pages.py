"""A paused game's page says its deadline is stopped."""

from __future__ import annotations

import pytest

from support.long_games import eire

pytestmark = pytest.mark.spec("4.5")


def test_a_paused_games_page_says_its_deadline_is_stopped(referee, outbox, clock, tmp_path):
    """The GM paused Eire for a holiday; its page went on saying "Deadline Tue 1 Dec 10:00" long
    after that hour had passed, as if the turn were overdue."""
    from mailref.config import SiteConfig
    from mailref.site import rebuild

    eire(
        referee,
        Finn="Color: Green\nTribe: Plainsmen\nOrigin: Llanc",
        Maeve="Color: Red\nTribe: Plainsmen\nOrigin: Donal",
    )
    referee.admin("eire", {"type": "pause", "reason": "holiday"}, "gm@ref.example")
    clock.advance(days=3)
    site = tmp_path / "site"
    rebuild(referee.store, SiteConfig(str(site)), now=clock())
    page = (site / "eire" / "index.html").read_text()
    assert (
        "stopped: the game is paused, and every deadline moves on by the pause when it resumes."
        in page
    )
    # The Grain column comes before color, tribe and origin: on a phone it is the one in view.
    assert page.index('<th scope="col">Grain</th>') < page.index('<th scope="col">Color</th>')
