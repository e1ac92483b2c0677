"""What transport asks of the application, and all it may ask: keep mail durably, process
what was kept, the referee's own address, and tell the GM of undelivered mail. The IMAP poller
and the SMTP listener are given an object of this shape (the daemon gives them the Referee),
the outbox an Alert; they import nothing of the referee or the door, so the application can
change behind this face without transport knowing."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Protocol

from sqlalchemy.orm import Session

from mailref.store import Store

Incoming = tuple[bytes, str, str, "list[str] | None"]  # raw, source, mail_from, rcpt_to


class Kept(Protocol):
    """One mail as the inbox holds it."""

    id: int
    new: bool  # False: the inbox already had these bytes
    status: str  # "new" until processed; else what intake made of it


class Alert(Protocol):
    """Tell the GM of game SLUG (the admin when there is none) of trouble with the outgoing
    mail, queued on SESSION's transaction with the rows it concerns."""

    def __call__(
        self, session: Session, slug: str | None, now: datetime, subject: str, lines: list[str]
    ) -> None: ...


class Settings(Protocol):
    from_address: str  # the referee's own address: the listener's greeting, mail to itself


class Application(Protocol):
    store: Store
    settings: Settings
    clock: Callable[[], datetime]

    def receive(
        self, raw: bytes, source: str, mail_from: str = "", rcpt_to: list[str] | None = None
    ) -> Kept:
        """Commit RAW to the inbox; a second delivery of the same bytes is the first row."""

    def receive_many(
        self, mails: list[Incoming], wait: bool = True, received: list[datetime] | None = None
    ) -> list[Kept]:
        """Commit MAILS in one transaction, one Kept each, in order, received now or each at
        its time in RECEIVED (on the application's clock); WAIT=False raises store.keep.Busy
        instead of waiting for the store's lock."""

    def process_many(self, ids: list[int]) -> dict[int, str]:
        """Process the kept mails IDS; each one's status afterwards."""

    def keep_too_large(self, source: str, head: bytes, size: int, max_size: int) -> str:
        """Keep only HEAD of a mail of SIZE octets over MAX_SIZE and tell its sender; the
        mail's status."""
