"""Catching up with other processes' changes leaves alone a game whose build is due here: that
build lists it on the host's index from the state the daemon holds, so the round in between
does not read the game's state (a long game's is a large JSON document) only to list it."""

from __future__ import annotations

import pytest
from sqlalchemy import event

from mailref import site
from mailref.config import SiteConfig
from support.joining import join

pytestmark = pytest.mark.spec("6")

G = "nomes@ref.example"


def _states_read(referee, act) -> int:
    """How many statements ACT runs that read a game's state."""
    seen: list[str] = []

    def note(conn, cursor, statement, params, context, many) -> None:
        if "games.state" in statement:
            seen.append(statement)

    event.listen(referee.store.engine, "before_cursor_execute", note)
    try:
        act()
    finally:
        event.remove(referee.store.engine, "before_cursor_execute", note)
    return len(seen)


def test_catching_up_does_not_read_a_game_waiting_for_its_build(referee, tmp_path):
    referee.create_game("nomes", "sidekick", G)
    pages = SiteConfig(tmp_path / "site")
    site.rebuild(referee.store, pages)
    join(referee, "zelda@x.org", G, "Zelda")  # a change: the game's build is due
    assert _states_read(referee, lambda: site.catch_up(referee.store, pages, leave={"nomes"})) == 0
    # Without a build due here, the change is another process's: caught up with, state and all.
    assert _states_read(referee, lambda: site.catch_up(referee.store, pages)) > 0
    assert "Zelda" in (tmp_path / "site" / "nomes" / "index.html").read_text()
