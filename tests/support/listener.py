"""The referee's own SMTP listener (mailref.mail.smtp) on a free loopback port, processing
each mail it stores at once as the daemon does: tests write to it through real SMTP sessions."""

from __future__ import annotations

import smtplib
import socket
from collections.abc import Iterator
from contextlib import contextmanager

from mailref.mail.smtp import Listener
from mailref.store import InboxMessage
from support.dovecot import free_port
from support.helpers import make_referee, migrated_sqlite, process_all

GAME = "nomes@ref.example"


@contextmanager
def listening(referee, max_size: int = 200_000) -> Iterator[int]:
    """The listener of REFEREE while the block runs; yields its port."""
    with listener(referee, max_size) as lst:
        assert lst.port is not None
        yield lst.port


@contextmanager
def listener(referee, max_size: int = 200_000) -> Iterator[Listener]:
    """The listener of REFEREE while the block runs, itself (its port is .port): a test waits
    on what it holds (its sessions, the mail data they hold, the mail queued to commit)."""
    lst = Listener(
        referee, "127.0.0.1", free_port(), max_size, on_stored=lambda: process_all(referee)
    )
    lst.start()
    try:
        yield lst
    finally:
        lst.stop()


@contextmanager
def storing(referee, max_size: int = 10_000_000) -> Iterator[int]:
    """REFEREE's listener while the block runs, storing mail and processing none of it (as a
    daemon still busy with earlier mail); yields its port."""
    port = free_port()
    lst = Listener(referee, "127.0.0.1", port, max_size)
    lst.start()
    try:
        yield port
    finally:
        lst.stop()


@contextmanager
def lmtp_listening(referee, max_size: int = 200_000) -> Iterator[int]:
    """REFEREE's listener with LMTP alone while the block runs (as `[lmtp_in]` without
    `[smtp_in]`); yields the LMTP port."""
    port = free_port()
    lst = Listener(
        referee,
        "",
        None,
        max_size,
        on_stored=lambda: process_all(referee),
        lmtp=("127.0.0.1", port),
    )
    lst.start()
    try:
        yield port
    finally:
        lst.stop()


def answer_to(port: int, mail_from: str, rcpt: str, raw: bytes) -> int:
    """Send RAW in a session of its own: 250, or the code that refused its data."""
    try:
        with smtplib.SMTP("127.0.0.1", port, timeout=30) as c:
            c.sendmail(mail_from, [rcpt], raw)
        return 250
    except smtplib.SMTPDataError as e:
        return e.smtp_code


def submit(port: int, mail_from: str, rcpts: list[str], raw: bytes, **options) -> None:
    """One SMTP session to the listener on PORT that hands over RAW."""
    with smtplib.SMTP("127.0.0.1", port) as c:
        c.sendmail(mail_from, rcpts, raw, **options)


class Raw:
    """A client on a bare socket: sends exactly the bytes given, reads whole replies."""

    def __init__(self, port: int, timeout: float = 10):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.file = self.sock.makefile("rb")
        self.greeting = self.reply()

    def send(self, data: bytes) -> None:
        self.sock.sendall(data)

    def reply(self) -> str:
        """One reply, its lines joined: "250-a\\r\\n250 b" -> "250 a|b"."""
        lines = []
        while True:
            line = self.file.readline().decode("utf-8", "replace")
            if not line:
                return "EOF"
            lines.append(line[4:].rstrip("\r\n"))
            if line[3:4] != "-":
                return line[:3] + " " + "|".join(lines)

    def codes(self, n: int) -> list[str]:
        return [self.reply()[:3] for _ in range(n)]

    def close(self) -> None:
        self.file.close()  # the socket's descriptor stays open while its file is
        self.sock.close()


# The SMTP dialogue's tests (test_smtp_session.py, test_smtp_attacks.py, the LMTP tests) take these
# as their
# `referee` and `port` fixtures: `referee = pytest.fixture(game_on_sqlite)`.


def game_on_sqlite(tmp_path, clock) -> Iterator:
    """A referee on a SQLite file with the Sidekick game at GAME (the dialogue does not depend
    on the database)."""
    r = make_referee(tmp_path, clock, url=migrated_sqlite(tmp_path / "mailref.sqlite3"))
    r.create_game("nomes", "sidekick", GAME)
    yield r
    r.store.dispose()


def listener_of_game(referee) -> Iterator[int]:
    """The port of REFEREE's listener, with the Sidekick game at GAME (on REFEREE's own store)."""
    referee.create_game("nomes", "sidekick", GAME)
    with listening(referee) as port:
        yield port


def listener_of(referee) -> Iterator[int]:
    """The port of REFEREE's listener."""
    with listening(referee) as port:
        yield port


def kept(referee) -> list[InboxMessage]:
    """The stored mail, oldest first."""
    with referee.store() as s:
        return s.query(InboxMessage).order_by(InboxMessage.id).all()
