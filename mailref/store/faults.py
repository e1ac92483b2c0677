"""Store faults in an operator's words: a read-only database, a full disk, a lock held by
another process. Each is said in one line, once while it lasts, and once more when it
clears, so a fault never floods the log (SPEC §7)."""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy.exc import DBAPIError, OperationalError

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine


def is_store_fault(exc: BaseException) -> bool:
    """The database could not be used (not a bug in what we asked of it)."""
    import sqlite3

    faults: tuple[type[BaseException], ...] = (OperationalError, OSError, sqlite3.OperationalError)
    try:  # `mailref replay` reads PostgreSQL with psycopg alone (store/reads.py)
        from psycopg import OperationalError as ServerFault

        faults += (ServerFault,)
    except ImportError:
        pass
    return isinstance(exc, faults) or (isinstance(exc, DBAPIError) and exc.connection_invalidated)


def describe(exc: BaseException, path: Path | None = None) -> str:
    """One line saying what is wrong with the store (the SQLite file PATH, if known) and what to
    do."""
    if path is not None:
        why = _probe(path.parent)
        if why:
            return why
    orig = getattr(exc, "orig", None) or exc
    text = str(orig).strip().splitlines()[0] if str(orig).strip() else type(orig).__name__
    low = text.lower()
    if "readonly" in low or "read-only" in low:
        return (
            f"the database is read-only ({text}): make the database file, its -wal and -shm "
            "files and their folder writable"
        )
    if "disk is full" in low or "no space" in low or "disk full" in low:
        return f"the disk holding the database is full ({text}): free space"
    if "locked" in low or "busy" in low:
        return f"the database is locked by another process ({text}): it is retried"
    if "disk i/o error" in low:
        return f"the database could not be written ({text}): is its disk read-only or failing?"
    if "unable to open" in low:
        return f"the database cannot be opened ({text}): check the path and its permissions"
    if "could not connect" in low or "connection refused" in low:
        return f"the database server is unreachable ({text})"
    return f"{type(orig).__name__}: {text}"


def _probe(folder: Path) -> str | None:
    """Try to write in FOLDER, as SQLite must for its -wal and -shm files."""
    import errno
    import tempfile

    try:
        with tempfile.TemporaryFile(dir=folder, prefix=".mailref-probe-"):
            return None
    except OSError as e:
        if e.errno == errno.EROFS:
            return (
                f"the filesystem holding {folder} is read-only (remounted after a disk error?): "
                "make it writable"
            )
        if e.errno == errno.ENOSPC:
            return f"the disk holding {folder} is full: free space"
        if e.errno in (errno.EACCES, errno.EPERM):
            return (
                f"{folder} is not writable by this user: the database needs it writable for its "
                "-wal and -shm files"
            )
        return None


def sqlite_file(engine: Engine) -> Path | None:
    """The database file of ENGINE (an SQLAlchemy engine) when it is SQLite, else None."""
    url = engine.url
    return (
        Path(url.database)
        if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:")
        else None
    )


def is_dropped_connection(exc: BaseException) -> bool:
    """The server ended a connection we held (a restart, an admin's pg_terminate_backend, an
    idle timeout): SQLAlchemy has already thrown it away and renews the pool."""
    return isinstance(exc, DBAPIError) and exc.connection_invalidated


# The faults said once for the whole process, by whom: line -> (FaultLog id, what).
_SAID: dict[str, tuple[int, str]] = {}
_GUARD = threading.Lock()


def _one_for_all(line: str) -> bool:
    return line.startswith("the database is locked")


class FaultLog:
    """Logs each fault of WHAT once, and its recovery once. A connection the server dropped is
    not yet a fault: the next try runs on a new connection, and only if that fails too is it
    said as one (a PostgreSQL restart must not leave an ERROR behind when nothing was lost)."""

    def __init__(self, log: logging.Logger, path: Path | None = None):
        self.log = log
        # The SQLite file, if the store is one: a fault is said as what is wrong with its
        # folder (read-only, full) when that is the cause, one stable line, where SQLite's
        # own errors alternate ("disk I/O error", "attempt to write a readonly database")
        # and each change of words was said again.
        self.path = path
        self.current: dict[str, str] = {}
        self.dropped: set[str] = set()  # WHATs whose last try lost its connection, not yet said

    def failed(self, what: str, exc: BaseException) -> str:
        line = describe(exc, self.path)
        if is_dropped_connection(exc) and what not in self.current and what not in self.dropped:
            self.dropped.add(what)
            self.log.info(
                "%s: the database dropped our connection (%s); trying again on a new one",
                what,
                line,
            )
            return line
        self.dropped.discard(what)
        return self.say(what, line)

    def say(self, what: str, line: str) -> str:
        """Log LINE about WHAT unless it is what was said last. A lock held by another process
        stops every part of the process at once (processing, the outbox, the deadlines): that
        is said once, by the part that met it first."""
        if self.current.get(what) == line:
            return line
        if _one_for_all(line):
            with _GUARD:
                if _SAID.setdefault(line, (id(self), what)) != (id(self), what):
                    return line
        self.current[what] = line
        self.log.error("%s: %s", what, line)
        return line

    def cleared(self, what: str) -> None:
        self.dropped.discard(what)
        line = self.current.pop(what, None)
        if line is not None:
            if _one_for_all(line):
                with _GUARD:
                    _SAID.pop(line, None)
            self.log.info("%s: working again", what)

    def active(self, what: str) -> bool:
        return what in self.current
