"""The database: tables (models.py) and the SQLAlchemy store (database.py: one engine per
database, WAL on SQLite, migrations on start).

What is defined here needs only the standard library, and the names below load on first use
(PEP 562): `mailref replay` reads a SQLite file without importing SQLAlchemy (sqlite_reads.py),
whose import was a third of its start-up (SPEC §8: replay, start-up included)."""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING

from mailref.lazy import lazy_names

if TYPE_CHECKING:
    from mailref.store.database import Store, open_store, upgrade
    from mailref.store.models import (
        ArchivedMatter,
        Base,
        Bounce,
        DiceDraw,
        DiceSeed,
        Game,
        ImapCursor,
        InboxMessage,
        JournalEntry,
        OutboxMessage,
        ReplyQuota,
    )

_WHERE = {
    "Store": "database",
    "open_store": "database",
    "upgrade": "database",
    **{
        name: "models"
        for name in (
            "ArchivedMatter",
            "Base",
            "Bounce",
            "DiceDraw",
            "DiceSeed",
            "Game",
            "ImapCursor",
            "InboxMessage",
            "JournalEntry",
            "OutboxMessage",
            "ReplyQuota",
        )
    },
}
__all__ = [
    "ArchivedMatter",
    "Base",
    "Bounce",
    "DiceDraw",
    "DiceSeed",
    "Game",
    "ImapCursor",
    "InboxMessage",
    "JournalEntry",
    "OutboxMessage",
    "ReplyQuota",
    "Store",
    "open_store",
    "upgrade",
]
__getattr__ = lazy_names(__name__, _WHERE)

_MIGRATIONS = Path(__file__).resolve().parent / "migrations"
log = logging.getLogger("mailref.store")


def lock_wait_ms() -> int:
    """How long a writer waits for another process's lock (default 30 s; tests shorten it)."""
    try:
        return int(float(os.environ.get("MAILREF_LOCK_WAIT", "30")) * 1000)
    except ValueError:
        return 30000


def repair_sqlite_companions(db: Path) -> None:
    """After a read-only period SQLite leaves -wal/-shm files as read-only as the database
    was, and nothing starts again. When the database itself is writable again and they are
    ours, give them its mode back; otherwise say exactly what to do."""
    if not db.exists() or not os.access(db, os.W_OK):
        return
    for side in (db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
        if not side.exists() or os.access(side, os.W_OK):
            continue
        if side.stat().st_uid == os.geteuid():
            side.chmod(stat.S_IMODE(db.stat().st_mode))
            log.warning(
                "%s was read-only (left over from a read-only period): made writable like %s",
                side,
                db.name,
            )
        else:
            raise PermissionError(
                f"{side} is not writable by this user (left over from a read-only period): "
                f"run `chmod u+w {side}` as its owner, or remove it while no mailref runs"
            )


def newest_revision() -> str:
    """The head revision without loading Alembic: the migrations are named NNNN_what.py, their
    revision is NNNN, and each revises the one numbered before it (tests/test_startup.py)."""
    return max(
        p.name.split("_", 1)[0]
        for p in (_MIGRATIONS / "versions").glob("[0-9][0-9][0-9][0-9]_*.py")
    )
