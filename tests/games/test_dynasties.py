"""BlogNomic dynasties: the ascension address is read by the players."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, assert_replays
from support.joining import confirm_waiting
from support.play import addr, send

pytestmark = pytest.mark.spec("5.2")


def test_the_ascension_address_is_read_by_the_players(referee, outbox, clock):
    """Bob's DoV passes; his Ascension Address "Welcome to the dragon dynasty! …" changed the
    rules, but the players were sent only the rule changes: the words of the address were lost.
    The ruleset mail of the new dynasty now carries them (without the `Wizard: Dragon` lines)."""
    blog = "blog@ref.example"
    referee.create_game("blog", "blognomic", blog, gm="gm@ref.example")
    names = ["ann", "ben", "cat", "dan", "eve"]
    for n in names:
        send(referee, n, "[Join]", f"Name: {n.title()}", to=blog)
        confirm_waiting(referee)
    send(referee, "ben", "[DoV] I win", "All mine.", to=blog)
    for n in ("ann", "cat", "dan"):
        send(referee, n, "[Vote] 1", "FOR", to=blog)
    clock.advance(hours=12, seconds=1)
    referee.tick()
    assert referee.state("blog")["historian"] == "Ben"
    send(
        referee,
        "ben",
        "[Ascension] The Age of Dragons",
        "Welcome to the dragon dynasty!\nHoard well.\n\nWizard: Dragon\nKeep: 2.1\n",
        to=blog,
    )
    mail_ = [
        m for m in outbox.all() if m["X-Mailref-Kind"] == "ruleset" and m["To"] == addr("ann")
    ][-1]
    body = Outbox.body(mail_).replace("\r\n", "\n")
    assert (
        "The Ascension Address of Ben:\n\nWelcome to the dragon dynasty!\nHoard well." in body
    ), body[:600]
    assert "Wizard: Dragon" not in body.split("Changes:")[0]
    assert_replays(referee)
