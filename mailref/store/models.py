"""The tables. Game state is one JSON document per game, rebuilt from the journal by
`mailref replay`; mail in and out are rows holding the raw bytes."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

# JSONB on PostgreSQL (indexable, compact; keys come back sorted, so nothing may rely on the
# order of a JSON object's keys), plain JSON text elsewhere.
Json = JSON().with_variant(JSONB(), "postgresql")  # type: ignore[no-untyped-call]


class UTCDateTime(TypeDecorator[datetime]):
    """Aware UTC datetimes in and out, whatever the database keeps."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to the store")
        return value.astimezone(UTC).replace(tzinfo=None)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        return None if value is None else value.replace(tzinfo=UTC)


class Base(DeclarativeBase):
    pass


class Game(Base):
    __tablename__ = "games"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    slug: Mapped[str] = mapped_column(String(64), unique=True)
    variant: Mapped[str] = mapped_column(String(32))
    address: Mapped[str] = mapped_column(String(255))
    state: Mapped[dict[str, Any]] = mapped_column(Json)
    initial: Mapped[dict[str, Any]] = mapped_column(Json)  # the state at creation: replays start
    version: Mapped[int] = mapped_column(Integer, default=0)
    # Indexed: the daemon asks for the earliest one every few seconds (10,000 idle games).
    next_wakeup: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True, index=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)


class JournalEntry(Base):
    __tablename__ = "journal"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    action: Mapped[dict[str, Any]] = mapped_column(Json)
    source: Mapped[str] = mapped_column(String(255))  # mail:ID | timer | admin:WHO
    draws: Mapped[list[Any]] = mapped_column(Json, default=list)
    summary: Mapped[str] = mapped_column(Text, default="")
    __table_args__ = (UniqueConstraint("game_id", "seq"),)


class ArchivedMatter(Base):
    """An ended proposal or judgement that left the hot state (mailref/engine/archive.py)."""

    __tablename__ = "archived_matters"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    collection: Mapped[str] = mapped_column(String(32))  # proposals | judgements
    number: Mapped[int] = mapped_column(Integer)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)


class InboxMessage(Base):
    __tablename__ = "inbox"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    message_id: Mapped[str] = mapped_column(String(998), default="")  # "" when none
    sha256: Mapped[str] = mapped_column(String(64))
    raw: Mapped[bytes] = mapped_column(LargeBinary)
    size: Mapped[int] = mapped_column(Integer)
    source: Mapped[str] = mapped_column(
        String(255)
    )  # "smtp" | "imap:FOLDER:UIDVALIDITY:UID" | "cli"
    mail_from: Mapped[str] = mapped_column(String(998), default="")
    rcpt_to: Mapped[list[Any]] = mapped_column(Json, default=list)
    received_at: Mapped[datetime] = mapped_column(UTCDateTime)
    status: Mapped[str] = mapped_column(
        String(16), default="new", index=True
    )  # new processed ignored failed
    verdict: Mapped[str] = mapped_column(Text, default="")
    error: Mapped[str] = mapped_column(Text, default="")
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    game_slug: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    sender: Mapped[str] = mapped_column(String(998), default="")
    subject: Mapped[str] = mapped_column(Text, default="")
    processed_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    # Several daemons (mailref/claims.py): which process holds this mail, and until when.
    claimed_by: Mapped[str | None] = mapped_column(String(255), nullable=True)
    lease_until: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    __table_args__ = (
        UniqueConstraint("message_id", "sha256"),
        # A deadline's facts for the GM: a game's mail of the last day, however long the game.
        Index("ix_inbox_game_slug_received_at", "game_slug", "received_at"),
    )


class OutboxMessage(Base):
    __tablename__ = "outbox"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_slug: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    kind: Mapped[str] = mapped_column(String(32))
    recipients: Mapped[list[Any]] = mapped_column(Json)
    message_id: Mapped[str] = mapped_column(String(998))
    subject: Mapped[str] = mapped_column(Text)
    raw: Mapped[bytes] = mapped_column(LargeBinary)
    # queued -> sending (claimed by one process, until lease_until) -> sent | failed | dropped
    status: Mapped[str] = mapped_column(String(16), default="queued", index=True)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(UTCDateTime)
    last_error: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    inbox_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    alerted: Mapped[int] = mapped_column(Integer, default=0)
    claimed_by: Mapped[str | None] = mapped_column(
        String(255), nullable=True
    )  # host:pid of the sender
    lease_until: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    dropped_by: Mapped[str | None] = mapped_column(
        String(255), nullable=True
    )  # `mailref outbox drop`: who,
    dropped_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)  # when
    drop_reason: Mapped[str] = mapped_column(Text, default="")  # and why


class ImapCursor(Base):
    __tablename__ = "imap_cursor"
    folder: Mapped[str] = mapped_column(String(255), primary_key=True)
    uidvalidity: Mapped[int] = mapped_column(Integer)
    last_uid: Mapped[int] = mapped_column(Integer, default=0)


class ReplyQuota(Base):
    __tablename__ = "reply_quota"
    sender: Mapped[str] = mapped_column(String(998), primary_key=True)
    day: Mapped[str] = mapped_column(String(10), primary_key=True)
    count: Mapped[int] = mapped_column(Integer, default=0)


class Bounce(Base):
    __tablename__ = "bounces"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_slug: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    player: Mapped[str | None] = mapped_column(String(255), nullable=True)
    address: Mapped[str] = mapped_column(String(998))
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    inbox_id: Mapped[int] = mapped_column(Integer)


class DiceSeed(Base):
    """A game's seed chain (SPEC §4.4): seed NUMBER is secret until revealed; its SHA-256 is
    published from the moment it is committed. Each draw of the game comes from the seed
    unrevealed at the time; REVEALED_SEQ is the last journal entry it served."""

    __tablename__ = "dice_seeds"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    seed: Mapped[str] = mapped_column(String(64))
    commitment: Mapped[str] = mapped_column(String(64))
    committed_at: Mapped[datetime] = mapped_column(UTCDateTime)
    committed_seq: Mapped[int] = mapped_column(
        Integer
    )  # the journal entry after which it was committed
    revealed_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    revealed_seq: Mapped[int | None] = mapped_column(Integer, nullable=True)
    __table_args__ = (UniqueConstraint("game_id", "number"),)


class DiceDraw(Base):
    """The seed and the ranges of one journal entry's draws: enough to recompute them."""

    __tablename__ = "dice_draws"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    seed_number: Mapped[int] = mapped_column(Integer)
    ranges: Mapped[list[Any]] = mapped_column(JSON)
    __table_args__ = (UniqueConstraint("game_id", "seq"),)


class Secret(Base):
    """A secret the host makes once and keeps (the key of the unsubscribe links' HMAC), in the
    database so that every daemon of a host shares it."""

    __tablename__ = "secrets"
    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))
