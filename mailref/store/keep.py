"""Keeping raw mail: the one write before every SMTP 250 and every IMAP move.

A second delivery of the same bytes is the row we have; a different message under a
Message-ID we already hold is kept but marked "ignored" (never processed twice).

On SQLite this is written through the pool's DBAPI connection directly: the four statements
(BEGIN IMMEDIATE, look up, insert, COMMIT) cost about a tenth of what SQLAlchemy's
execution machinery around them cost, and this runs before every 250 the listener gives
(docs/decisions.md, "Our own SMTP session"). Elsewhere it is SQLAlchemy Core. The values
written are the ones SQLAlchemy writes (tests/test_keep.py compares the rows)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import and_, bindparam, insert, or_, select

from mailref.store import InboxMessage, Store, fastjson

Prepared = tuple[bytes, str, str, list[str], str, str]  # raw, source, mail_from, rcpt_to, sha256, message_id
Kept = tuple[int, bool, str]  # the row's id, whether it is new, its status

_inbox = InboxMessage.__table__
_COLUMNS = ("message_id", "sha256", "raw", "size", "source", "mail_from", "rcpt_to", "received_at", "status",
            "verdict", "error", "attempts", "sender", "subject")
_HELD = (select(_inbox.c.id, _inbox.c.message_id, _inbox.c.sha256, _inbox.c.status)
         .where(or_(_inbox.c.message_id.in_(bindparam("mids", expanding=True)),
                    and_(_inbox.c.message_id == "", _inbox.c.sha256.in_(bindparam("bare", expanding=True)))))
         .order_by(_inbox.c.id))
# One mail (the listener's case): no expanding IN to compile per call.
_HELD_ONE = (select(_inbox.c.id, _inbox.c.message_id, _inbox.c.sha256, _inbox.c.status)
             .where(or_(and_(_inbox.c.message_id != "", _inbox.c.message_id == bindparam("mid")),
                        and_(_inbox.c.message_id == "", bindparam("mid") == "", _inbox.c.sha256 == bindparam("sha"))))
             .order_by(_inbox.c.id))
_STORE = insert(_inbox)
_SQLITE_HELD_ONE = ("SELECT id, message_id, sha256, status FROM inbox WHERE (message_id != '' AND message_id = ?)"
                    " OR (message_id = '' AND ? = '' AND sha256 = ?) ORDER BY id")
_SQLITE_STORE = f"INSERT INTO inbox ({', '.join(_COLUMNS)}) VALUES ({', '.join('?' * len(_COLUMNS))}) RETURNING id"


def keep(store: Store, prepared: Sequence[Prepared], now: datetime) -> list[Kept]:
    """Commit PREPARED in one transaction; one Kept per mail, in order. Raises the store's
    IntegrityError when a concurrent delivery of the same bytes won the race."""
    if store.engine.dialect.name == "sqlite":
        return _keep_sqlite(store, prepared, now)
    return _keep_core(store, prepared, now)


def _keep_core(store: Store, prepared: Sequence[Prepared], now: datetime) -> list[Kept]:
    with store.engine.begin() as conn:
        if len(prepared) == 1:
            held = conn.execute(_HELD_ONE, {"mid": prepared[0][5], "sha": prepared[0][4]}).all()
        else:
            held = conn.execute(_HELD, {"mids": sorted({p[5] for p in prepared if p[5]}),
                                        "bare": sorted({p[4] for p in prepared if not p[5]})}).all()
        return _decide(prepared, held, now, lambda row: conn.execute(_STORE, row).inserted_primary_key[0])


def _keep_sqlite(store: Store, prepared: Sequence[Prepared], now: datetime) -> list[Kept]:
    # SQLAlchemy's SQLite DATETIME format, naive UTC (models.UTCDateTime).
    stamp = now.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")
    conn = store.engine.raw_connection()
    try:
        cur = conn.cursor()
        cur.execute("BEGIN IMMEDIATE")  # the connection runs without implicit transactions (store/__init__.py)
        try:
            held: list = []
            for key in {(p[5], p[5], "") if p[5] else ("", "", p[4]) for p in prepared}:  # by Message-ID, else hash
                held += cur.execute(_SQLITE_HELD_ONE, key).fetchall()
            held.sort()  # oldest first

            def insert(row: dict[str, Any]) -> int:
                row["received_at"], row["rcpt_to"] = stamp, fastjson.dumps(row["rcpt_to"])
                return cur.execute(_SQLITE_STORE, tuple(row[c] for c in _COLUMNS)).fetchone()[0]

            out = _decide(prepared, [_Row(*r) for r in held], now, insert)
            cur.execute("COMMIT")
            return out
        except BaseException:
            if conn.dbapi_connection.in_transaction:
                cur.execute("ROLLBACK")
            raise
        finally:
            cur.close()
    finally:
        conn.close()  # back to the pool


class _Row:
    __slots__ = ("id", "message_id", "sha256", "status")

    def __init__(self, id: int, message_id: str, sha256: str, status: str):
        self.id, self.message_id, self.sha256, self.status = id, message_id, sha256, status


def _decide(prepared: Sequence[Prepared], held: Sequence[Any], now: datetime,
            insert: Callable[[dict[str, Any]], int]) -> list[Kept]:
    """Which mails are new, which we had (the same bytes under the same Message-ID), which
    repeat a Message-ID with other bytes; INSERT the new ones. HELD: the rows already kept
    under these Message-IDs (or hashes, for mail without one), oldest first."""
    same = {(r.message_id, r.sha256): (r.id, r.status) for r in reversed(held)}
    first: dict[str, int] = {}
    for r in held:
        if r.message_id:
            first.setdefault(r.message_id, r.id)
    out: list[Kept] = []
    for raw, source, mail_from, rcpt, sha, mid in prepared:
        if (mid, sha) in same:
            had, status = same[(mid, sha)]
            out.append((had, False, status))
            continue
        status, verdict = "new", ""
        if mid in first:
            status, verdict = "ignored", f"duplicate: Message-ID already received as #{first[mid]}"
        new_id = insert({"message_id": mid, "sha256": sha, "raw": raw, "size": len(raw), "source": source,
                         "mail_from": mail_from, "rcpt_to": rcpt, "received_at": now, "status": status,
                         "verdict": verdict, "error": "", "attempts": 0, "sender": "", "subject": ""})
        same[(mid, sha)] = (new_id, status)
        if mid:
            first.setdefault(mid, new_id)
        out.append((new_id, True, status))
    return out
