"""SQLAlchemy 2 store: one engine per database, WAL on SQLite, migrations on start."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker

from mailref.store.models import (
    Base,
    Bounce,
    Game,
    ImapCursor,
    InboxMessage,
    JournalEntry,
    OutboxMessage,
    ReplyQuota,
)

__all__ = ["Base", "Bounce", "Game", "ImapCursor", "InboxMessage", "JournalEntry", "OutboxMessage",
           "ReplyQuota", "Store", "open_store", "upgrade"]

_MIGRATIONS = Path(__file__).resolve().parent / "migrations"


class Store:
    def __init__(self, engine: Engine):
        self.engine = engine
        self.session = sessionmaker(engine, expire_on_commit=False)

    def __call__(self) -> Session:
        return self.session()

    def dispose(self) -> None:
        self.engine.dispose()


def _sqlite_pragmas(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _connect(dbapi_conn, _rec):
        # Let SQLAlchemy's BEGIN below be the only transaction control.
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.execute("PRAGMA busy_timeout=30000")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.close()

    @event.listens_for(engine, "begin")
    def _begin(conn):
        # IMMEDIATE takes the write lock at BEGIN: the daemon and the CLI never interleave
        # a read-modify-write of the same game.
        conn.exec_driver_sql("BEGIN IMMEDIATE")


def open_store(url: str, migrate: bool = True) -> Store:
    if url.startswith("sqlite:///") and ":memory:" not in url:
        Path(url[len("sqlite:///"):]).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, future=True, pool_pre_ping=True)
    if engine.dialect.name == "sqlite":
        _sqlite_pragmas(engine)
    store = Store(engine)
    if migrate:
        upgrade(store)
    return store


def upgrade(store: Store) -> None:
    """Bring the schema to the newest Alembic revision."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(_MIGRATIONS))
    cfg.attributes["connection_engine"] = store.engine
    command.upgrade(cfg, "head")
