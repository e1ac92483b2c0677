"""The facts a deadline gathers for the GM's digest (mail refused in the last day) are read from
the game's mail of that day alone, through an index: a game of thousands of mails costs each
deadline what a new game's does. The query's plan is read from SQLite itself (PostgreSQL plans
an empty table by its own statistics, whatever the indexes)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import text
from sqlalchemy.orm import Session

from mailref.referee import facts
from mailref.store import Game


def _plans(s: Session) -> list[str]:
    """The plan SQLite makes for each statement digest_facts runs."""
    said: list[str] = []
    real = s.execute

    def explained(statement, *args, **kw):
        sql = str(statement.compile(s.get_bind(), compile_kwargs={"literal_binds": True}))
        said.append(" ".join(str(r) for r in real(text("EXPLAIN QUERY PLAN " + sql)).all()))
        return real(statement, *args, **kw)

    s.execute = explained  # type: ignore[method-assign]
    s.scalar = lambda statement, *a, **k: explained(statement, *a, **k).scalar()  # type: ignore[method-assign]
    game = Game(slug="nomes")
    facts.digest_facts(s, game, datetime(2026, 12, 7, tzinfo=UTC) + timedelta(days=1))
    return said


def test_the_mail_refused_in_the_last_day_is_found_by_game_and_time(referee) -> None:
    if referee.store.engine.dialect.name != "sqlite":
        pytest.skip("PostgreSQL plans an empty table by its own statistics")
    with referee.store() as s:
        plans = _plans(s)
    refused = [p for p in plans if "received_at" in p]
    assert refused and all("ix_inbox_game_slug_received_at" in p for p in refused), plans
