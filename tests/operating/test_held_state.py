"""The state a referee holds between batches: the next mail starts from it only while the
game's version says nobody else changed the game, and it is always the state stored."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from mailref.referee import Referee
from mailref.store import Game, open_store
from support.helpers import send_mail

pytestmark = pytest.mark.spec("4.1")

G = "nomes@ref.example"


def alice(referee: Referee, subject: str, body: str = ""):
    return send_mail(referee, "alice@players.example", G, subject, body)


def stored_state(referee: Referee) -> dict:
    with referee.store() as s:
        return s.scalar(select(Game.state).where(Game.slug == "nomes"))


def carol_added_by_another_process(referee: Referee) -> None:
    """The admin's CLI, a process of its own, adds Carol to the game."""
    cli = Referee(open_store(str(referee.store.engine.url), migrate=False), referee.settings)
    try:
        cli.admin(
            "nomes",
            {"type": "player_add", "name": "Carol", "address": "carol@players.example"},
            "admin",
        )
    finally:
        cli.store.dispose()


@pytest.fixture
def nomes(referee):
    referee.create_game("nomes", "sidekick", G, gm="gm@ref.example")
    for name in ("Alice", "Bob"):
        referee.admin(
            "nomes",
            {"type": "player_add", "name": name, "address": f"{name.lower()}@players.example"},
            "test",
        )
    return referee


def test_a_change_another_process_made_is_kept_by_the_next_mail(nomes):
    alice(nomes, "[Away]")  # this referee now holds the state it committed
    carol_added_by_another_process(nomes)
    alice(nomes, "[Back]")
    names = [p["name"] for p in stored_state(nomes)["players"]]
    assert "Carol" in names
    assert next(p for p in stored_state(nomes)["players"] if p["name"] == "Alice")["status"] in (
        "active",
        "playing",
    )


def test_after_refused_and_accepted_mail_the_state_held_is_the_state_stored(nomes):
    alice(nomes, "[Proposal] Too soon", 'Enact rule 7 "Taken":\nA rule number in use.\n')
    alice(nomes, "[Proposal] Fine", 'Enact rule 99 "Fine":\nPlayers may sing.\n')
    alice(nomes, "[Proposal] Again", 'Enact rule 98 "Again":\nPlayers may dance.\n')
    send_mail(nomes, "bob@players.example", G, "[Vote] Nonsense", "FOR 77\n")
    version, held = nomes.states["nomes"]
    with nomes.store() as s:
        game = s.scalar(select(Game).where(Game.slug == "nomes"))
        assert (version, held) == (game.version, game.state)


def test_a_deadline_leaves_the_state_it_committed_held_and_sees_other_processes(nomes):
    nomes.clock.advance(days=6)  # the first turn's five days are over: the mover is skipped
    assert nomes.tick() == ["nomes"]
    with nomes.store() as s:
        version = s.scalar(select(Game.version).where(Game.slug == "nomes"))
    assert nomes.states["nomes"] == (version, stored_state(nomes))
    carol_added_by_another_process(nomes)
    nomes.clock.advance(days=6)  # the next turn's deadline: fired on the state Carol is in
    assert nomes.tick() == ["nomes"]
    assert "Carol" in [p["name"] for p in stored_state(nomes)["players"]]
    assert nomes.states["nomes"][1] == stored_state(nomes)
