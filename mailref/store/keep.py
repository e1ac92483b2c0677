"""Keeping raw mail: the one write before every SMTP 250 and every IMAP move.

A second delivery of the same bytes is the row we have; a different message under a
Message-ID we already hold is kept but marked "ignored" (never processed twice).

Each mail is one statement, the same text on SQLite and PostgreSQL: an INSERT that decides
"new" or "ignored" itself and does nothing when the same bytes are already kept (then one
SELECT finds them). Mail committed together (the listener's group commit, an IMAP batch)
shares one transaction, and each statement sees the ones before it.
- On SQLite it goes through the pool's DBAPI connection directly: BEGIN IMMEDIATE, the
  INSERT, COMMIT cost about a sixth of SQLAlchemy's execution machinery around the same
  statements, and this runs before every 250 the listener gives.
- On PostgreSQL a single mail is one round trip in autocommit (four before: BEGIN, the
  lookup, the insert, COMMIT, each a wake-up of the server's process), sent through psycopg
  directly (which prepares it on the server after a few mails, unless the URL's
  prepare_threshold says otherwise): SQLAlchemy's execution around it cost as much CPU as the
  rest of keeping the mail.
The values written are the ones SQLAlchemy writes: tests/test_keep.py compares the rows
(docs/decisions/storage.md)."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from functools import partial
from typing import Any, NamedTuple, cast

from sqlalchemy import bindparam, text

from mailref.read.dedupe import author
from mailref.store import Store, fastjson, lock_wait_ms
from mailref.store.models import Json, UTCDateTime


class Incoming(NamedTuple):
    """One mail as transport hands it over to be kept."""

    raw: bytes
    source: str  # "smtp", "lmtp", "imap:FOLDER:UIDVALIDITY:UID", ...
    mail_from: str = ""  # the SMTP envelope's sender ("<>": a machine's)
    rcpt_to: list[str] | None = None  # the SMTP envelope's recipients
    received: datetime | None = None  # when the mail server received it (IMAP); else now
    # (size, limit): RAW is only the header of a mail too large to read (referee/too_large.py)
    over_limit: tuple[int, int] | None = None


Prepared = tuple[
    bytes, str, str, list[str], str, str
]  # raw, source, mail_from, rcpt_to, sha256, message_id
Kept = tuple[int, bool, str]  # the row's id, whether it is new, its status
Row = Sequence[Any]  # a row as a driver gives it: (id, status)

# "ignored" when another message of the same author (From) holds this Message-ID, or this is a
# list's copy (mail/dedupe.py: a Message-ID alone is a sender's to choose), unless that one was
# refused as not verified (verdicts.not_verified: a forger's copy sent first); nothing at all
# when these very bytes are held under it (the unique (message_id, sha256) pair). SQLite
# needs the WHERE to read ON CONFLICT as the upsert and not as part of the join.
_INSERT = """
INSERT INTO inbox (message_id, sha256, raw, size, source, mail_from, rcpt_to, received_at, status, \
verdict,
                   error, attempts, sender, subject)
SELECT :mid, :sha, :raw, :size, :source, :mail_from, :rcpt_to, :received_at,
       CASE WHEN held.id IS NULL THEN 'new' ELSE 'ignored' END,
       CASE WHEN held.id IS NULL THEN '' ELSE 'duplicate: Message-ID already received as #' || \
held.id END,
       '', 0, :sender, ''
FROM (SELECT min(id) AS id FROM inbox WHERE message_id = :mid AND message_id != ''
      AND (sender = :sender OR :listed)
      AND substr(verdict, 1, 19) != 'error: not verified') AS held
WHERE true
ON CONFLICT (message_id, sha256) DO NOTHING
RETURNING id, status"""
_HELD = "SELECT id, status FROM inbox WHERE message_id = :mid AND sha256 = :sha"
_CORE_INSERT = text(_INSERT).bindparams(
    bindparam("rcpt_to", type_=Json), bindparam("received_at", type_=UTCDateTime)
)
_CORE_HELD = text(_HELD)
_PG_INSERT, _PG_HELD = (
    re.sub(r":(\w+)", r"%(\1)s", q) for q in (_INSERT, _HELD)
)  # psycopg's placeholders


class Busy(Exception):
    """Another writer holds the store, and the caller asked not to wait for it."""


def keep(
    store: Store,
    prepared: Sequence[Prepared],
    now: datetime | Sequence[datetime],
    wait: bool = True,
) -> list[Kept]:
    """Commit PREPARED in one transaction; one Kept per mail, in order, each received at NOW
    (or at its own time, NOW being one per mail). Without WAIT, raises Busy at once instead of
    waiting for another writer's lock (only SQLite can try its lock: on any other store it is
    always Busy)."""
    if store.engine.dialect.name == "sqlite":
        return _keep_sqlite(store, prepared, now, wait)
    if not wait:
        raise Busy("only SQLite's lock can be tried without waiting")
    if store.engine.dialect.driver == "psycopg":
        return _keep_psycopg(store, prepared, now)
    return _keep_core(store, prepared, now)


def _params(mail: Prepared) -> dict[str, Any]:
    raw, source, mail_from, rcpt, sha, mid = mail
    sender, listed = author(raw) if mid else ("", False)
    return {
        "mid": mid,
        "sha": sha,
        "raw": raw,
        "size": len(raw),
        "source": source,
        "mail_from": mail_from,
        "rcpt_to": rcpt,
        "sender": sender,
        "listed": listed,
    }


def _each(now: datetime | Sequence[datetime], n: int) -> Sequence[datetime]:
    """One receipt time per mail: NOW for all, or NOW's own."""
    return [now] * n if isinstance(now, datetime) else now


def sqlite_stamp(at: datetime) -> str:
    """AT as SQLAlchemy writes a DATETIME on SQLite: naive UTC text (models.UTCDateTime)."""
    return at.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")


@contextmanager
def sqlite_write(store: Store, wait: bool = True) -> Iterator[sqlite3.Cursor]:
    """A write transaction on the pool's DBAPI connection (BEGIN IMMEDIATE ... COMMIT, ROLLBACK
    on any error), past SQLAlchemy's execution machinery: for the statements run per mail.
    Without WAIT, Busy at once when another connection holds the write lock."""
    conn = store.engine.raw_connection()
    driver = cast(sqlite3.Connection, conn.driver_connection)  # the pool's, on SQLite
    try:
        cur = driver.cursor()
        if wait:
            cur.execute(
                "BEGIN IMMEDIATE"
            )  # the connection has no implicit transactions (store/database.py)
        else:
            _begin_or_busy(cur)
        try:
            yield cur
            cur.execute("COMMIT")
        except BaseException:
            if driver.in_transaction:
                cur.execute("ROLLBACK")
            raise
        finally:
            cur.close()
    finally:
        conn.close()  # back to the pool


def _begin_or_busy(cur: sqlite3.Cursor) -> None:
    cur.execute("PRAGMA busy_timeout=0")
    try:
        cur.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as e:
        if e.sqlite_errorcode in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
            raise Busy(str(e)) from None
        raise
    finally:  # the lock is ours or not: either way, the connection waits as usual again
        cur.execute(f"PRAGMA busy_timeout={lock_wait_ms()}")


def _keep_sqlite(
    store: Store,
    prepared: Sequence[Prepared],
    now: datetime | Sequence[datetime],
    wait: bool = True,
) -> list[Kept]:
    now = _each(now, len(prepared))
    with sqlite_write(store, wait) as cur:
        out = []
        for mail, at in zip(prepared, now, strict=True):
            params = _params(mail) | {"received_at": sqlite_stamp(at)}
            params["rcpt_to"] = fastjson.dumps(params["rcpt_to"])
            out.append(
                _kept(
                    cur.execute(_INSERT, params).fetchone(),
                    partial(_fetched, cur.execute, _HELD, params),
                )
            )
        return out


def _keep_psycopg(
    store: Store,
    prepared: Sequence[Prepared],
    now: datetime | Sequence[datetime],
    again: bool = True,
) -> list[Kept]:
    """As _keep_core writes them (tests/test_keep.py compares), on the pool's psycopg connection:
    the timestamp as naive UTC (models.UTCDateTime), the recipients as JSONB. A connection the
    server dropped since its last use (not pinged when taken again at once: store/database.py)
    is replaced and the mail kept on the new one, AGAIN being true: keeping is idempotent (the
    same bytes are one row), so nothing is kept twice even if the first try took."""
    from psycopg import OperationalError
    from psycopg.types.json import Jsonb

    now, stamp = _each(now, len(prepared)), UTCDateTime()
    conn = store.engine.raw_connection()
    try:
        pg: Any = conn.driver_connection  # psycopg's own connection
        try:
            pg.autocommit = len(prepared) == 1  # one mail: one round trip; more: one transaction
            with pg.cursor() as cur:
                out = []
                for mail, at in zip(prepared, now, strict=True):
                    params = _params(mail) | {
                        "received_at": stamp.process_bind_param(at, store.engine.dialect)
                    }
                    params["rcpt_to"] = Jsonb(params["rcpt_to"], fastjson.dumps)
                    cur.execute(_PG_INSERT, params)
                    out.append(
                        _kept(
                            cur.fetchone(),
                            partial(_fetched, cur.execute, _PG_HELD, params),
                        )
                    )
            if not pg.autocommit:
                pg.commit()
            return out
        except BaseException as e:
            dropped = pg.broken
            if isinstance(e, OperationalError) or pg.closed:
                conn.invalidate(e)  # a dropped connection must not go back to the pool
            elif not pg.autocommit:
                pg.rollback()
            if not (dropped and again):
                raise
        finally:
            if not pg.closed:
                pg.autocommit = False  # as the pool hands it out
    finally:
        conn.close()
    return _keep_psycopg(store, prepared, now, again=False)


def _keep_core(
    store: Store, prepared: Sequence[Prepared], now: datetime | Sequence[datetime]
) -> list[Kept]:
    now = _each(now, len(prepared))
    with (store.engine if len(prepared) > 1 else store.autocommit).begin() as conn:
        out = []
        for mail, at in zip(prepared, now, strict=True):
            params = _params(mail) | {"received_at": at}
            out.append(
                _kept(
                    conn.execute(_CORE_INSERT, params).first(),
                    partial(_one, conn.execute, _CORE_HELD, params),
                )
            )
        return out


def _fetched(execute: Callable[..., Any], sql: Any, params: dict[str, Any]) -> Row:
    """The row of SQL that a DBAPI cursor's EXECUTE finds (HELD's, for _kept)."""
    return cast(Row, execute(sql, params).fetchone())


def _one(execute: Callable[..., Any], sql: Any, params: dict[str, Any]) -> Row:
    """The one row of SQL that a SQLAlchemy connection's EXECUTE finds."""
    return cast(Row, execute(sql, params).one())


def _kept(inserted: Row | None, held: Callable[[], Row]) -> Kept:
    """The INSERT's row (id, status): a new row; none: these bytes were kept before, in HELD's
    row."""
    if inserted is not None:
        return inserted[0], True, inserted[1]
    had = held()
    return had[0], False, had[1]
