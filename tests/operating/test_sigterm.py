"""SIGTERM as systemd sends it, at each moment of the daemon's life: opening the database, starting
the listener, mid delivery, the backlog at start, a slow relay."""

from __future__ import annotations

import os
import signal
import smtplib
import sqlite3
import threading
import time

import pytest

from support.daemon_processes import G, has_open, listener_child, serve
from support.helpers import process_all, wait_for
from support.ops import CountingSink, Site

pytestmark = pytest.mark.spec("7")


def test_a_sigterm_while_the_daemon_opens_its_database_stops_it_cleanly(tmp_path):
    """The daemon caught SIGTERM only once its event loop ran, a second or more after the start:
    a SIGTERM before (a restart right after a start; the chaos test stopping a daemon it had
    just restarted) killed it outright, exit -15. Here the database is held locked by another
    process, so the daemon waits at start-up with its database open; the SIGTERM comes then."""
    site = Site(tmp_path)
    site.create_game("nomes", "sidekick", G)
    holder = sqlite3.connect(site.db, isolation_level=None)
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    holder.execute("SELECT count(*) FROM sqlite_master").fetchall()
    proc = serve(site, tmp_path / "serve.log")
    try:
        assert wait_for(lambda: has_open(proc.pid, "mailref.sqlite3"), 60), (
            tmp_path / "serve.log"
        ).read_text()
        os.killpg(proc.pid, signal.SIGTERM)
        time.sleep(0.2)  # the signal is in before the database frees up
    finally:
        holder.close()
    rc = proc.wait(60)
    log = (tmp_path / "serve.log").read_text()
    assert rc == 0, log
    assert "mailref stopping" in log and "Traceback" not in log, log


def test_a_sigterm_while_the_listener_process_starts_stops_the_daemon_cleanly(tmp_path):
    """systemd signals every process of the unit. The SMTP listener's process ignored SIGTERM
    (the daemon stops it in order) only once it had imported mailref: a SIGTERM in its first
    moments killed it, and the daemon ended with "SMTP listener: cannot listen on ...: its
    process ended at start (exit code -15)", exit 1, as if the port were the trouble."""
    site = Site(tmp_path)
    site.create_game("nomes", "sidekick", G)
    for run in range(3):
        log = tmp_path / f"serve{run}.log"
        proc = serve(site, log)
        end = time.monotonic() + 60
        while listener_child(proc.pid) is None and time.monotonic() < end:  # as soon as it is born
            time.sleep(0.002)
        os.killpg(proc.pid, signal.SIGTERM)
        rc = proc.wait(60)
        assert rc == 0, log.read_text()
        assert "cannot listen" not in log.read_text(), log.read_text()


def test_a_sigterm_mid_delivery_finishes_the_round_and_sends_each_reply_once(tmp_path):
    """SIGTERM while the relay holds a reply's DATA (delivery runs beside processing): the daemon
    waits for the round in hand, marks what the relay took, and exits 0; the next start sends the
    rest, each reply once."""
    release = threading.Event()
    held = threading.Event()

    def hold(envelope) -> None:
        if not held.is_set():
            held.set()
            release.wait(30)

    with CountingSink(on_data=hold) as sink:
        site = Site(tmp_path, relay_port=sink.port)
        site.create_game("nomes", "sidekick", G)
        with site.serve() as daemon:
            with smtplib.SMTP("127.0.0.1", site.smtp_port, timeout=30) as s:
                for i in range(20):
                    s.sendmail(
                        f"s{i}@example.org",
                        [G],
                        (
                            f"From: s{i}@example.org\r\nTo: {G}\r\nSubject: [Help]\r\n"
                            f"Message-ID: <h{i}@x>\r\n\r\nhi\r\n"
                        ).encode(),
                    )
            assert held.wait(60), daemon.stderr()
            daemon.proc.send_signal(signal.SIGTERM)
            time.sleep(0.3)
            release.set()
            assert daemon.stop() == 0, daemon.stderr()
        with site.serve():
            assert wait_for(lambda: len(set(sink.message_ids())) >= 20, 60)
        counts = sink.message_ids()
        assert all(n == 1 for n in counts.values()), counts


def test_a_sigterm_during_the_backlog_at_start_does_not_wait_for_all_of_it(tmp_path):
    """Mail stored while the daemon was down is processed at start, a batch at a time. A SIGTERM
    then waited until the whole backlog was answered (thousands of mails: minutes, past
    systemd's TimeoutStopSec, then a SIGKILL); README says SIGTERM finishes the batch in hand.
    Now the daemon stops after the batch in hand (and the one more its stop takes), and the next
    start answers the rest, each mail once."""
    from mailref.config import load
    from mailref.referee import Referee
    from mailref.store import InboxMessage

    stop_sent = threading.Event()
    daemon_pid: list[int] = []

    def first_reply_stops_the_daemon(envelope) -> None:
        if not stop_sent.is_set() and daemon_pid:
            stop_sent.set()
            os.kill(daemon_pid[0], signal.SIGTERM)

    n = 1200
    with CountingSink(on_data=first_reply_stops_the_daemon) as sink:
        site = Site(tmp_path, relay_port=sink.port)
        site.create_game("nomes", "sidekick", G)
        referee = Referee.from_config(load(site.config))
        referee.keep(
            [
                (
                    f"From: s{i}@example.org\r\nTo: {G}\r\nSubject: [Help]\r\nMessage-ID: "
                    f"<b{i}@x>\r\n"
                    f"\r\nhi\r\n".encode(),
                    "smtp",
                    f"s{i}@example.org",
                    [G],
                )
                for i in range(n)
            ]
        )

        def waiting() -> int:
            with referee.store() as s:
                return s.query(InboxMessage).filter(InboxMessage.status == "new").count()

        log = tmp_path / "serve.log"
        proc = serve(site, log)
        daemon_pid.append(proc.pid)
        rc = proc.wait(120)
        assert rc == 0 and stop_sent.is_set(), log.read_text()
        assert waiting() > 0, "the daemon answered the whole backlog before it stopped"
        with site.serve():
            assert wait_for(lambda: waiting() == 0 and len(sink.message_ids()) >= n, 120)
        counts = sink.message_ids()
        assert len(counts) == n and all(c == 1 for c in counts.values()), len(counts)
        referee.store.dispose()


def test_a_sigterm_with_many_replies_queued_for_a_slow_relay_stops_without_draining_them(tmp_path):
    """The stop delivered until the outbox was empty: with hundreds of rows queued for a slow
    relay (one just back after an outage) a SIGTERM took minutes, past the unit's
    TimeoutStopSec, and systemd's SIGKILL then left rows claimed for the lease's 10 minutes. The
    stop now delivers for STOP_DELIVERY seconds at most; the rest goes at the next start, once."""
    from mailref.config import load
    from mailref.referee import Referee
    from mailref.store import OutboxMessage

    stop_sent = threading.Event()
    daemon_pid: list[int] = []

    def first_reply_stops_the_daemon(envelope) -> None:
        if not stop_sent.is_set() and daemon_pid:
            stop_sent.set()
            os.kill(daemon_pid[0], signal.SIGTERM)

    n = 400
    with CountingSink(delay=0.05, on_data=first_reply_stops_the_daemon) as sink:
        site = Site(tmp_path, relay_port=sink.port)
        site.create_game("nomes", "sidekick", G)
        referee = Referee.from_config(load(site.config))
        referee.keep(
            [
                (
                    f"From: s{i}@example.org\r\nTo: {G}\r\nSubject: [Help]\r\nMessage-ID: "
                    f"<q{i}@x>\r\n"
                    f"\r\nhi\r\n".encode(),
                    "smtp",
                    f"s{i}@example.org",
                    [G],
                )
                for i in range(n)
            ]
        )
        assert process_all(referee) == n  # n replies queued while no daemon runs

        def queued() -> int:
            with referee.store() as s:
                return s.query(OutboxMessage).filter(OutboxMessage.status != "sent").count()

        log = tmp_path / "serve.log"
        proc = serve(site, log)
        daemon_pid.append(proc.pid)
        rc = proc.wait(120)
        assert rc == 0 and stop_sent.is_set(), log.read_text()
        assert queued() > 0, "the stop delivered every queued reply first"
        with site.serve():
            assert wait_for(lambda: queued() == 0, 120)
        counts = sink.message_ids()
        assert len(counts) == n and all(c == 1 for c in counts.values()), len(counts)
        referee.store.dispose()
