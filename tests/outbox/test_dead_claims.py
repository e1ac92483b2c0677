"""Claims of the dead (SPEC §4.3): a daemon that starts takes back at once what a process of
its own host that is gone had claimed; a live process's claim and another host's wait for
their lease."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from datetime import timedelta

import pytest
from sqlalchemy import select, update

from mailref.door import Settings
from mailref.referee import Referee
from mailref.store import InboxMessage, OutboxMessage, open_store
from mailref.store.dead_claims import process_gone, take_back
from mailref.timeutil import utcnow
from support.helpers import mail, wait_for
from support.ops import CountingSink, Site

pytestmark = pytest.mark.spec("4.3")

G = "nomes@ref.example"
HOST = socket.gethostname()


def seed(url: str, *players: str) -> None:
    referee = Referee(open_store(url), Settings("referee@ref.example", "gm@ref.example"), utcnow)
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


def outbox_rows(url: str) -> list[OutboxMessage]:
    store = open_store(url)
    try:
        with store() as s:
            return list(s.scalars(select(OutboxMessage).order_by(OutboxMessage.id)))
    finally:
        store.dispose()


def gone_pid() -> int:
    """The PID of a process of this host that has ended and been reaped."""
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


def test_a_sigkilled_daemon_restarted_sends_what_it_had_claimed_within_seconds(tmp_path):
    killed: list[int] = []

    def kill_at_first_delivery(envelope):
        if not killed:
            killed.append(daemon.proc.pid)
            os.kill(daemon.proc.pid, signal.SIGKILL)

    with CountingSink(on_data=kill_at_first_delivery) as sink:
        site = Site(tmp_path, relay_port=sink.port)
        url = f"sqlite:///{site.db}"
        site.db.parent.mkdir(parents=True, exist_ok=True)
        seed(url, "Alice", "Bob", "Carol", "Dave")
        queued = {r.message_id for r in outbox_rows(url)}
        assert len(queued) >= 5
        # The lease as shipped (10 minutes): only taking the claims back can send them soon.
        daemon = site.serve(MAILREF_OUTBOX_LEASE="600")
        daemon.ready()
        assert daemon.proc.wait(30) == -signal.SIGKILL
        daemon.stop()
        claimed = [r for r in outbox_rows(url) if r.status == "sending"]
        assert claimed and {r.claimed_by for r in claimed} == {f"{HOST}:{killed[0]}"}
        assert all(r.lease_until > utcnow() + timedelta(minutes=5) for r in claimed)

        started = time.monotonic()
        with site.serve(MAILREF_OUTBOX_LEASE="600") as again:
            assert wait_for(lambda: set(sink.message_ids()) >= queued, 20), sink.message_ids()
            took = time.monotonic() - started
            assert again.stop() == 0
        log = again.stderr()
    assert took < 20
    said = [ln for ln in log.splitlines() if "took back the claims" in ln]
    assert len(said) == 1, log
    assert f"{HOST}:{killed[0]}" in said[0] and f"{len(claimed)} outgoing row(s)" in said[0]
    assert all(r.status == "sent" for r in outbox_rows(url))
    # Only a row the relay took as the kill came may have gone twice (SPEC §6).
    twice = [mid for mid, n in sink.message_ids().items() if n > 1]
    assert len(twice) <= 3, twice


def test_a_live_process_or_another_hosts_claim_waits_for_its_lease(database_url):
    url = database_url
    seed(url, "Alice", "Bob", "Carol")
    live = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    zombie = subprocess.Popen([sys.executable, "-c", "pass"])  # ended, never reaped
    try:
        wait_for(lambda: process_gone(f"{HOST}:{zombie.pid}"), 10)
        now = utcnow()
        owners = {
            f"{HOST}:{gone_pid()}": "queued",
            f"{HOST}:{zombie.pid}": "queued",
            f"{HOST}:{live.pid}": "sending",
            f"other-host.example:{gone_pid()}": "sending",
            f"{HOST}:{os.getpid()}": "queued",  # a claim under the PID this process has now
        }
        store = open_store(url)
        try:
            with store() as s, s.begin():
                ids = list(s.scalars(select(OutboxMessage.id).order_by(OutboxMessage.id)))
                assert len(ids) >= len(owners)
                for i, who in zip(ids, owners, strict=False):
                    s.execute(
                        update(OutboxMessage)
                        .where(OutboxMessage.id == i)
                        .values(
                            status="sending", claimed_by=who, lease_until=now + timedelta(hours=1)
                        )
                    )
                s.add(
                    InboxMessage(
                        message_id="<held@x.org>",
                        sha256="0" * 64,
                        raw=mail("p@x.org", G, "[Help]"),
                        size=10,
                        source="smtp",
                        received_at=now,
                        claimed_by=next(iter(owners)),
                        lease_until=now + timedelta(minutes=2),
                    )
                )
            done = take_back(store, now)
            with store() as s:
                got = {
                    r.claimed_by or owner: r.status
                    for r, owner in zip(
                        s.scalars(select(OutboxMessage).order_by(OutboxMessage.id)),
                        owners,
                        strict=False,
                    )
                }
                held = s.scalar(select(InboxMessage).where(InboxMessage.source == "smtp"))
        finally:
            store.dispose()
    finally:
        live.kill()
        live.wait()
        zombie.wait()
    assert got == owners
    assert (done.outbox, done.inbox) == (3, 1)
    assert held.claimed_by is None and held.lease_until is None
    assert sorted(done.dead) == sorted(w for w, st in owners.items() if st == "queued")


def test_outbox_retry_and_drop_take_a_row_a_gone_process_claimed_at_once(tmp_path):
    site = Site(tmp_path, smtp_in=False)
    url = f"sqlite:///{site.db}"
    site.db.parent.mkdir(parents=True, exist_ok=True)
    seed(url, "Alice", "Bob")
    first, second = [r.id for r in outbox_rows(url)][:2]
    store = open_store(url)
    try:
        with store() as s, s.begin():
            s.execute(
                update(OutboxMessage)
                .where(OutboxMessage.id.in_([first, second]))
                .values(
                    status="sending",
                    claimed_by=f"{HOST}:{gone_pid()}",
                    lease_until=utcnow() + timedelta(minutes=10),
                )
            )
    finally:
        store.dispose()
    r = site.cli("outbox", "retry", str(first))
    assert r.returncode == 0 and "1 delivered now" in r.stdout, r.stdout + r.stderr
    r = site.cli("outbox", "drop", str(second), "--reason", "sent by hand")
    assert r.returncode == 0, r.stderr
    got = {row.id: row.status for row in outbox_rows(url)}
    assert (got[first], got[second]) == ("sent", "dropped")
