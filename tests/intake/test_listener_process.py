"""The SMTP listener runs in a process of its own (mailref/mail/intake.py): it is started
again if it dies, it never outlives the daemon (a SIGKILLed daemon leaves no listener
holding the port), and a flood of mail never starves processing."""

from __future__ import annotations

import asyncio
import os
import signal
import smtplib
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from mailref import daemon as daemon_module
from mailref.config import load
from mailref.daemon import INTAKE_LAG, Daemon
from support.dovecot import free_port
from support.helpers import mail, wait_for
from support.helpers import maildir_mails as outbox
from support.ops import Site

pytestmark = pytest.mark.spec("2.1", "7")

REF = "referee@ref.example"


def listener_of(daemon_pid: int) -> int | None:
    """The daemon's listener process: the child spawned by multiprocessing (not its resource
    tracker)."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == daemon_pid and b"spawn_main" in cmdline and b"resource_tracker" not in cmdline:
            return int(entry.name)
    return None


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def ask_help(port: int, sender: str) -> int:
    with smtplib.SMTP("127.0.0.1", port, timeout=30) as c:
        code, _ = c.noop()
        c.sendmail(sender, [REF], mail(sender, REF, "[Help]"))
    return code


def try_help(port: int, sender: str) -> bool:
    try:
        return ask_help(port, sender) == 250
    except (OSError, smtplib.SMTPException):
        return False


def test_a_dead_listener_is_started_again_and_stops_with_the_daemon(tmp_path):
    site = Site(tmp_path)
    with site.serve() as daemon:
        first = listener_of(daemon.proc.pid)
        assert (
            first is not None and first != daemon.proc.pid
        ), "the listener runs in a process of its own"
        assert ask_help(site.smtp_port, "ann@x.org") == 250
        os.kill(first, signal.SIGKILL)
        wait_for(lambda: "SMTP listener process ended" in daemon.stderr(), 30)
        assert wait_for(lambda: try_help(site.smtp_port, "ben@x.org"), 60), daemon.stderr()
        second = listener_of(daemon.proc.pid)
        assert second not in (None, first)
        replies = wait_for(lambda: len(outbox(tmp_path)) == 2 and outbox(tmp_path), 30)
        assert sorted(m["To"] for m in replies) == ["ann@x.org", "ben@x.org"]
        assert daemon.stop() == 0
    assert wait_for(lambda: not alive(second), 10), "SIGTERM stops the listener with the daemon"


def test_a_listener_killed_by_a_fault_says_where_and_the_daemon_names_the_signal(tmp_path):
    """A SIGBUS (a full disk under SQLite's mapped WAL index) killed a process
    without a word. Now the dying process writes its threads' stacks to the log
    (faulthandler), and the daemon says which signal ended its listener."""
    site = Site(tmp_path)
    with site.serve() as daemon:
        first = listener_of(daemon.proc.pid)
        assert first is not None
        os.kill(first, signal.SIGBUS)
        assert wait_for(
            lambda: "SMTP listener process ended (killed by SIGBUS); starting it again"
            in daemon.stderr(),
            30,
        ), daemon.stderr()
        assert (
            "Fatal Python error: Bus error" in daemon.stderr()
            and "most recent call first" in daemon.stderr()
        )
        assert wait_for(lambda: try_help(site.smtp_port, "ben@x.org"), 60), daemon.stderr()
        assert daemon.stop() == 0


def test_a_killed_daemon_takes_its_listener_with_it(tmp_path):
    site = Site(tmp_path)
    with site.serve() as daemon:
        child = listener_of(daemon.proc.pid)
        assert child is not None
        daemon.proc.kill()
        daemon.proc.wait()
        assert wait_for(lambda: not alive(child), 10), "the listener died with the daemon"
    # The port is free at once: the next daemon listens on it and takes mail.
    with site.serve() as again:
        assert ask_help(site.smtp_port, "cat@x.org") == 250
        assert wait_for(lambda: outbox(tmp_path), 30)
        assert again.stop() == 0


def test_a_flood_of_mail_never_starves_processing(tmp_path, monkeypatch):
    """While notes of stored mail keep coming, processing waits for a quiet moment, but never
    longer than INTAKE_LAG behind the first mail waiting (no assertion on speed: a starved
    worker would never return). The daemon's clock moves only as the notes come (5 ms a note)
    and as the test says: a loaded machine's stall between two notes is no quiet moment."""
    monkeypatch.setattr(daemon_module, "INTAKE_QUIET", 0.3)
    (tmp_path / "mailref.toml").write_text(
        f'[daemon]\ndatabase = "sqlite:///{tmp_path}/db.sqlite3"\n'
        f"[smtp_in]\nport = {free_port()}\n"
    )
    d = Daemon(load(tmp_path / "mailref.toml"))
    clock = [time.monotonic()]
    monkeypatch.setattr(daemon_module, "time", SimpleNamespace(monotonic=lambda: clock[0]))

    async def flood(stop: asyncio.Event) -> None:
        while not stop.is_set():  # what _noted() does for each note of the listener
            clock[0] += 0.005
            if d.noted_at <= d.processed_at:
                d.behind_since = clock[0]
            d.noted_at = clock[0]
            await asyncio.sleep(0.005)

    async def run() -> tuple[bool, float, bool, float]:
        stop = asyncio.Event()
        flooding = asyncio.create_task(flood(stop))
        await asyncio.sleep(0.02)
        t = clock[0]
        hot = await asyncio.wait_for(
            d.intake_first(), INTAKE_LAG * 20
        )  # returns: processing runs despite the flood
        waited = clock[0] - t
        stop.set()
        await flooding
        clock[0] += 0.4  # quiet now
        t = time.monotonic()
        calm = await asyncio.wait_for(d.intake_first(), INTAKE_LAG * 20)
        return hot, waited, calm, time.monotonic() - t

    try:
        hot, waited, calm, quiet = asyncio.run(run())
    finally:
        d.referee.store.dispose()
    assert waited > 0.3, "a burst in progress is let through first"
    assert hot and not calm, "a small batch while mail still arrives, a whole one after"
    assert quiet < INTAKE_LAG, "after a quiet moment processing starts without waiting for the lag"
