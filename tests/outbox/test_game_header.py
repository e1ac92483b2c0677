"""Mail that belongs to no game carries an empty game header."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, mail
from support.outside_smtp import CAROL, EMPIRE, NOMES

pytestmark = pytest.mark.spec("4.3")


def test_mail_that_belongs_to_no_game_carries_an_empty_game_header(referee, smtp):
    """SPEC §2.6: X-Mailref-Game is on everything mailref sends; the referee's own help (the
    list of games, for mail that names no game) has it empty, so a filter on a game's slug
    never takes it, and one on the header's presence takes all of mailref's mail."""
    referee.create_game("nomes", "sidekick", NOMES, name="Nomes")
    referee.create_game("empire", "imperial", EMPIRE, name="Empire")
    smtp(
        mail(CAROL, "referee@ref.example", "Hello?", "Which games are there?"),
        CAROL,
        "referee@ref.example",
    )
    smtp(mail(CAROL, NOMES, "[Help]", ""), CAROL, NOMES)
    helps = Outbox(referee).all()
    assert [(m["X-Mailref-Kind"], m["X-Mailref-Game"]) for m in helps] == [
        ("help", ""),
        ("help", "nomes"),
    ]
