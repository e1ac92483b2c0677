"""A turn order of right-to-left names reads in turn order."""

from __future__ import annotations

import json

import pytest

from mailref.config import SiteConfig
from mailref.site import rebuild
from support.daemon_processes import LEFT_OF, G
from support.helpers import mail, make_referee
from support.joining import confirm_waiting

pytestmark = pytest.mark.spec("4.5")


def test_a_turn_order_of_right_to_left_names_reads_in_turn_order(tmp_path, clock, browser):
    """Names are shown as written, and a list of them in the order it has: "Turn order: A → B → C"
    with Hebrew and Arabic names next to each other was laid out as one right-to-left run (the
    arrows between them are neutral), so a reader saw the turn order reversed. Each name is now
    isolated (<bdi>); the page's line reads left to right in turn order."""
    referee = make_referee(tmp_path, clock)
    referee.create_game("nomes", "sidekick", G)
    for i, name in enumerate(["עליזה", "محمد", "דוד", "Zoë"]):
        referee.accept(mail(f"p{i}@players.example", G, "[Join]", f"Name: {name}"))
        confirm_waiting(referee)
    order = referee.state("nomes")["order"]
    assert rebuild(referee.store, SiteConfig(tmp_path / "site")) == ["nomes"]
    page = browser.open(tmp_path / "site" / "nomes" / "index.html")
    assert "Turn order: " + " → ".join(order) in page.text
    left = browser.evaluate(LEFT_OF + "(" + json.dumps(order) + ")")
    assert sorted(order, key=left.get) == order, (order, left)
