"""What the bench's sections share: the result table, the corpus, a null aiosmtpd sink, the
databases, and `mailref serve` in its own process."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from aiosmtpd.controller import Controller  # noqa: E402
from aiosmtpd.lmtp import LMTP  # noqa: E402

from mailref.door import Settings  # noqa: E402
from mailref.referee import Referee  # noqa: E402
from mailref.store import open_store  # noqa: E402
from support.dovecot import PASSWORD, USER, Dovecot, free_port  # noqa: E402
from support.helpers import Clock, mail  # noqa: E402

G = "nomes@ref.example"
results: list[tuple[str, str, str, str, str]] = []  # (what, mailref, bare, ratio, target)


def out(what: str, ours: str, bare: str = "", ratio: str = "", target: str = "") -> None:
    results.append((what, ours, bare, ratio, target))
    print(f"  {what:<44} {ours:>22} {bare:>22} {ratio:>7} {target}", flush=True)


def corpus(n: int, tag: str = "") -> list[bytes]:
    """N `[Help]` mails from 100 senders (TAG names another hundred: the daily reply
    allowance is per sender)."""
    return [mail(f"p{i % 100}{tag}@players.example", G, "[Help]") for i in range(n)]


class Sink:
    """A null aiosmtpd sink (SMTP, or LMTP) that counts what it accepts."""

    def __init__(self, lmtp: bool = False) -> None:
        self.count = 0
        self.port = free_port()
        self.ctl = (LmtpController if lmtp else Controller)(
            self, hostname="127.0.0.1", port=self.port
        )

    async def handle_DATA(self, server, session, envelope):
        self.count += 1
        return "250 OK"

    def __enter__(self) -> Sink:
        self.ctl.start()
        return self

    def __exit__(self, *exc) -> None:
        self.ctl.stop()


class LmtpController(Controller):
    """aiosmtpd's controller serving its LMTP server."""

    def factory(self) -> LMTP:
        return LMTP(self.handler, **self.SMTP_kwargs)


PG = None  # a private PostgreSQL cluster (tests/postgres.py), when --postgres is given


def fresh_url(url: str | None, tmp: Path) -> str:
    """The URL of a new, empty database: a SQLite file in TMP, a fresh database of the private
    cluster ("pg"), or the DSN's database emptied."""
    if url is None:
        return f"sqlite:///{tmp}/mailref.sqlite3"
    if url == "pg":
        return PG.url(PG.fresh_database())
    from sqlalchemy import create_engine, text

    from mailref.store import Base

    eng = create_engine(url)
    Base.metadata.drop_all(eng)
    with eng.begin() as c:
        c.execute(text("DROP TABLE IF EXISTS alembic_version"))
    eng.dispose()
    return url


def fresh_store(url: str | None, tmp: Path):
    return open_store(fresh_url(url, tmp))


def daemon_db(url: str | None, tmp: Path) -> str | None:
    """What a daemon's configuration names: None for SQLite (var/mailref.sqlite3 beside it)."""
    return None if url is None else fresh_url(url, tmp)


def store_name(url: str | None) -> str:
    return "SQLite" if url is None else "PostgreSQL"


def start_postgres():
    """The suite's private cluster (its own data directory and port, fsync off), if here."""
    try:
        from support.postgres import Postgres, postgres_bindir
    except ImportError:
        print("  --postgres: tests/postgres.py is not in this checkout; PostgreSQL skipped")
        return None
    if postgres_bindir() is None or os.geteuid() != 0:
        print("  --postgres: needs Debian's postgresql and root; PostgreSQL skipped")
        return None
    pg = Postgres(Path(tempfile.mkdtemp(prefix="mailref-bench-pg-"))).start()
    pg.create_template()
    return pg


def referee_on(store, clock: Clock | None = None) -> Referee:
    import random

    return Referee(
        store,
        Settings("referee@ref.example", "gm@ref.example", replies_per_stranger=20),
        clock or Clock(),
        random.Random(7),
    )


# ---- SMTP ingest -----------------------------------------------------------------------


def write_config(
    tmp: Path,
    *,
    smtp_in: int | None = None,
    relay: int | None = None,
    dovecot: Dovecot | None = None,
    folder: str = "",
    database: str | None = None,
    lmtp_in: int | None = None,
) -> Path:
    cfg = tmp / "mailref.toml"
    text = (
        f'[daemon]\ndatabase = "{database or "sqlite:///var/mailref.sqlite3"}"\n'
        'from_address = "referee@ref.example"\nadmin_address = "gm@ref.example"\n'
        # The corpus's senders are strangers: answered as often as before session 9's
        # stranger allowance, so the figures measure the same work.
        'replies_per_stranger_per_day = 20\n'
    )
    if smtp_in:
        text += f'\n[smtp_in]\nhost = "127.0.0.1"\nport = {smtp_in}\n'
    if lmtp_in:
        text += f'\n[lmtp_in]\nhost = "127.0.0.1"\nport = {lmtp_in}\n'
    if relay:
        text += f'\n[smtp_out]\nhost = "127.0.0.1"\nport = {relay}\n'
    if dovecot:
        text += (
            f'\n[imap]\nhost = "127.0.0.1"\nport = {dovecot.port}\nssl = false\nusername = '
            f'"{USER}"\n'
            f'password = "{PASSWORD}"\nfolder = "{folder}"\nprocessed_folder = "{folder}-done"\n'
            f'rejected_folder = "{folder}-rej"\nidle = true\npoll_interval = "1h"\n'
        )
    text += '\n[outbox]\nmaildir = "var/outbox"\n'
    cfg.write_text(text)
    return cfg


def cli(cfg: Path, *args: str) -> None:
    subprocess.run(
        [sys.executable, "-m", "mailref", "--config", str(cfg), *args],
        check=True,
        capture_output=True,
    )


def _children(pid: int) -> list[str]:
    out = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        out += (task / "children").read_text().split()
    return out


class Daemon:
    """`mailref serve` in its own process; READY is read from a private NOTIFY_SOCKET."""

    def __init__(self, cfg: Path):
        self.sock_path = str(cfg.parent / "notify.sock")
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(self.sock_path)
        self.log = cfg.parent / "daemon.log"
        self.started = time.perf_counter()
        with self.log.open("wb") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "mailref", "serve", "--config", str(cfg)],
                env={**os.environ, "NOTIFY_SOCKET": self.sock_path, "MAILREF_LOG": "WARNING"},
                stdout=subprocess.DEVNULL,
                stderr=log,
            )

    def ready(self, timeout: float = 300) -> float:
        self.sock.settimeout(timeout)
        while True:
            if b"READY=1" in self.sock.recv(100):
                return time.perf_counter() - self.started

    def rss_mb(self) -> float:
        """The daemon's resident memory with its children's (the SMTP listener's process)."""
        pids = [self.proc.pid] + [int(p) for p in _children(self.proc.pid)]
        total = 0
        for pid in pids:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        return total / 1024

    def cpu(self) -> tuple[float, float]:
        """CPU seconds so far (user + system) of the listener's process and of the daemon's."""
        tick = os.sysconf("SC_CLK_TCK")

        def of(pid: int) -> float:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / tick

        return sum(of(int(p)) for p in _children(self.proc.pid)), of(self.proc.pid)

    def stop(self) -> float | None:
        """SIGTERM; seconds until it exited, or None if it had not within 60 s (then killed)."""
        t = time.perf_counter()
        self.proc.terminate()
        try:
            self.proc.wait(60)
            took: float | None = time.perf_counter() - t
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            took = None
        self.sock.close()
        said = self.log.read_text(errors="replace").splitlines()
        if said:  # warnings and errors only: anything here may explain a figure
            print("  (the daemon said: " + " | ".join(said[:5])[:600] + ")")
        return took


def send_all(port: int, msgs: list[bytes], lmtp: bool = False) -> float:
    """Seconds to hand MSGS over one connection (SMTP, or LMTP), each once its reply came."""
    import smtplib

    t = time.perf_counter()
    with (smtplib.LMTP if lmtp else smtplib.SMTP)("127.0.0.1", port) as c:
        for m in msgs:
            c.sendmail("p@players.example", [G], m)
    return time.perf_counter() - t
