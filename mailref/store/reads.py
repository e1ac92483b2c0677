"""What `mailref replay` reads: each game's initial and live state, its journal and its archived
matters (engine/archive.py).

A database whose schema is the newest is read with its own driver, one plain query per table:
a SQLite file with the standard library's sqlite3, PostgreSQL with psycopg. Importing
SQLAlchemy and building its engine were a third of the command's start-up (SPEC §8: replay,
start-up included, ≥ 5,000 journal entries/s). The reads are one read transaction, a snapshot
(WAL on SQLite, REPEATABLE READ on PostgreSQL), so a running daemon goes on writing meanwhile
and the live state and the journal are read at one moment. Any other database, or one whose
schema must first be upgraded, is read through the store (SQLAlchemy), which upgrades it as
every command does. Both give exactly what the typed columns give (tests/helpers.py
assert_replays)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

from mailref.store import lock_wait_ms, newest_revision, repair_sqlite_companions
from mailref.store.decode import Entry, decode_journal, decode_json


class GameRow(NamedTuple):
    id: int
    slug: str
    initial: dict[str, Any]
    state: dict[str, Any]


class PlainReads:
    """The reads of one connection of the database's own driver inside one read transaction:
    sqlite3, or psycopg on PostgreSQL, where the JSON and the times are read as text and
    decoded here as on SQLite (orjson reads the JSON; psycopg would use the json module)."""

    def __init__(self, conn: Any, postgres: bool = False):
        self.conn = conn
        p, text = ("%s", "::text") if postgres else ("?", "")
        at = (
            "to_char(at, 'YYYY-MM-DD HH24:MI:SS.US')" if postgres else "at"
        )  # whatever DateStyle says
        self._games = f"SELECT id, slug, initial{text}, state{text} FROM games"
        self._slug = f" WHERE slug = {p}"
        self._journal = (
            f"SELECT action{text}, {at}, draws{text} FROM journal WHERE game_id = {p} ORDER BY seq"
        )
        self._archived = (
            f"SELECT collection, data{text} FROM archived_matters WHERE game_id = {p} ORDER BY id"
        )

    def games(self, slug: str | None) -> list[GameRow]:
        rows = (
            self.conn.execute(self._games + self._slug + " ORDER BY id", (slug,))
            if slug
            else self.conn.execute(self._games + " ORDER BY id")
        )
        return [
            GameRow(i, s, decode_json(initial), decode_json(state)) for i, s, initial, state in rows
        ]

    def journal(self, game_id: int) -> list[Entry]:
        return decode_journal(self.conn.execute(self._journal, (game_id,)))

    def archived(self, game_id: int) -> list[tuple[str, dict[str, Any]]]:
        return [(c, decode_json(d)) for c, d in self.conn.execute(self._archived, (game_id,))]


class SessionReads:
    """The same reads through the store's SQLAlchemy session."""

    def __init__(self, session: Any):
        self.session = session

    def games(self, slug: str | None) -> list[GameRow]:
        from sqlalchemy import select

        from mailref.store.models import Game

        query = select(Game).order_by(Game.id)
        return [
            GameRow(g.id, g.slug, g.initial, g.state)
            for g in self.session.scalars(query.where(Game.slug == slug) if slug else query)
        ]

    def journal(self, game_id: int) -> list[Entry]:
        from mailref.store.archived import journal

        return journal(self.session, game_id)

    def archived(self, game_id: int) -> list[tuple[str, dict[str, Any]]]:
        from mailref.store.archived import archived

        return archived(self.session, game_id)


def open_sqlite(url: str) -> sqlite3.Connection | None:
    """A connection to the SQLite file of URL inside a read transaction, when the file exists and
    its schema is the newest; None otherwise (the store opens it, and upgrades it)."""
    if not url.startswith("sqlite:///") or ":memory:" in url or "?" in url:
        return None
    path = Path(url[len("sqlite:///") :])
    if not path.is_file():
        return None
    repair_sqlite_companions(path)  # as the store does when it opens a file
    try:
        conn = sqlite3.connect(path, isolation_level=None)
    except sqlite3.Error:
        return None
    try:
        conn.execute(f"PRAGMA busy_timeout={lock_wait_ms()}")
        conn.execute("BEGIN")  # deferred: a snapshot from the first read on, no write lock
        versions = [v for (v,) in conn.execute("SELECT version_num FROM alembic_version")]
    except sqlite3.Error:  # not a database of ours yet, or not readable: the store says what
        versions = []
    if versions != [newest_revision()]:
        conn.close()
        return None
    return conn


def open_postgres(url: str) -> Any | None:
    """A psycopg connection to the PostgreSQL database of URL (as the store names it,
    postgresql+psycopg://...), set for one read-only REPEATABLE READ transaction (a snapshot),
    when its schema is the newest; None otherwise (the store opens it, and says what is wrong)."""
    scheme = "postgresql+psycopg://"
    if not url.startswith(scheme):
        return None
    try:
        import psycopg
    except ImportError:
        return None
    try:  # the URL's parts and query are libpq's own, as SQLAlchemy hands them to psycopg
        conn = psycopg.connect("postgresql://" + url[len(scheme) :])
    except psycopg.Error:
        return None
    try:
        conn.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
        conn.read_only = True
        versions = [v for (v,) in conn.execute("SELECT version_num FROM alembic_version")]
    except psycopg.Error:
        versions = []
    if versions != [newest_revision()]:
        conn.close()
        return None
    return conn


def open_plain(url: str) -> PlainReads | None:
    """The reads of URL through its own driver, when it can take them (see the module's text)."""
    conn = open_sqlite(url)
    if conn is not None:
        return PlainReads(conn)
    conn = open_postgres(url)
    return None if conn is None else PlainReads(conn, postgres=True)


@contextmanager
def replay_reads(url: str, store: Callable[[], Any]) -> Iterator[PlainReads | SessionReads]:
    """The reads of the database at URL; STORE() gives the opened store when its own driver
    cannot."""
    plain = open_plain(url)
    if plain is not None:
        try:
            yield plain
        finally:
            plain.conn.close()
        return
    with store()() as session:
        yield SessionReads(session)
