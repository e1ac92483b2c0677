"""The IMAP cursor, one row a folder shared by every daemon: the folder's UIDVALIDITY and the
last UID read; a changed UIDVALIDITY means reading the folder again from the start."""

from __future__ import annotations

import logging

from mailref.store import ImapCursor, Store

log = logging.getLogger("mailref.imap")


def cursor(store: Store, folder: str, uidvalidity: int) -> int:
    """The last UID read of FOLDER, from 0 again when its UIDVALIDITY changed."""
    with store() as s, s.begin():
        cur = s.get(ImapCursor, folder, with_for_update=True)
        if cur is None:
            # Several daemons may start at once: the first insert wins, the rest read it.
            s.execute(_insert_cursor(s, folder, uidvalidity))
            cur = s.get_one(ImapCursor, folder, with_for_update=True, populate_existing=True)
        if cur.uidvalidity != uidvalidity:
            log.warning(
                "UIDVALIDITY of %s changed (%s -> %s): re-reading; duplicates are recognised",
                folder,
                cur.uidvalidity,
                uidvalidity,
            )
            cur.uidvalidity, cur.last_uid = uidvalidity, 0
        return cur.last_uid


def advance(store: Store, folder: str, uidvalidity: int, uid: int) -> None:
    """Past UID, unless FOLDER's UIDVALIDITY changed or the cursor is further already."""
    with store() as s, s.begin():
        cur = s.get_one(ImapCursor, folder, with_for_update=True)  # `cursor` made it
        if cur.uidvalidity == uidvalidity and uid > cur.last_uid:
            cur.last_uid = uid


def _insert_cursor(s, folder: str, uidvalidity: int):
    from sqlalchemy.dialects import postgresql, sqlite

    insert = postgresql.insert if s.get_bind().dialect.name == "postgresql" else sqlite.insert
    return (
        insert(ImapCursor)
        .values(folder=folder, uidvalidity=uidvalidity, last_uid=0)
        .on_conflict_do_nothing()
    )
