"""An operator's bench: a real SMTP sink that counts what it receives, a site folder with a
mailref.toml, the CLI and `mailref serve` as subprocesses."""

from __future__ import annotations

import collections
import contextlib
import email
import email.policy
import io
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

from aiosmtpd.controller import Controller

from support.dovecot import free_port


class CountingSink:
    """An SMTP relay that keeps every mail and counts deliveries per Message-ID."""

    def __init__(self, delay: float = 0.0, on_data=None, smtputf8: bool = True):
        self.delay, self.on_data = delay, on_data
        self.mails: list[tuple[list[str], bytes]] = []
        self.sessions = 0
        self.lock = threading.Lock()
        # SMTPUTF8 offered as aiosmtpd's Controller (and Postfix) does by default; False: an older
        # relay.
        self.controller = Controller(
            self, hostname="127.0.0.1", port=free_port(), enable_SMTPUTF8=smtputf8
        )
        self.port = self.controller.port

    async def handle_EHLO(self, server, session, envelope, hostname, responses):
        with self.lock:
            self.sessions += 1
        session.host_name = hostname
        return responses

    async def handle_DATA(self, server, session, envelope):
        if self.delay:
            time.sleep(self.delay)  # a slow relay: batches of several processes overlap
        with self.lock:
            self.mails.append((list(envelope.rcpt_tos), envelope.content))
        if self.on_data:
            self.on_data(envelope)
        return "250 OK"

    def __enter__(self) -> CountingSink:
        self.controller.start()
        return self

    def __exit__(self, *exc) -> None:
        self.controller.stop()

    def message_ids(self) -> collections.Counter:
        with self.lock:
            return collections.Counter(
                email.message_from_bytes(raw)["Message-ID"] for _, raw in self.mails
            )

    def parsed(self) -> list:
        with self.lock:
            return [
                email.message_from_bytes(raw, policy=email.policy.default) for _, raw in self.mails
            ]


class Site:
    """A folder with a mailref.toml, as `mailref init` would leave it."""

    def __init__(
        self,
        root: Path,
        relay_port: int | None = None,
        smtp_in: bool = True,
        extra: str = "",
        database: str = "var/mailref.sqlite3",
    ):
        self.root = root
        self.smtp_port = free_port() if smtp_in else None
        url = database if "://" in database else f"sqlite:///{database}"  # a URL, or a file in ROOT
        toml = (
            f'[daemon]\ndatabase = "{url}"\nfrom_address = "referee@ref.example"\n'
            f'admin_address = "gm@ref.example"\n'
        )
        if smtp_in:
            toml += f'[smtp_in]\nhost = "127.0.0.1"\nport = {self.smtp_port}\n'
        if relay_port:
            toml += f'[smtp_out]\nhost = "127.0.0.1"\nport = {relay_port}\n'
        toml += '[outbox]\nmaildir = "var/outbox"\n' + extra
        self.config = root / "mailref.toml"
        self.config.write_text(toml)
        self.db = root / database

    def env(self, **extra: str) -> dict[str, str]:
        env = {
            k: v
            for k, v in os.environ.items()
            if k not in ("MAILREF_CONFIG", "JOURNAL_STREAM", "NOTIFY_SOCKET")
        }
        return {**env, "MAILREF_CONFIG": str(self.config), **extra}

    def cli(self, *args: str, timeout: float = 60, **env: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "mailref", *args],
            cwd=self.root,
            env=self.env(**env),
            capture_output=True,
            text=True,
            timeout=timeout,
        )

    def create_game(
        self, slug: str, variant: str, address: str, name: str | None = None, gm: str | None = None
    ) -> None:
        """`mailref game create SLUG --variant VARIANT --address ADDRESS`, run in this process."""
        args = ["game", "create", slug, "--variant", variant, "--address", address]
        args += ["--name", name] if name is not None else []
        args += ["--gm", gm] if gm is not None else []
        r = self.cli_in_process(*args)
        assert r.returncode == 0, r.stderr

    def cli_in_process(self, *args: str) -> subprocess.CompletedProcess:
        """`mailref ARGS` on this site, run by the CLI's own main in this process: set-up where
        a test is not about the CLI (a CLI process costs a second of CPU, most of it importing
        mailref, which this process has done once)."""
        from mailref.cli import main

        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["--config", str(self.config), *args])
        return subprocess.CompletedProcess(["mailref", *args], code, out.getvalue(), err.getvalue())

    def start_cli(self, *args: str, **env: str) -> subprocess.Popen:
        return subprocess.Popen(
            [sys.executable, "-m", "mailref", *args],
            cwd=self.root,
            env=self.env(**env),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    def serve(self, **env: str) -> Daemon:
        return Daemon(self, env)


class Daemon:
    """`mailref serve` in a subprocess; ready once it says READY=1 over $NOTIFY_SOCKET."""

    def __init__(self, site: Site, env: dict[str, str], preexec=None):
        self.site = site
        sockpath = site.root / f"notify-{time.monotonic_ns()}.sock"
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(sockpath))
        sockpath.chmod(0o777)  # a daemon run as another user may notify too
        self.sock.settimeout(60)
        self.log_path = site.root / f"serve-{time.monotonic_ns()}.log"
        self.log = open(self.log_path, "w+")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "mailref", "serve"],
            cwd=site.root,
            env=site.env(NOTIFY_SOCKET=str(sockpath), **env),
            stdout=subprocess.DEVNULL,
            stderr=self.log,
            preexec_fn=preexec,
        )

    def ready(self) -> Daemon:
        try:
            assert self.sock.recv(100) == b"READY=1"
        except TimeoutError:
            raise AssertionError(f"the daemon did not get ready: {self.stderr()}") from None
        return self

    def stderr(self) -> str:
        if not self.log.closed:
            self.log.flush()
        return self.log_path.read_text()

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            rc = self.proc.wait(60)
        finally:
            self.sock.close()
            self.log.close()
        return rc

    def __enter__(self) -> Daemon:
        return self.ready()

    def __exit__(self, *exc) -> None:
        if self.proc.poll() is None:
            self.stop()
