"""Faults an operator meets: a database that turns read-only, a full disk, a lock
held by another process. Each gives one clear log line, 451 at the listener, no resend
loop, and a clean start once the fault is gone; read-only -wal/-shm files left behind are
repaired at start. The disks are real: small ext4 filesystems on loop devices (root only)."""

from __future__ import annotations

import ctypes
import os
import shutil
import smtplib
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import select

from mailref.door import Settings
from mailref.referee import Referee
from mailref.store import InboxMessage, OutboxMessage, open_store
from mailref.timeutil import utcnow
from support.helpers import mail, wait_for
from support.ops import CountingSink, Daemon, Site

pytestmark = pytest.mark.spec("7")

G = "nomes@ref.example"
PR_CAPBSET_DROP, CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH = (
    24,
    1,
    2,
)  # <linux/prctl.h>, <linux/capability.h>
root_only = pytest.mark.skipif(os.geteuid() != 0, reason="loop mounts and other users need root")


class SmallDisk:
    """An ext4 filesystem of a few MB on a loop device, mounted with errors=remount-ro."""

    def __init__(self, where: Path, size: str = "24M"):
        self.image, self.mnt = where / "disk.img", where / "disk"
        self.mnt.mkdir()
        subprocess.run(["truncate", "-s", size, str(self.image)], check=True)
        subprocess.run(["mkfs.ext4", "-q", "-F", str(self.image)], check=True, capture_output=True)
        self.mount()

    def mount(self) -> None:
        r = subprocess.run(
            ["mount", "-o", "loop,errors=remount-ro", str(self.image), str(self.mnt)],
            capture_output=True,
            text=True,
        )
        if r.returncode != 0:
            pytest.skip(f"cannot mount a loop device here: {r.stderr.strip()}")

    def device(self) -> str:
        for line in Path("/proc/mounts").read_text().splitlines():
            dev, point = line.split()[:2]
            if point == str(self.mnt):
                return Path(dev).name
        raise AssertionError("not mounted")

    def turn_read_only(self) -> None:
        """What the kernel does on a filesystem error: remount read-only under the open files."""
        Path(f"/sys/fs/ext4/{self.device()}/trigger_fs_error").write_text("mailref test\n")

    def repair(self) -> None:
        """The operator's fix: unmount, fsck, mount again read-write."""
        subprocess.run(["umount", str(self.mnt)], check=True)
        subprocess.run(["e2fsck", "-fy", str(self.image)], capture_output=True)
        self.mount()

    def fill(self) -> Path:
        filler = self.mnt / "filler"
        subprocess.run(["dd", "if=/dev/zero", f"of={filler}", "bs=1M"], capture_output=True)
        return filler

    def remove(self) -> None:
        subprocess.run(["umount", "-l", str(self.mnt)], capture_output=True)


@pytest.fixture
def disk(tmp_path):
    if not shutil.which("mkfs.ext4") or os.geteuid() != 0:
        pytest.skip("needs root and mkfs.ext4 for a loop-mounted filesystem")
    d = SmallDisk(tmp_path)
    yield d
    d.remove()


def seed(db: Path, *players: str) -> None:
    referee = Referee(
        open_store(f"sqlite:///{db}"), Settings("referee@ref.example", "gm@ref.example"), utcnow
    )
    try:
        referee.create_game("nomes", "sidekick", G, gm="gm@ref.example")
        for name in players:
            referee.admin(
                "nomes",
                {"type": "player_add", "name": name, "address": f"{name.lower()}@x.org"},
                "test",
            )
    finally:
        referee.store.dispose()


def outbox_rows(db: Path) -> list[OutboxMessage]:
    store = open_store(f"sqlite:///{db}")
    try:
        with store() as s:
            return list(s.scalars(select(OutboxMessage).order_by(OutboxMessage.id)))
    finally:
        store.dispose()


def send(port: int, raw: bytes, frm: str = "p@x.org", to: str = G) -> tuple[int, str]:
    """The listener's answer to DATA: (code, text)."""
    with smtplib.SMTP("127.0.0.1", port, timeout=60) as c:
        try:
            c.sendmail(frm, [to], raw)
        except smtplib.SMTPDataError as e:
            return e.smtp_code, e.smtp_error.decode()
        except smtplib.SMTPRecipientsRefused as e:  # the store could not even be read for RCPT
            code, text = e.recipients[to]
            return code, text.decode()
    return 250, ""


def send_as_a_client_does(port: int, raw: bytes, daemon) -> tuple[int, str]:
    """send(), tried again a few times when the connection is lost before any answer, as a
    sending server does. The first connection after filling the disk was once in a while reset
    before its greeting: the daemon had died of SIGBUS (its WAL index on a full disk; see the
    test below). What the daemon said is kept in the failure's message."""
    for attempt in range(4):
        try:
            return send(port, raw, "alice@x.org")
        except (smtplib.SMTPServerDisconnected, ConnectionError) as e:
            if attempt == 3:
                raise AssertionError(f"{e}; the daemon said:\n{daemon.stderr()}") from e
            time.sleep(1)
    raise AssertionError("unreachable")


def lines_with(text: str, word: str) -> list[str]:
    return [ln for ln in text.splitlines() if word in ln]


@root_only
def test_a_database_turning_read_only_mid_batch_sends_nothing_twice_and_starts_clean_after(
    tmp_path, disk
):
    db = disk.mnt / "mailref.sqlite3"
    seed(db, "Alice", "Bob")
    queued = len(outbox_rows(db))

    def fault_on_first_delivery(envelope):
        if not getattr(fault_on_first_delivery, "done", False):
            fault_on_first_delivery.done = True
            disk.turn_read_only()

    with CountingSink(on_data=fault_on_first_delivery) as sink:
        site = Site(tmp_path, relay_port=sink.port, database=str(db))
        with site.serve() as daemon:
            wait_for(
                lambda: len(sink.mails) >= queued + 1, 30
            )  # the batch, then one alert past the store
            assert send(site.smtp_port, mail("carol@x.org", G, "[Help]"))[0] == 451
            time.sleep(4)  # a loop would resend every second
            counts = sink.message_ids()
            assert sorted(counts.values()) == [1] * (queued + 1), counts
            assert [m["X-Mailref-Kind"] for m in sink.parsed()].count("alert") == 1
            assert daemon.stop() == 0
        log = daemon.stderr()
        assert len(lines_with(log, "cannot mark delivered rows")) == 1, log
        assert (
            len(lines_with(log, "refused with 451")) == 1
            and "read-only" in lines_with(log, "451")[0]
        )
        assert "Traceback" not in log

        disk.repair()
        with site.serve() as daemon:
            assert send(site.smtp_port, mail("carol@x.org", G, "[Help]"))[0] == 250
            wait_for(lambda: len(sink.mails) >= queued + 2, 30)
            time.sleep(2)
            assert daemon.stop() == 0
        assert (
            "Traceback" not in daemon.stderr() and "ERROR" not in daemon.stderr()
        ), daemon.stderr()
    assert sorted(sink.message_ids().values()) == [1] * (queued + 2)


@root_only
def test_a_database_read_only_at_start_is_one_line_and_exit_1(tmp_path, disk):
    db = disk.mnt / "mailref.sqlite3"
    seed(db, "Alice")
    disk.turn_read_only()
    site = Site(tmp_path, database=str(db))
    r = site.cli("serve", timeout=120)
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert "read-only" in r.stderr.strip().splitlines()[-1]
    for args in (("score", "nomes", "Alice", "+1"), ("game", "show", "nomes")):
        r = site.cli(*args)  # SQLite in WAL mode cannot even read without writing its -shm
        assert r.returncode == 1 and r.stderr.count("\n") == 1 and "read-only" in r.stderr, r.stderr


@root_only
def test_a_full_disk_answers_451_and_the_mail_is_taken_once_there_is_room(tmp_path, disk):
    db = disk.mnt / "mailref.sqlite3"
    seed(db, "Alice")
    site = Site(tmp_path, database=str(db))
    big = mail(
        "alice@x.org", G, "[Help]", "a long letter\n" * 200_000
    )  # ~3 MB: new pages must be written
    with site.serve() as daemon:
        filler = disk.fill()
        code, text = send_as_a_client_does(site.smtp_port, big, daemon)
        assert code == 451, text
        filler.unlink()
        assert send_as_a_client_does(site.smtp_port, big, daemon)[0] == 250
        assert daemon.stop() == 0
    log = daemon.stderr()
    assert (
        len(lines_with(log, "refused with 451")) == 1 and "full" in lines_with(log, "451")[0]
    ), log
    assert "Traceback" not in log
    with site.serve() as daemon:
        assert daemon.stop() == 0
    assert "ERROR" not in daemon.stderr()


# The child: our store's connection (its connect event reserves the WAL index's blocks), a
# reader holding the log so that no checkpoint resets it, the log filled to just short of the
# index's first 32 KiB region, the disk filled but for GAP KiB, then commits across the region.
CROSS_THE_INDEX_REGION = """
import os, sqlite3, subprocess, sys
from mailref.store import open_store
mnt, gap_kb = sys.argv[1], int(sys.argv[2])
db = os.path.join(mnt, "t.sqlite3")
store = open_store(f"sqlite:///{db}")
w = store.engine.raw_connection().dbapi_connection
w.execute("PRAGMA wal_autocheckpoint=0")
w.execute("CREATE TABLE t(x)")
r = sqlite3.connect(db, isolation_level=None)
r.execute("BEGIN")
r.execute("SELECT count(*) FROM t").fetchall()
frames = lambda: w.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()[1]
blob = os.urandom(3500)
while frames() < 4058:
    w.execute("INSERT INTO t VALUES (?)", (blob,))
with open(os.path.join(mnt, "gap"), "wb") as f:
    f.write(b"1" * gap_kb * 1024)
    os.fsync(f.fileno())
for name, bs in (("filler", "64k"), ("filler2", "1k")):
    subprocess.run(["dd", "if=/dev/zero", f"of={mnt}/{name}", f"bs={bs}"], capture_output=True)
os.unlink(os.path.join(mnt, "gap"))
subprocess.run(["sync"])
try:
    for _ in range(10):
        w.execute("INSERT INTO t VALUES (?)", (blob,))
except sqlite3.Error as e:
    print("refused:", e)
print("alive at frame", frames())
"""


@root_only
@pytest.mark.parametrize("gap_kb", [24, 32, 40])
def test_a_full_disk_as_the_write_ahead_log_grows_is_an_error_not_a_crash(tmp_path, gap_kb):
    """SQLite maps its WAL index (-shm) into memory. On a filesystem with 1 KiB blocks, the index
    growing into its next region on a full disk killed the process with SIGBUS (exit -7): the
    daemon and its listener vanished without a line, as the full-disk test above once showed.
    With the index's blocks reserved at connect (store/walindex.py) the disk being full is an
    error SQLite returns. Without it, a gap of 32 KiB ended the child with SIGBUS here."""
    if not shutil.which("mkfs.ext4"):
        pytest.skip("needs mkfs.ext4")
    disk = SmallDisk(tmp_path, "40M")
    try:
        r = subprocess.run(
            [sys.executable, "-c", CROSS_THE_INDEX_REGION, str(disk.mnt), str(gap_kb)],
            capture_output=True,
            text=True,
            timeout=120,
        )
    finally:
        disk.remove()
    assert r.returncode == 0 and "alive" in r.stdout, (r.returncode, r.stdout, r.stderr[-2000:])


# Another process asks for the byte SQLite locks (shared) while a connection has the index
# open (UNIX_SHM_DMS: offset 128 of -shm); "free" would make it the first to open it.
PROBE_THE_INDEX_LOCK = """
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR)
try:
    fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, 128)
except OSError:
    print("held")
else:
    print("free")
"""


def test_reserving_the_wal_index_keeps_sqlites_locks_on_it(tmp_path):
    """The reservation must not drop this process's POSIX locks on the index: closing any
    descriptor of a file drops them all. A first version did: a CLI opening the database then
    took itself for the first to open it and truncated the index under the daemon's map, and
    the daemon died of SIGBUS (tests/outbox/test_outbox_claims.py, once)."""
    from sqlalchemy import text

    db = tmp_path / "t.sqlite3"
    store = open_store(f"sqlite:///{db}")
    try:
        with store.engine.begin() as c:  # the pool keeps this connection open, as the daemon's does
            c.execute(text("CREATE TABLE t(x)"))
        assert (
            Path(f"{db}-shm").stat().st_blocks * 512 >= 1 << 20
        ), "the index's blocks were reserved"
        r = subprocess.run(
            [sys.executable, "-c", PROBE_THE_INDEX_LOCK, f"{db}-shm"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert r.stdout.strip() == "held", (r.stdout, r.stderr)
    finally:
        store.dispose()


def test_a_lock_held_by_another_process_answers_451_then_recovers(tmp_path):
    site = Site(tmp_path)
    seed(site.db, "Alice")
    with site.serve(MAILREF_LOCK_WAIT="0.5") as daemon:
        locker = sqlite3.connect(site.db, isolation_level=None)
        locker.execute("BEGIN EXCLUSIVE")
        try:
            for sender in ("alice@x.org", "bob@x.org", "carol@x.org"):  # one line for the three
                assert send(site.smtp_port, mail(sender, G, "[Help]"), sender)[0] == 451
        finally:
            locker.execute("ROLLBACK")
            locker.close()
        assert send(site.smtp_port, mail("alice@x.org", G, "[Help]"), "alice@x.org")[0] == 250
        store = open_store(f"sqlite:///{site.db}")
        try:
            with store() as s:
                assert wait_for(
                    lambda: s.scalar(select(InboxMessage.status)) == "processed" or s.rollback(), 20
                )
        finally:
            store.dispose()
        assert daemon.stop() == 0
    log = daemon.stderr()
    refused = lines_with(log, "refused with 451")
    assert len(refused) == 1 and "locked" in refused[0], log
    again = lines_with(log, "storing mail again")
    assert len(again) == 1 and "after 3 refusal(s)" in again[0], log
    assert "Traceback" not in log


def without_file_powers() -> None:
    """In the child, before exec: as root, drop the powers to ignore file modes
    (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH) from the bounding set, so the daemon meets a 0444
    file as any user would and still runs the venv wherever it is (no other user needed)."""
    if os.geteuid() != 0:
        return
    libc = ctypes.CDLL(None, use_errno=True)
    for cap in (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH):
        if libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def test_wal_and_shm_left_read_only_after_a_read_only_period_are_repaired_at_start(tmp_path):
    site = Site(tmp_path, smtp_in=False)
    seed(site.db, "Alice")
    con = sqlite3.connect(site.db)  # leave -wal and -shm behind, as a stopped process can
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("CREATE TABLE IF NOT EXISTS keep (x)")
    con.commit()
    shm = site.db.with_name(site.db.name + "-shm")
    assert shm.exists()
    shm.chmod(0o444)  # what SQLite created while the database was 0444
    daemon = Daemon(site, {}, preexec=without_file_powers)
    with daemon:
        assert shm.stat().st_mode & 0o200
        assert daemon.stop() == 0
    con.close()
    assert (
        "was read-only" in daemon.stderr() and "made writable" in daemon.stderr()
    ), daemon.stderr()


def test_the_drivers_own_errors_are_store_faults():
    """`mailref replay` reads with sqlite3 or psycopg alone: their errors are said in one line
    too."""
    import sqlite3

    import psycopg

    from mailref.store.faults import describe, is_store_fault

    assert is_store_fault(sqlite3.OperationalError("database is locked"))
    assert is_store_fault(psycopg.OperationalError("connection refused"))
    assert describe(psycopg.OperationalError("could not connect to server")).startswith(
        "the database server is unreachable"
    )
    assert not is_store_fault(ValueError("a bug"))


def test_a_dropped_connection_is_said_only_if_the_next_try_fails_too(caplog):
    """A PostgreSQL restart drops the connections in use: the next try runs on a new one, and
    only a second failure in a row is an ERROR (then once, with its recovery)."""
    import logging

    from sqlalchemy.exc import DBAPIError

    from mailref.store.faults import FaultLog

    dropped = DBAPIError(
        "SELECT 1",
        {},
        Exception("terminating connection due to administrator command"),
        connection_invalidated=True,
    )
    faults = FaultLog(logging.getLogger("mailref.test"))
    with caplog.at_level(logging.INFO, "mailref.test"):
        faults.failed("processing", dropped)
        faults.cleared("processing")  # the next try worked
        faults.failed("processing", dropped)
        faults.failed("processing", dropped)  # and again: now it is a fault
        faults.failed("processing", dropped)  # said once while it lasts
        faults.cleared("processing")
    said = [(r.levelname, r.getMessage().split(":")[1].strip()) for r in caplog.records]
    assert said == [
        ("INFO", "the database dropped our connection (Exception"),
        ("INFO", "the database dropped our connection (Exception"),
        ("ERROR", "Exception"),
        ("INFO", "working again"),
    ], said


def test_a_fault_whose_sqlite_words_alternate_is_said_once_as_its_folders_trouble(
    caplog, monkeypatch, tmp_path
):
    """SQLite's errors on a disk remounted read-only alternate ("disk I/O error", "attempt to
    write a readonly database"), and each change of words was said again: three ERROR lines
    for one fault. Said as what is wrong with the database's folder, once."""
    import logging
    import sqlite3

    import mailref.store.faults as faults

    db = tmp_path / "mailref.sqlite3"
    monkeypatch.setattr(
        faults,
        "_probe",
        lambda folder: f"the filesystem holding {folder} is read-only: make it writable",
    )
    log = faults.FaultLog(logging.getLogger("mailref.test"), db)
    with caplog.at_level(logging.INFO, "mailref.test"):
        for words in ("disk I/O error", "attempt to write a readonly database", "disk I/O error"):
            log.failed("outbox: cannot mark delivered rows", sqlite3.OperationalError(words))
    assert [r.getMessage() for r in caplog.records] == [
        f"outbox: cannot mark delivered rows: the filesystem holding {tmp_path} is read-only: "
        "make it writable"
    ]
