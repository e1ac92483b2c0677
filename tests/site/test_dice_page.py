"""The game's dice page: every seed's SHA-256, the seeds revealed, and each roll recomputed."""

from __future__ import annotations

import hashlib
import re

import pytest

from mailref.config import SiteConfig
from mailref.site import rebuild
from support.joining import confirm_waiting
from support.play import send

pytestmark = pytest.mark.spec("4.4", "4.5")


def test_the_dice_page_recomputes_every_revealed_roll(referee, tmp_path):
    referee.rng = None  # the seed chain, as a server draws
    referee.create_game("g", "blognomic", "nomes@ref.example", gm="gm@ref.example")
    send(referee, "alice", "[Join]", "Name: Alice")
    confirm_waiting(referee)
    send(referee, "alice", "[Roll] 2d6")
    site = tmp_path / "site"
    rebuild(referee.store, SiteConfig(site), now=referee.clock())
    page = (site / "g" / "dice.html").read_text()
    [committed] = re.findall(r"<code>([0-9a-f]{64})</code>", page)
    assert "not revealed yet" in page and "when the seed is revealed" in page
    assert 'href="dice.html"' in (site / "g" / "index.html").read_text()
    referee.admin("g", {"type": "dice_reveal"}, "gm")
    rebuild(referee.store, SiteConfig(site), now=referee.clock())
    page = (site / "g" / "dice.html").read_text()
    seed = re.findall(r"<code>([0-9a-f]{64})</code>", page)[1]
    assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == committed
    assert "2 draws recomputed from revealed seeds: all match." in page
    assert re.search(
        r"<td>1\.\.6, 1\.\.6</td>\s*<td>(\d), (\d)</td>\s*<td>\1, \2: match</td>", page
    ), page
