"""Machine mail to a game is logged with that game."""

from __future__ import annotations

import pytest

from support.helpers import mail

pytestmark = pytest.mark.spec("2.2")


def test_machine_mail_to_a_game_is_logged_with_that_game(referee, smtp, caplog):
    """SPEC §7: one log line per mail handled names the game. An auto-reply to a game's address
    (ignored before routing, SPEC §2.2) was logged `game=-`: an operator watching a flood of them
    could not tell which game's address drew it."""
    import logging

    referee.create_game("nomes", "sidekick", "nomes@ref.example", name="Nomes")
    referee.create_game(
        "other", "sidekick", "other@ref.example", name="Other"
    )  # two games: no default one
    with caplog.at_level(logging.INFO, logger="mailref"):
        smtp(
            mail(
                "robot@x.org",
                "nomes@ref.example",
                "Out of office",
                "Back Monday.",
                headers={"Auto-Submitted": "auto-replied"},
            ),
            "robot@x.org",
            "nomes@ref.example",
        )
    (line,) = [r.getMessage() for r in caplog.records if r.getMessage().startswith("mail #")]
    assert (
        "from robot@x.org game=nomes tag=-: ignored: machine: Auto-Submitted: auto-replied" in line
    ), line
