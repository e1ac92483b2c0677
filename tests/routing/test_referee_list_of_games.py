"""The referee's list of games names each game once."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, mail

pytestmark = pytest.mark.spec("2.3")


def test_the_referees_list_of_games_names_each_game_once(referee, host):
    """SPEC §2.5: a mail with no tag to the referee's own address gets the games it runs, each
    with its address and variant; a game named as its variant is ("Eire") was listed
    "Eire — Eire (eire)"."""
    box = Outbox(referee)
    box.new()
    host(
        mail("stranger@x.org", "referee@ref.example", "hello", "What is this?"),
        "stranger@x.org",
        "referee@ref.example",
    )
    (help_,) = box.new()
    body = Outbox.body(help_)
    assert help_["X-Mailref-Kind"] == "help"
    assert "  Eire (eire), forming, 0 players" in body and "Eire — Eire" not in body, body
    assert "  Nomes — Nomic Sidekick Nomic (sidekick), active, 0 players" in body, body
    assert "address: eire@ref.example" in body and "address: nomes@ref.example" in body
