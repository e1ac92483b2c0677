"""The dynasty ruleset mail and the help read without gaps or broken lines."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, mail
from support.play import addr, send  # the same players' addresses, mail sent the same way
from support.play_four import BLOG, EMP, last

pytestmark = pytest.mark.spec("2.6")


def test_the_dynasty_ruleset_mail_and_the_help_read_without_gaps_or_broken_lines(
    referee, outbox, dov_after_12h
):
    """Guards against a double blank line before the rule list of a new dynasty's ruleset mail,
    and against a help text hard-wrapped mid-sentence ("Write to the\\ngame you play"),
    which phones show as ragged lines."""
    dov_after_12h("bob", {"alice": "FOR", "carol": "FOR", "zoe": "FOR"})
    send(
        referee,
        "bob",
        "[Ascension] The Age of Dragons",
        "Welcome!\n\nWizard: Dragon\nKeep: 2.1\n",
        to=BLOG,
    )
    ruleset = last(outbox, addr("alice"), "ruleset")
    body = Outbox.body(ruleset).replace("\r\n", "\n")
    assert "\n\n\n" not in body, repr(body[body.index("\n\n\n") - 200 : body.index("\n\n\n") + 50])
    assert "The full rule list now reads:\n\n1.1. " in body
    referee.create_game(
        "emp", "imperial", EMP, gm="gm@ref.example"
    )  # two games: the referee's own help
    referee.accept(
        mail("newbie@players.example", "referee@ref.example", "hello", "How do I play?"), "smtp"
    )
    help_ = Outbox.body(last(outbox, "newbie@players.example", "help")).replace("\r\n", "\n")
    assert "Write to the game you play (a plain Reply to any of its mails does that)." in help_
    assert "e.g. [Join] or [Status]; send [Help]" in help_
