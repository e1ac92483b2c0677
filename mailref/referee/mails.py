"""A stored mail as the referee handles it: the fields of its inbox row that processing reads
or sets (written back for a whole batch in one statement), the mail read into an Envelope
before the write transaction opens, and the log line once it is handled."""

from __future__ import annotations

import dataclasses
import logging
import re
from dataclasses import dataclass
from datetime import datetime
from typing import cast

from sqlalchemy import Table, bindparam, select, update
from sqlalchemy.orm import Session

from mailref.read import Envelope, match_game, read_envelope
from mailref.safe import one_line
from mailref.store import InboxMessage, Store

log = logging.getLogger("mailref")


@dataclass
class Stored:
    id: int
    new: bool  # False: we already had these bytes (a duplicate delivery)
    status: str


@dataclass
class Mail:
    """A stored mail while it is processed: the fields of its row that processing reads or
    sets, written back for the whole batch with one statement (an ORM flush at each mail's
    savepoint would cost about an eighth of answering it). What processing learnt before a failure
    (sender, subject, game) stays for the quarantine and the GM's alert."""

    id: int
    mail_from: str
    attempts: int
    status: str
    verdict: str
    error: str
    sender: str
    subject: str
    game_slug: str | None
    processed_at: datetime | None
    lease_until: datetime | None


_inbox = cast(Table, InboxMessage.__table__)  # a mapped class's table is a Table
MAILS = select(*(_inbox.c[f.name] for f in dataclasses.fields(Mail))).where(
    _inbox.c.id.in_(bindparam("ids", expanding=True))
)
_WRITTEN = [f.name for f in dataclasses.fields(Mail) if f.name not in ("id", "mail_from")]
_MAILS_DONE = (
    update(_inbox)
    .where(_inbox.c.id == bindparam("id_"))
    .values({f: bindparam(f) for f in _WRITTEN})
)


def write_back(s: Session, rows: list[Mail]) -> None:
    """Every mail's row in one statement, in the batch's transaction."""
    s.connection().execute(
        _MAILS_DONE, [{"id_": m.id, **{f: getattr(m, f) for f in _WRITTEN}} for m in rows]
    )


def read_mails(store: Store, ids: list[int], own_address: str) -> dict[int, Envelope | Exception]:
    """The Envelope of each of IDS still awaiting processing (an exception for a mail that
    cannot be read: it is quarantined like any failure). Reading is most of a mail's CPU
    time, so it happens with no transaction open."""
    with store() as s:
        rows = s.execute(
            select(
                InboxMessage.id,
                InboxMessage.raw,
                InboxMessage.rcpt_to,
                InboxMessage.source,
                InboxMessage.mail_from,
            ).where(InboxMessage.id.in_(ids), InboxMessage.status == "new")
        ).all()
    read: dict[int, Envelope | Exception] = {}
    for row in rows:
        try:
            read[row.id] = read_envelope(
                row.raw,
                row.rcpt_to,
                own_address,
                null_sender=row.source == "smtp" and row.mail_from == "<>",
            )
        except Exception as e:
            read[row.id] = e
    return read


def message_id_of(raw: bytes) -> str:
    """The Message-ID of RAW as the dedupe keys it ("" when none)."""
    head = raw[:65536].split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0]
    m = re.search(rb"^message-id:\s*(<[^<>\s]+>)", head, re.I | re.M)
    return m.group(1).decode("ascii", "replace")[:900] if m else ""


def game_key(env: Envelope | Exception, games: dict[str, str]) -> str:
    """Where a mail sorts in its batch: grouped by the game its recipients name (a guess made
    before routing; only the order depends on it)."""
    if isinstance(env, Exception):
        return ""
    return match_game(env.recipients, games) or ""


def log_handled(row: Mail, ms: float, tag: str | None, game: str | None = None) -> None:
    """SPEC §7: one line per mail handled: inbox id, sender, game, tag, verdict, milliseconds."""
    log.info(
        "mail #%s from %s game=%s tag=%s: %s: %s (%d ms)",
        row.id,
        one_line(row.sender or row.mail_from or "-"),
        row.game_slug or game or "-",
        tag or "-",
        row.status,
        one_line(row.verdict[:200]),
        ms,
    )


def release_shadowed(s: Session, row: Mail) -> None:
    """ROW was refused as not verified (SPEC §2.7): a later mail with its Message-ID and From,
    kept as its duplicate before ROW was read, is no copy of it, and is read in its turn."""
    held = select(_inbox.c.message_id).where(_inbox.c.id == row.id).scalar_subquery()
    s.execute(
        update(_inbox)
        .where(
            _inbox.c.message_id == held,
            _inbox.c.status == "ignored",
            _inbox.c.verdict == f"duplicate: Message-ID already received as #{row.id}",
        )
        .values(status="new", verdict="")
    )
