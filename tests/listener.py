"""The referee's own SMTP listener (mailref.mail.smtp) on a free loopback port, processing
each mail it stores at once as the daemon does: tests write to it through real SMTP sessions."""

from __future__ import annotations

import smtplib
from collections.abc import Iterator
from contextlib import contextmanager

from dovecot import free_port
from mailref.mail.smtp import Listener


@contextmanager
def listening(referee, max_size: int = 200_000) -> Iterator[int]:
    """The listener of REFEREE while the block runs; yields its port."""
    port = free_port()
    lst = Listener(referee, "127.0.0.1", port, max_size, on_stored=referee.process_pending)
    lst.start()
    try:
        yield port
    finally:
        lst.stop()


def submit(port: int, mail_from: str, rcpts: list[str], raw: bytes, **options) -> None:
    """One SMTP session to the listener on PORT that hands over RAW."""
    with smtplib.SMTP("127.0.0.1", port) as c:
        c.sendmail(mail_from, rcpts, raw, **options)
