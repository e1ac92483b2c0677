"""SQLAlchemy 2 store: one engine per database, WAL on SQLite, migrations on start."""

from __future__ import annotations

import functools
import logging
import os
import time
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError, DisconnectionError
from sqlalchemy.orm import Session, sessionmaker

from mailref.store import (
    _MIGRATIONS,
    fastjson,
    lock_wait_ms,
    newest_revision,
    repair_sqlite_companions,
)
from mailref.store.walindex import reserve_wal_index


class Store:
    def __init__(self, engine: Engine):
        self.engine = engine
        self.session = sessionmaker(engine, expire_on_commit=False)

    def __call__(self) -> Session:
        return self.session()

    def dispose(self) -> None:
        self.engine.dispose()

    @functools.cached_property
    def autocommit(self) -> Engine:
        """The same pool, each statement its own transaction: on a server, one round trip
        instead of three (BEGIN, the statement, COMMIT)."""
        return self.engine.execution_options(isolation_level="AUTOCOMMIT")

    def reader(self) -> Connection:
        """A connection for reading only: on SQLite its transaction is a plain BEGIN, which
        never waits for a writer (WAL), where every other transaction takes the write lock."""
        return self.engine.connect().execution_options(reader=True)


def _sqlite_pragmas(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _connect(dbapi_conn: Any, _rec: Any) -> None:
        # Let SQLAlchemy's BEGIN below be the only transaction control.
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.execute(f"PRAGMA busy_timeout={lock_wait_ms()}")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.close()
        reserve_wal_index(
            dbapi_conn
        )  # a full disk is then an error, not a SIGBUS (store/walindex.py)

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        # IMMEDIATE takes the write lock at BEGIN: the daemon and the CLI never interleave
        # a read-modify-write of the same game.
        conn.exec_driver_sql(
            "BEGIN" if conn.get_execution_options().get("reader") else "BEGIN IMMEDIATE"
        )


# Seconds a pooled server connection may rest before it is pinged at checkout. Short: the
# daemon's own loops (delivery every second, processing every two) take a connection at
# about that pace, and a server restarted while the daemon idles must cost no error line.
PING_RESTED = 0.1


def _ping_when_rested(engine: Engine) -> None:
    """A server may have dropped a pooled connection (a restart, an idle timeout, a failover):
    one that rested PING_RESTED or more is pinged when taken from the pool, and a dead one is
    replaced there, before any statement of ours fails on it. SQLAlchemy's pool_pre_ping pings at
    every checkout: a round trip before each transaction, in a burst before every mail kept and
    every row marked sent. A connection used again at once, as in a burst, is not pinged: it
    was alive a moment ago; if the server went in between, the statement fails as it would
    have a moment later and the pool is renewed (the listener keeps its mail on a new
    connection: store/keep.py; a batch stays new, taken up on the next try)."""

    @event.listens_for(engine, "checkin")
    def _rested(dbapi_conn: Any, record: Any) -> None:
        record.info["rested_since"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _awake(dbapi_conn: Any, record: Any, proxy: Any) -> None:
        since = record.info.pop("rested_since", None)
        if since is None or time.monotonic() - since < PING_RESTED:
            return
        try:
            engine.dialect.do_ping(dbapi_conn)
        except engine.dialect.loaded_dbapi.Error as e:
            raise DisconnectionError(
                f"a pooled connection was dropped by the server: {e}"
            ) from e  # the pool reconnects


def _create_private(path: Path) -> None:
    """A new database file is 0640 whatever the umask: it holds the players' addresses. The
    unit's UMask=0027 said so for the daemon, but the first `mailref game create`, run by an
    operator's shell (umask 022) before the service ever started, made it readable by every user
    of the host. SQLite gives its -wal and -shm files the mode of the database file."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o640))
    except FileExistsError:
        return
    except OSError:
        pass  # SQLite says why it cannot create the file, in the operator's words (store/faults.py)


def open_store(url: str, migrate: bool = True) -> Store:
    if url.startswith("sqlite:///") and ":memory:" not in url:
        path = Path(
            url[len("sqlite:///") :].split("?", 1)[0]
        )  # "?timeout=20": the driver's, not the file's
        path.parent.mkdir(parents=True, exist_ok=True)
        _create_private(path)
        repair_sqlite_companions(path)
    engine = create_engine(
        url, future=True, json_serializer=fastjson.dumps, json_deserializer=fastjson.loads
    )
    if engine.dialect.name == "sqlite":
        _sqlite_pragmas(engine)  # a file cannot drop a connection: no ping at all
    else:
        _ping_when_rested(engine)
    store = Store(engine)
    if migrate:
        upgrade(store)
    return store


def _at_newest(store: Store) -> bool:
    try:
        with store.engine.connect() as conn:
            versions = [
                v for (v,) in conn.exec_driver_sql("SELECT version_num FROM alembic_version")
            ]
    except DBAPIError:  # no table yet: a new database
        return False
    return versions == [newest_revision()]


def upgrade(store: Store) -> None:
    """Bring the schema to the newest Alembic revision. A database already there is left as it
    is without loading Alembic and its scripts, which is most of a command's start-up."""
    if _at_newest(store):
        return
    from alembic import command
    from alembic.config import Config

    was = _schema(store)
    cfg = Config()
    cfg.set_main_option("script_location", str(_MIGRATIONS))
    cfg.attributes["connection_engine"] = store.engine
    command.upgrade(cfg, "head")
    # an operator sees that the database changed, and by which command (docs/operating.md,
    # "Upgrade")
    if was:
        logging.getLogger("mailref.store").warning(
            "upgraded the database %s from schema %s to %s (an older mailref must not run on it "
            "now)",
            store.engine.url.render_as_string(hide_password=True),
            was,
            newest_revision(),
        )


def _schema(store: Store) -> str | None:
    """The database's schema revision, or None for a new one."""
    try:
        with store.engine.connect() as conn:
            return conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalar()
    except DBAPIError:
        return None
