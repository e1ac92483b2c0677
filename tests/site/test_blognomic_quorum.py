"""A BlogNomic page says the quorum."""

from __future__ import annotations

import pytest

from mailref.config import SiteConfig
from mailref.site import rebuild
from support.helpers import mail, make_referee
from support.joining import confirm_waiting

pytestmark = pytest.mark.spec("4.5")


def test_a_blognomic_page_says_the_quorum(tmp_path, clock, browser):
    """BlogNomic decides every matter by quorum (half the active Wizards, plus one); its page
    showed votes but never the number they are counted against."""
    referee = make_referee(tmp_path, clock)
    referee.create_game("blog", "blognomic", "blog@ref.example")
    for i, name in enumerate(["Alice", "Bob", "Carol", "Dave", "Erin"]):
        referee.accept(mail(f"p{i}@players.example", "blog@ref.example", "[Join]", f"Name: {name}"))
        confirm_waiting(referee)
    assert rebuild(referee.store, SiteConfig(tmp_path / "site")) == ["blog"]
    page = browser.open(tmp_path / "site" / "blog" / "index.html")
    assert "quorum 3" in page.text, page.text
