"""Keeping raw mail (mailref/store/keep.py): on SQLite the rows are written through the
DBAPI directly, and must be the very rows SQLAlchemy writes, read back the same by the ORM; on both
stores the same bytes are kept once, a Message-ID its author repeats is kept as "ignored"."""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from datetime import UTC, datetime, timedelta, timezone

import psycopg
import pytest

from mailref.referee import message_id_of
from mailref.store import InboxMessage, open_store
from mailref.store.keep import _keep_core, _keep_psycopg, _keep_sqlite, keep
from support.helpers import mail, migrated_sqlite

pytestmark = pytest.mark.spec("2.1")

G = "nomes@ref.example"


def _mails() -> list:
    one = mail("a@x.org", G, "[Help]")
    other = mail("b@x.org", G, "[Status]", message_id="<same@x.org>")
    again = mail(
        "b@x.org", G, "[Status]", "other bytes", message_id="<same@x.org>"
    )  # its author, another way
    bare = b"Subject: [Help]\r\n\r\nno Message-ID at all\r\n"
    return [
        (
            raw,
            "smtp",
            "<>" if i == 3 else "a@x.org",
            [G, "nomes+t@ref.example"],
            hashlib.sha256(raw).hexdigest(),
            message_id_of(raw),
        )
        for i, raw in enumerate([one, other, again, bare])
    ]


def test_the_direct_sqlite_rows_are_the_rows_sqlalchemy_writes(tmp_path):
    now = datetime(2026, 12, 1, 13, 5, 7, 123456, tzinfo=timezone(timedelta(hours=2)))
    kept, mails = {}, _mails()
    for name, keep_with in (("direct", _keep_sqlite), ("core", _keep_core)):
        url = migrated_sqlite(tmp_path / f"{name}.sqlite3")
        store = open_store(url, migrate=False)
        first = keep_with(store, mails, now)
        second = keep_with(store, mails[:1] + mails[3:], now)  # the same bytes delivered again
        with store() as s:
            orm = [
                (r.id, r.received_at, r.rcpt_to, r.status, r.verdict, r.raw)
                for r in s.query(InboxMessage).order_by(InboxMessage.id)
            ]
        store.dispose()
        with sqlite3.connect(tmp_path / f"{name}.sqlite3") as db:
            rows = db.execute(
                "SELECT *, typeof(received_at), typeof(rcpt_to), typeof(raw) FROM inbox ORDER BY id"
            ).fetchall()
        kept[name] = (first, second, orm, rows)
    assert kept["direct"] == kept["core"]
    first, second, orm, rows = kept["direct"]
    assert [k[1:] for k in first] == [
        (True, "new"),
        (True, "new"),
        (True, "ignored"),
        (True, "new"),
    ]
    assert second == [(first[0][0], False, "new"), (first[3][0], False, "new")]
    assert orm[0][1] == datetime(2026, 12, 1, 11, 5, 7, 123456, tzinfo=UTC)
    assert (
        orm[0][2] == [G, "nomes+t@ref.example"]
        and orm[2][4] == f"duplicate: Message-ID already received as #{first[1][0]}"
    )
    assert rows[0][-3:] == ("text", "text", "blob")


def test_the_direct_postgresql_rows_are_the_rows_sqlalchemy_writes(postgres):
    now = datetime(2026, 12, 1, 13, 5, 7, 123456, tzinfo=timezone(timedelta(hours=2)))
    kept, mails = {}, _mails()
    for keep_with in (_keep_psycopg, _keep_core):
        name = postgres.fresh_database()
        store = open_store(postgres.url(name), migrate=False)
        try:
            first = [keep_with(store, [m], now)[0] for m in mails]  # one at a time (autocommit)
            second = keep_with(
                store, mails[:1] + mails[3:], now
            )  # again, together (one transaction)
            with store() as s:
                orm = [
                    (
                        r.id,
                        r.received_at,
                        r.rcpt_to,
                        r.status,
                        r.verdict,
                        r.raw,
                        r.size,
                        r.mail_from,
                        r.source,
                    )
                    for r in s.query(InboxMessage).order_by(InboxMessage.id)
                ]
            with store.engine.connect() as c:  # as the server keeps them, whatever reads them back
                rows = c.exec_driver_sql(
                    "SELECT received_at::text, rcpt_to::text, jsonb_typeof(rcpt_to) "
                    "FROM inbox ORDER BY id"
                ).all()
            kept[keep_with.__name__] = (first, second, orm, rows)
        finally:
            store.dispose()
            postgres.retire(name)
    assert kept["_keep_psycopg"] == kept["_keep_core"]
    first, second, orm, rows = kept["_keep_psycopg"]
    assert [k[1:] for k in first] == [
        (True, "new"),
        (True, "new"),
        (True, "ignored"),
        (True, "new"),
    ]
    assert second == [(first[0][0], False, "new"), (first[3][0], False, "new")]
    assert (
        orm[0][1] == datetime(2026, 12, 1, 11, 5, 7, 123456, tzinfo=UTC) and rows[0][2] == "array"
    )


def test_a_failed_keep_on_postgresql_leaves_the_connection_usable(postgres):
    name = postgres.fresh_database()
    store = open_store(postgres.url(name), migrate=False)
    try:
        broken = [
            (b"x", "smtp", "a@x.org", [G], None, "")
        ]  # no hash: the NOT NULL column refuses it
        for mails in (broken, broken + _mails()[:1]):  # alone (autocommit), and in a transaction
            try:
                _keep_psycopg(store, mails, datetime.now(UTC))
                raise AssertionError("a row without its hash was kept")
            except Exception as e:
                assert "null value" in str(e), e
        assert _keep_psycopg(store, _mails()[:1], datetime.now(UTC))[0][1:] == (True, "new")
        with store() as s:
            assert s.query(InboxMessage).count() == 1  # nothing of the failed transaction
    finally:
        store.dispose()
        postgres.retire(name)


def test_a_failed_keep_leaves_no_transaction_open(tmp_path):
    store = open_store(migrated_sqlite(tmp_path / "m.sqlite3"), migrate=False)
    broken = [(b"x", "smtp", "a@x.org", [G], None, "")]  # no hash: the NOT NULL column refuses it
    try:
        _keep_sqlite(store, broken, datetime.now(UTC))
    except sqlite3.IntegrityError:
        pass
    else:
        raise AssertionError("a row without its hash was kept")
    assert _keep_sqlite(store, _mails()[:1], datetime.now(UTC))[0][1:] == (
        True,
        "new",
    )  # the connection is usable
    store.dispose()


def test_each_store_keeps_new_repeated_and_same_bytes_apart(tmp_path, database_url):
    store = open_store(database_url, migrate=False)
    mails, now = _mails(), datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
    first = [keep(store, [m], now)[0] for m in mails]  # one at a time: the listener's case
    together = keep(store, mails, now)  # all again, in one transaction
    assert [k[1:] for k in first] == [
        (True, "new"),
        (True, "new"),
        (True, "ignored"),
        (True, "new"),
    ]
    assert together == [(k[0], False, k[2]) for k in first]
    with store() as s:
        rows = s.query(InboxMessage).order_by(InboxMessage.id).all()
        assert [(r.id, r.received_at, r.rcpt_to, r.mail_from, r.raw) for r in rows] == [
            (k[0], now, m[3], m[2], m[0]) for k, m in zip(first, mails, strict=True)
        ]
        assert rows[2].verdict == f"duplicate: Message-ID already received as #{first[1][0]}"
    store.dispose()


def test_the_same_bytes_kept_at_once_by_two_daemons_are_one_row(tmp_path, database_url):
    stores = [open_store(database_url, migrate=False) for _ in range(2)]
    one = _mails()[:1]
    results: list = []
    gate = threading.Barrier(2)

    def deliver(store) -> None:
        gate.wait()
        results.append(keep(store, one, datetime.now(UTC))[0])

    threads = [threading.Thread(target=deliver, args=(s,)) for s in stores]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(r[1] for r in results) == [False, True] and results[0][0] == results[1][0]
    for s in stores:
        s.dispose()


def test_a_connection_the_server_dropped_is_replaced_before_a_mail_is_kept(postgres, monkeypatch):
    """PostgreSQL restarted, or killed our idle connections: the next mail is kept as if
    nothing happened (no 451, no error line), since a pooled connection that rested is pinged
    when taken and replaced when dead. One used again at once is not pinged: that ping was a
    round trip before every transaction (store/database.py)."""
    from sqlalchemy import event

    import mailref.store.database as database

    name = postgres.fresh_database()
    store = open_store(postgres.url(name), migrate=False)
    pings: list[int] = []
    real_ping = store.engine.dialect.do_ping
    monkeypatch.setattr(store.engine.dialect, "do_ping", lambda c: pings.append(1) or real_ping(c))
    connects: list[int] = []
    event.listen(store.engine, "connect", lambda *a: connects.append(1))
    mails, now = _mails(), datetime.now(UTC)
    try:
        for m in mails[:2]:  # back to back, as in a burst: the connection is reused, never pinged
            keep(store, [m], now)
        assert (len(connects), pings) == (1, [])
        postgres.end_sessions(name)  # the server ends our idle connections
        monkeypatch.setattr(database, "PING_RESTED", 0.0)  # as if it had rested a second
        assert keep(store, [mails[3]], now)[0][1:] == (True, "new")
        assert (len(connects), pings) == (2, [1])  # pinged, found dead, replaced
        # Dropped between two mails of a burst (not pinged): the mail is kept on a new
        # connection all the same, once; the dead one is not given back to the pool.
        postgres.end_sessions(name)
        monkeypatch.setattr(database, "PING_RESTED", 3600.0)
        raw = mail("d@x.org", G, "[Help]")
        fourth = (raw, "smtp", "d@x.org", [G], hashlib.sha256(raw).hexdigest(), message_id_of(raw))
        assert keep(store, [fourth], now)[0][1:] == (True, "new")
        assert (len(connects), pings) == (3, [1])
        assert keep(store, [fourth], now)[0][1:] == (
            False,
            "new",
        )  # and the pool's connection works
        with store() as s:
            assert s.query(InboxMessage).count() == 4
        # The server gone for good: the mail is refused (the listener says 451), after one try more.
        postgres.end_sessions(name)
        monkeypatch.setattr(
            store.engine.pool,
            "_creator",
            lambda *a: (_ for _ in ()).throw(psycopg.OperationalError("connection refused")),
        )
        with pytest.raises(psycopg.OperationalError):
            keep(store, [fourth], now)
    finally:
        store.dispose()
        postgres.retire(name)
