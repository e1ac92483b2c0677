"""Two games of one variant made without a name: the second's name carries its slug, so the
subjects and senders of their mail tell them apart (SPEC §2.6)."""

from __future__ import annotations

import email.utils

import pytest

from support.helpers import mail

pytestmark = pytest.mark.spec("2.6")

G1, G2 = "nomes@ref.example", "nomes2@ref.example"


def test_two_games_with_the_default_name_are_told_apart_in_every_subject(referee, outbox):
    referee.create_game("nomes", "sidekick", G1)
    referee.create_game("nomes2", "sidekick", G2)
    referee.create_game("blog", "blognomic", "blog@ref.example")
    assert [referee.state(s)["name"] for s in ("nomes", "nomes2", "blog")] == [
        "Nomic Sidekick Nomic",
        "Nomic Sidekick Nomic (nomes2)",
        "BlogNomic",
    ]
    outbox.new()
    referee.accept(mail("alice@x.org", G1, "[Help]"))
    referee.accept(mail("alice@x.org", G2, "[Help]"))
    first, second = outbox.new()
    assert first["Subject"] == "Re: [Nomic Sidekick Nomic] [Help]"
    assert second["Subject"] == "Re: [Nomic Sidekick Nomic (nomes2)] [Help]"
    assert email.utils.parseaddr(first["From"]) == ("Nomic Sidekick Nomic", G1)
    assert email.utils.parseaddr(second["From"]) == ("Nomic Sidekick Nomic (nomes2)", G2)
    # A name given is kept as given.
    referee.create_game("nomes3", "sidekick", "nomes3@ref.example", name="The Nomes")
    assert referee.state("nomes3")["name"] == "The Nomes"


def test_two_games_given_the_same_name_are_told_apart_in_every_subject(referee, outbox):
    """`--name "The Nomes"` given to two games: both used to send "[The Nomes] …", so a player
    of both could not tell them apart. Now the second's name carries its slug."""
    referee.create_game("nomes", "sidekick", G1, name="The Nomes")
    referee.create_game("nomes2", "sidekick", G2, name="the nomes")
    assert referee.state("nomes2")["name"] == "the nomes (nomes2)"
    outbox.new()
    referee.accept(mail("alice@x.org", G1, "[Help]"))
    referee.accept(mail("alice@x.org", G2, "[Help]"))
    first, second = outbox.new()
    assert first["Subject"] == "Re: [The Nomes] [Help]"
    assert second["Subject"] == "Re: [the nomes (nomes2)] [Help]"
