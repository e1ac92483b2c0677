"""A lock another process holds on the database stops every part of the daemon at once:
processing, the outbox, the deadline check (and APScheduler, whose check every 2 s is skipped
while one waits). It is said once, and once more when it works again (SPEC §7)."""

from __future__ import annotations

import logging
import sqlite3
import time

import pytest

from mailref.store.faults import FaultLog
from support.helpers import wait_for
from support.ops import Site

pytestmark = pytest.mark.spec("7")

G = "nomes@ref.example"
LOCKED = sqlite3.OperationalError("database is locked")


def test_a_lock_met_by_every_part_of_a_process_is_one_line_and_one_more_when_it_is_over(caplog):
    daemon, outbox = (
        FaultLog(logging.getLogger("mailref.t")),
        FaultLog(logging.getLogger("mailref.t")),
    )
    with caplog.at_level(logging.INFO, "mailref.t"):
        for _ in range(3):
            outbox.failed("outbox: cannot claim rows to send", LOCKED)
            daemon.failed("processing", LOCKED)
            daemon.failed("reading deadlines", LOCKED)
        daemon.cleared("processing")
        daemon.cleared("reading deadlines")
        outbox.cleared("outbox: cannot claim rows to send")
        daemon.failed("processing", LOCKED)  # locked again: said again
        daemon.cleared("processing")
    said = [(r.levelname, r.getMessage()) for r in caplog.records]
    assert [level for level, _ in said] == ["ERROR", "INFO", "ERROR", "INFO"], said
    assert said[0][1].startswith("outbox: cannot claim rows to send: the database is locked")
    assert said[1][1] == "outbox: cannot claim rows to send: working again"
    assert said[2][1].startswith("processing: the database is locked")


def test_a_lock_longer_than_the_lock_wait_is_said_once_by_the_daemon_and_apscheduler(tmp_path):
    site = Site(tmp_path)
    site.create_game("nomes", "sidekick", G)
    with site.serve(MAILREF_LOCK_WAIT="5") as daemon:
        time.sleep(1)
        locker = sqlite3.connect(site.db, isolation_level=None)
        locker.execute("BEGIN EXCLUSIVE")
        try:
            time.sleep(14)  # the deadline check waits 5 s a try, and is due every 2 s
        finally:
            locker.execute("ROLLBACK")
            locker.close()
        assert wait_for(lambda: ": working again" in daemon.stderr(), 20), daemon.stderr()
        time.sleep(3)
        assert daemon.stop() == 0
    log = daemon.stderr().splitlines()
    trouble = [ln for ln in log if " ERROR " in ln or " WARNING " in ln]
    locked = [ln for ln in trouble if "the database is locked" in ln]
    skipped = [ln for ln in trouble if "apscheduler" in ln]
    assert len(locked) == 1, trouble  # was: processing, the outbox and the deadlines each
    assert len(skipped) <= 1, trouble  # was: one every 2 s
    assert [ln for ln in trouble if ln not in locked + skipped] == [], trouble
    assert len([ln for ln in log if ln.endswith(": working again")]) == 1, log
    if skipped:
        assert "waiting for the database" in skipped[0]
        assert len([ln for ln in log if "deadlines: checked again" in ln]) == 1, log
