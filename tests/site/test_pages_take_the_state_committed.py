"""The pages after a change are made from the state the referee committed, lent with its
version, not from the store's copy decoded again (a long game's state is megabytes of JSON);
a lent state of another version than the store's is left, and the store's read."""

from __future__ import annotations

import copy

import pytest

from mailref.config import SiteConfig
from mailref.site import rebuild
from mailref.store import Game
from support import clients
from support.client_play import NOMES, play

pytestmark = pytest.mark.spec("4.5")


def _joined(referee) -> None:
    referee.create_game("nomes", "sidekick", NOMES, gm="gm@ref.example")
    play(referee, clients.fresh("alice@players.example", "Alice", NOMES, "[Join]", "Name: Alice\n"))


def _version(referee) -> int:
    with referee.store() as s:
        return s.query(Game.version).filter(Game.slug == "nomes").scalar()


@pytest.mark.parametrize(("behind", "taken"), [(0, True), (1, False)])
def test_the_pages_take_the_lent_state_of_the_version_stored(referee, tmp_path, behind, taken):
    _joined(referee)
    stored = referee.state("nomes")["name"]
    lent = copy.deepcopy(referee.state("nomes"))
    lent["name"] = "Lent Nomic"  # a state no row holds: seen only if taken as lent
    site = SiteConfig(tmp_path / "site")
    held = (_version(referee) - behind, lent)
    rebuild(referee.store, site, "nomes", now=referee.clock(), force=False, held=held)
    index = (tmp_path / "site" / "nomes" / "index.html").read_text()
    assert ("<title>Lent Nomic" in index) == taken
    assert (f"<title>{stored}" in index) != taken
