"""`mailref serve` as an operator runs it: SMTP in, Maildir out, sd_notify, SIGTERM, and a
CLI change to a deadline picked up by the running daemon."""

from __future__ import annotations

import os
import shutil
import signal
import smtplib
import socket
import subprocess
import sys

import pytest

from support.cli import run_here
from support.dovecot import free_port
from support.helpers import mail, wait_for
from support.helpers import maildir_mails as outbox

pytestmark = pytest.mark.spec("7")

G = "nomes@ref.example"


@pytest.fixture
def daemon(tmp_path, database_url):
    port = free_port()
    (tmp_path / "mailref.toml").write_text(
        f'[daemon]\ndatabase = "{database_url}"\n[smtp_in]\nhost = "127.0.0.1"\n'
        f'port = {port}\n[outbox]\nmaildir = "var/outbox"\n'
    )
    notify = tmp_path / "notify.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(notify))
    sock.settimeout(30)
    env = {**os.environ, "NOTIFY_SOCKET": str(notify)}
    env.pop("MAILREF_CONFIG", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "mailref", "serve"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    assert sock.recv(100) == b"READY=1"
    yield tmp_path, port, proc
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 0
        assert sock.recv(100) == b"STOPPING=1"
    sock.close()


def test_newcomer_help_by_smtp_lands_in_the_outbox(daemon):
    tmp, port, proc = daemon
    with smtplib.SMTP("127.0.0.1", port) as c:
        c.sendmail(
            "newbie@x.org",
            ["referee@localhost"],
            mail("newbie@x.org", "referee@localhost", "[Help]"),
        )
    (reply,) = wait_for(lambda: outbox(tmp))
    assert reply["X-Mailref-Kind"] == "help" and reply["To"] == "newbie@x.org"


@pytest.mark.skipif(shutil.which("swaks") is None, reason="swaks not installed")
def test_swaks_help(daemon):
    tmp, port, proc = daemon
    r = subprocess.run(
        [
            "swaks",
            "--server",
            f"127.0.0.1:{port}",
            "--to",
            "referee@localhost",
            "--from",
            "s@x.org",
            "--header",
            "Subject: [Help]",
        ],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert r.returncode == 0, r.stdout
    assert wait_for(lambda: outbox(tmp))


def test_cli_deadline_change_is_picked_up_by_the_running_daemon(daemon):
    tmp, port, proc = daemon

    def cli(*args):
        env = {k: v for k, v in os.environ.items() if k != "MAILREF_CONFIG"}
        return subprocess.run(
            [sys.executable, "-m", "mailref", *args],
            cwd=tmp,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )

    create = ("game", "create", "nomes", "--variant", "sidekick", "--address", G)
    assert run_here(tmp, *create).returncode == 0
    assert run_here(tmp, "player", "add", "nomes", "Alice", "alice@x.org").returncode == 0
    assert run_here(tmp, "player", "add", "nomes", "Bob", "bob@x.org").returncode == 0
    assert cli("deadline", "nomes", "set", "2020-01-01T00:00:00Z").returncode == 0
    skipped = wait_for(lambda: [m for m in outbox(tmp) if "skipped" in m["Subject"]], 20)
    assert skipped, "the daemon fired the moved deadline"
    assert '"number": 2' in cli("game", "show", "nomes", "--json").stdout


def test_postgresql_ending_our_connections_costs_no_mail_and_no_log_line(tmp_path, postgres):
    """The server restarts or an admin ends our sessions (pg_terminate_backend): while the
    daemon idles, and again right between two mails. Every mail is taken (250) and answered
    once, and the daemon says nothing: the pool pings a connection that rested, and the
    listener keeps a mail on a new connection when its own was dropped (store/keep.py)."""
    import time

    name = postgres.fresh_database()
    port = free_port()
    (tmp_path / "mailref.toml").write_text(
        f'[daemon]\ndatabase = "{postgres.url(name)}"\n[smtp_in]\n'
        f'host = "127.0.0.1"\nport = {port}\n[outbox]\nmaildir = "var/outbox"\n'
    )
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("MAILREF_CONFIG", "NOTIFY_SOCKET", "JOURNAL_STREAM")
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "mailref", "serve"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )

    def send(n: int) -> None:
        with smtplib.SMTP("127.0.0.1", port, timeout=30) as c:
            c.sendmail(
                f"p{n}@x.org",
                ["referee@localhost"],
                mail(f"p{n}@x.org", "referee@localhost", "[Help]"),
            )

    try:
        deadline = time.monotonic() + 60
        while True:  # the listener is up once a session gets its greeting
            try:
                send(1)
                break
            except OSError:
                assert time.monotonic() < deadline, proc.stderr
                time.sleep(0.2)
        assert wait_for(lambda: len(outbox(tmp_path)) == 1, 30)
        postgres.end_sessions(name)
        time.sleep(2.5)  # the daemon idles through its loops meanwhile
        send(2)
        assert wait_for(lambda: len(outbox(tmp_path)) == 2, 30)
        for n in range(3, 6):
            send(n)
        postgres.end_sessions(name)
        send(6)  # at once: the listener's connection was used a moment ago
        assert wait_for(lambda: len(outbox(tmp_path)) == 6, 30)
    finally:
        proc.send_signal(signal.SIGTERM)
        log = proc.communicate(timeout=30)[1]
        postgres.retire(name)
    assert sorted(m["To"] for m in outbox(tmp_path)) == [f"p{n}@x.org" for n in range(1, 7)]
    assert [
        line for line in log.splitlines() if " ERROR " in line or " WARNING " in line
    ] == [], log


def test_mail_is_answered_in_the_store_while_a_relay_holds_a_delivery(tmp_path):
    """Delivery has its own lock (docs/decisions/outbox.md): a relay that sits on a reply's
    data for seconds holds up no processing. Mail arriving meanwhile is taken up and its reply
    queued at once; the reply goes out once the relay lets the round go."""
    import asyncio
    import sqlite3
    import threading
    import time

    from aiosmtpd.controller import Controller

    class StallingRelay:
        def __init__(self):
            self.got: list[bytes] = []
            self.holding, self.release = threading.Event(), threading.Event()

        async def handle_DATA(self, server, session, envelope):
            if not self.got:  # the first reply is held until the test lets it go
                self.holding.set()
                await asyncio.get_running_loop().run_in_executor(None, self.release.wait, 60)
            self.got.append(envelope.content)
            return "250 OK"

    relay = StallingRelay()
    ctl = Controller(relay, hostname="127.0.0.1", port=free_port())
    ctl.start()
    port = free_port()
    (tmp_path / "mailref.toml").write_text(
        '[daemon]\ndatabase = "sqlite:///var/mailref.sqlite3"\n'
        f'[smtp_in]\nhost = "127.0.0.1"\nport = {port}\n[smtp_out]\nhost = "127.0.0.1"\nport = '
        f"{ctl.port}\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("MAILREF_CONFIG", "NOTIFY_SOCKET")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "mailref", "serve"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:

        def send(who: str) -> None:
            with smtplib.SMTP("127.0.0.1", port) as c:
                c.sendmail(who, ["referee@localhost"], mail(who, "referee@localhost", "[Help]"))

        def statuses() -> list[str]:
            with sqlite3.connect(tmp_path / "var" / "mailref.sqlite3") as db:
                return [s for (s,) in db.execute("SELECT status FROM inbox ORDER BY id")]

        assert wait_for(lambda: port_open(port))
        send("first@x.org")
        assert relay.holding.wait(30), "the first reply reached the relay"
        send("second@x.org")
        assert wait_for(
            lambda: statuses() == ["processed", "processed"], 10
        ), f"the second mail waited for the relay: {statuses()}"
        assert not relay.got, "the first reply is still held"
        relay.release.set()
        assert wait_for(lambda: len(relay.got) == 2), "both replies went out once the relay let go"
        time.sleep(0.5)
        assert len(relay.got) == 2
    finally:
        relay.release.set()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 0, proc.stderr.read().decode()
        ctl.stop()


def port_open(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False
