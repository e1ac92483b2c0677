"""What transport asks of the application, and all it may ask: keep mail durably and process
what was kept (the referee's two ways in), the referee's own address, and tell the GM of
undelivered mail. The IMAP poller and the SMTP listener are given an object of this shape (the
daemon gives them the Referee), the outbox an Alert; they import nothing of the referee or the
door, so the application can change behind this face without transport knowing."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Protocol

from sqlalchemy.orm import Session

from mailref.store import Store
from mailref.store.keep import Incoming

__all__ = ["Alert", "Application", "Incoming", "Kept", "Settings"]


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
    clock: Callable[[], datetime]

    @property
    def settings(self) -> Settings: ...  # read only: the application's own may say more

    def keep(self, mails: Sequence[Incoming], wait: bool = True) -> Sequence[Kept]:
        """Commit MAILS in one transaction, one Kept each, in order, each received now (on the
        application's clock) or at its own `received`; a second delivery of the same bytes is
        the first row; WAIT=False raises store.keep.Busy instead of waiting for the store's
        lock. A mail `over_limit` is kept as its header and its sender told."""

    def process(self, ids: Sequence[int] | None = None) -> dict[int, str]:
        """Process the kept mails IDS; each one's status afterwards."""
