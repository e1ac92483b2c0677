"""What one mail costs the database: the statements a mail causes, counted as the
database sees them. A read-only command ([Status], [Rules], [Help]) never writes the game, and
no mail writes its inbox row more than once (an early flush did, before every query)."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import event

from support.helpers import mail

pytestmark = pytest.mark.spec("8")

G = "nomes@ref.example"


@pytest.fixture
def statements(referee):
    seen: list[str] = []

    def record(conn, cursor, statement, parameters, context, executemany):
        seen.append(" ".join(statement.split()))

    event.listen(referee.store.engine, "before_cursor_execute", record)
    yield seen
    event.remove(referee.store.engine, "before_cursor_execute", record)


def writes(seen: list[str]) -> list[str]:
    """The statements that change a table (transaction control and savepoints aside)."""
    return [s for s in seen if re.match(r"(INSERT|UPDATE|DELETE)\b", s)]


def test_read_only_commands_write_nothing_of_the_game(referee, statements):
    referee.create_game("nomes", "sidekick", G, gm="gm@ref.example")
    referee.admin(
        "nomes", {"type": "player_add", "name": "Alice", "address": "alice@players.example"}, "test"
    )
    for subject in ("[Status]", "[Rules]", "[Help]"):
        statements.clear()
        stored = referee.accept(
            mail("alice@players.example", G, subject), "smtp", "alice@players.example", [G]
        )
        assert stored.status == "processed"
        changed = writes(statements)
        assert not [
            s
            for s in changed
            if re.match(r"(UPDATE games|INSERT INTO (journal|archived_matters))\b", s)
        ]
        # the inbox row stored, claimed and written once; the quota counted; the one reply queued
        assert len([s for s in changed if s.startswith("UPDATE inbox")]) <= 2, changed
        assert len([s for s in changed if s.startswith("INSERT INTO outbox")]) == 1
        assert len(changed) <= 5, changed


def test_a_ballot_writes_the_game_once(referee, statements):
    referee.create_game("nomes", "sidekick", G, gm="gm@ref.example")
    for name in ("Alice", "Bob", "Carol"):
        referee.admin(
            "nomes",
            {"type": "player_add", "name": name, "address": f"{name.lower()}@players.example"},
            "t",
        )
    mover = referee.state("nomes")["turn"]["player"]
    a = f"{mover.lower()}@players.example"
    referee.accept(
        mail(a, G, "[Proposal] Hum", 'Enact rule 301 "Hum":\nPlayers may hum.\n'), "smtp", a, [G]
    )
    voter = next(n for n in ("Alice", "Bob", "Carol") if n != mover).lower() + "@players.example"
    statements.clear()
    referee.accept(mail(voter, G, "Re: [Proposal 1] Hum", "AGAINST\n"), "smtp", voter, [G])
    changed = writes(statements)
    assert len([s for s in changed if s.startswith("UPDATE games")]) == 1
    assert len([s for s in changed if s.startswith("INSERT INTO journal")]) == 1
    assert len([s for s in changed if s.startswith("UPDATE inbox")]) <= 2, changed
