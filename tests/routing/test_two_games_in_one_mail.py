"""One mail whose recipients name two games of the host is answered by each (SPEC §2.3)."""

from __future__ import annotations

import email.utils

import pytest
from sqlalchemy import select

from mailref.store import InboxMessage
from support.helpers import mail

pytestmark = pytest.mark.spec("2.3")

G1, G2 = "nomes@ref.example", "blog@ref.example"


def test_a_mail_to_two_games_is_answered_by_each_in_its_own_words(referee, outbox):
    referee.create_game("nomes", "sidekick", G1)
    referee.create_game("blog", "blognomic", G2)
    outbox.new()
    referee.accept(mail("alice@x.org", G1, "[Help]", headers={"Cc": G2}))
    new = outbox.new()
    got = sorted((email.utils.parseaddr(m["From"])[1], m["To"], m["X-Mailref-Game"]) for m in new)
    assert got == [(G2, "alice@x.org", "blog"), (G1, "alice@x.org", "nomes")], got
    subjects = sorted(m["Subject"] for m in new)
    assert subjects == ["Re: [BlogNomic] [Help]", "Re: [Nomic Sidekick Nomic] [Help]"]
    with referee.store() as s:
        row = s.scalar(select(InboxMessage))
    assert (row.status, row.game_slug) == ("processed", "nomes")
    assert "blog:" in row.verdict


def test_a_join_sent_to_two_games_asks_each_games_confirmation(referee, outbox):
    referee.create_game("nomes", "sidekick", G1)
    referee.create_game("blog", "blognomic", G2)
    outbox.new()
    referee.accept(mail("bob@x.org", f"{G1}, {G2}", "[Join]", "Name: Bob"))
    games = sorted(m["X-Mailref-Game"] for m in outbox.new() if m["To"] == "bob@x.org")
    assert games == ["blog", "nomes"]


def test_each_games_own_copy_of_a_mail_to_two_games_gets_one_answer_from_each_game(referee, outbox):
    """A mail server that hands each game its own copy (each with its Delivered-To) names both
    games in To on each: the first copy is answered by both, the second is the same mail."""
    referee.create_game("nomes", "sidekick", G1)
    referee.create_game("blog", "blognomic", G2)
    outbox.new()
    raw = mail("carol@x.org", f"{G1}, {G2}", "[Help]")
    referee.accept(b"Delivered-To: " + G2.encode() + b"\r\n" + raw)
    referee.accept(b"Delivered-To: " + G1.encode() + b"\r\n" + raw)
    games = sorted(m["X-Mailref-Game"] for m in outbox.new() if m["To"] == "carol@x.org")
    assert games == ["blog", "nomes"]
