"""Expunging only our own messages, on servers with and without UIDPLUS, and what a stop
left: a daemon killed between marking filed messages `\\Deleted` and its EXPUNGE leaves them
in the folder read. At the next connection those that mailref had kept (the inbox holds them
by their UID, processed) are expunged; a message marked by a person is never touched."""

from __future__ import annotations

import logging

from imapclient import IMAPClient
from sqlalchemy import select

from mailref.store import InboxMessage, Store

log = logging.getLogger("mailref.imap")


def expunge_only(c: IMAPClient, uids: list[int]) -> None:
    """Expunge UIDS (marked `\\Deleted`) and nothing else of the selected folder."""
    if c.has_capability("UIDPLUS"):
        c.uid_expunge(uids)
        return
    # A plain EXPUNGE removes every message marked \Deleted in the folder, also those a
    # person marked and may still take back: theirs are unmarked for its moment.
    mine = set(uids)
    others = [u for u in c.search(["DELETED"]) if u not in mine]
    if others:
        c.remove_flags(others, [b"\\Deleted"])
    try:
        c.expunge()
    finally:
        if others:
            c.add_flags(others, [b"\\Deleted"])


def sweep(c: IMAPClient, store: Store, folder: str, uidvalidity: int, where: str) -> int:
    """Expunge the messages of the selected folder (FOLDER as configured) that are marked
    `\\Deleted` and were kept and taken up by mailref: filed by COPY before a stop that came
    before their EXPUNGE. Returns how many; said in one line."""
    marked = c.search(["DELETED"])
    if not marked:
        return 0
    sources = {f"imap:{folder}:{uidvalidity}:{u}": u for u in marked}
    with store() as s:
        kept = set(
            s.scalars(
                select(InboxMessage.source).where(
                    InboxMessage.source.in_(list(sources)), InboxMessage.status != "new"
                )
            )
        )
    ours = sorted(sources[k] for k in kept)
    if not ours:
        return 0
    expunge_only(c, ours)
    log.info(
        "%s: expunged %s message(s) already filed before a stop came between marking them "
        "\\Deleted and expunging them (messages others marked are left as they are)",
        where,
        len(ours),
    )
    return len(ours)
