"""Several daemons (SPEC §6): three `mailref serve` processes share one PostgreSQL database and
one Dovecot mailbox and relay their replies to one SMTP sink; 300 mails arrive while one
daemon after another is SIGKILLed at random moments and restarted. Afterwards every mail has
been answered, and answered once, except at most the one mail in flight at each kill: a
reply the relay accepted just before the kill, before its outbox row was marked sent, is
sent again by whichever daemon takes the row over (SPEC §6: "barring a crash between the
relay's acceptance and the row's marking"). So: no mail without a reply, and at most one
extra reply per kill. The daemons' outbox lease is 15 s here (MAILREF_OUTBOX_LEASE), so rows
a killed daemon had claimed are taken over within the test's time (6 s let a live daemon's
batch lapse on a loaded machine and be sent twice); the test waits on conditions (all
answered, every outgoing row sent), never for a fixed time."""

from __future__ import annotations

import email
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from sqlalchemy import func, select

from mailref.store import InboxMessage, JournalEntry, OutboxMessage, open_store
from support.dovecot import free_port
from support.helpers import mail, wait_for
from support.ops import Site

G = "nomes@ref.example"
MAILS = 300
JOINS = 6
DAEMONS = 3
KILLS = 6  # at least, at random moments while the mail arrives and is answered
LEASE = "15"  # seconds: a killed daemon's claimed rows are taken over within the test
pytestmark = [pytest.mark.dovecot, pytest.mark.spec("6")]


class Sink:
    """The relay the daemons send through: counts replies by the Message-ID they answer."""

    def __init__(self) -> None:
        self.replies: Counter[str] = Counter()
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope) -> str:
        msg = email.message_from_bytes(envelope.content)
        with self.lock:
            if msg["In-Reply-To"]:
                self.replies[msg["In-Reply-To"].strip()] += 1
        return "250 OK"

    def snapshot(self) -> Counter[str]:
        with self.lock:
            return Counter(self.replies)


@pytest.fixture
def sink():
    s = Sink()
    c = Controller(s, hostname="127.0.0.1", port=free_port())
    c.start()
    yield s, c.port
    c.stop()


@pytest.fixture
def database(postgres):
    """A fresh PostgreSQL database for the daemons, and the test's own store on it."""
    name = postgres.fresh_database()
    store = open_store(postgres.url(name), migrate=False)
    yield postgres.url(name), store
    store.dispose()
    postgres.drop(name)


def config(tmp: Path, n: int, url: str, dovecot, folder: str, relay_port: int) -> Path:
    site = tmp / f"daemon{n}"
    site.mkdir()
    return Site(
        site,
        relay_port=relay_port,
        smtp_in=False,
        extra=dovecot.imap_toml(folder, "2s"),
        database=url,
    ).config


class Daemons:
    def __init__(self, configs: list[Path], logs: Path):
        self.configs, self.logs = configs, logs
        self.procs: list[subprocess.Popen | None] = [None] * len(configs)
        self.runs = 0
        self.run_of: dict[int, int] = {}

    def start(self, i: int) -> None:
        self.runs += 1
        self.run_of[i] = self.runs
        log = open(self.logs / f"daemon{i}-run{self.runs}.log", "wb")  # noqa: SIM115
        env = {k: v for k, v in os.environ.items() if k not in ("MAILREF_CONFIG", "NOTIFY_SOCKET")}
        self.procs[i] = subprocess.Popen(
            [sys.executable, "-m", "mailref", "serve", "--config", str(self.configs[i])],
            env={**env, "MAILREF_LOG": "INFO", "MAILREF_OUTBOX_LEASE": LEASE},
            stdout=subprocess.DEVNULL,
            stderr=log,
        )
        log.close()

    def ready(self, i: int) -> bool:
        return b"mailref ready" in (self.logs / f"daemon{i}-run{self.run_of[i]}.log").read_bytes()

    def log(self, i: int) -> str:
        return (self.logs / f"daemon{i}-run{self.run_of[i]}.log").read_text(errors="replace")

    def term(self, i: int) -> int:
        p = self.procs[i]
        wait_for(
            lambda: catches_sigterm(p.pid), 30
        )  # past the interpreter's own start (see stop())
        p.send_signal(signal.SIGTERM)
        return p.wait(60)

    def kill(self, i: int) -> None:
        self.procs[i].send_signal(signal.SIGKILL)
        self.procs[i].wait(10)

    def stop(self) -> list[int]:
        codes = []
        for p in self.procs:
            if p and p.poll() is None:
                # A daemon restarted a moment ago may still be in the interpreter's own start,
                # before a line of mailref runs: no program catches a signal then (systemd counts
                # such an end as a clean stop). From mailref's first line on it must exit 0.
                wait_for(lambda p=p: catches_sigterm(p.pid), 30)
                p.send_signal(signal.SIGTERM)
        for p in self.procs:
            if p:
                try:
                    codes.append(p.wait(30))
                except subprocess.TimeoutExpired:
                    p.kill()
                    codes.append(p.wait())
        return codes


def catches_sigterm(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return True  # gone: nothing to wait for
    caught = int(status.split("SigCgt:")[1].split()[0], 16)
    return bool(caught & (1 << (signal.SIGTERM - 1)))


def nothing_left(store) -> bool:
    with store() as s:
        return not s.scalar(
            select(func.count()).select_from(OutboxMessage).where(OutboxMessage.status != "sent")
        ) and not s.scalar(
            select(func.count()).select_from(InboxMessage).where(InboxMessage.status == "new")
        )


def test_three_daemons_one_killed_at_random_answer_every_mail_once(
    tmp_path, database, dovecot, sink
):
    relay, relay_port = sink
    url, store = database
    folder = f"chaos{os.getpid()}"
    c = dovecot.client()
    for f in (folder, f"{folder}-done", f"{folder}-rejected"):
        if c.folder_exists(f):
            c.delete_folder(f)
    c.create_folder(folder)
    configs = [config(tmp_path, n, url, dovecot, folder, relay_port) for n in range(DAEMONS)]
    cli = subprocess.run(
        [
            sys.executable,
            "-m",
            "mailref",
            "--config",
            str(configs[0]),
            "game",
            "create",
            "nomes",
            "--variant",
            "sidekick",
            "--address",
            G,
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert cli.returncode == 0, cli.stderr

    # Players join (each a state change under the game's row lock, announced to all) and
    # strangers ask for help three times each: one reply per mail, whatever else is announced.
    rng = random.Random(14)
    mails = [mail(f"p{i}@players.example", G, "[Join]", f"Name: P{i}") for i in range(JOINS)]
    mails += [mail(f"s{i % 100}@strangers.example", G, "[Help]") for i in range(MAILS - JOINS)]
    ids = [email.message_from_bytes(m)["Message-ID"] for m in mails]

    daemons = Daemons(configs, tmp_path)
    for i in range(DAEMONS):
        daemons.start(i)
    kills = stops = round_ = last = 0
    try:

        def deliver() -> None:  # the mail arrives in bursts while daemons die
            a = dovecot.client()
            for k in range(0, MAILS, 30):
                for m in mails[k : k + 30]:
                    a.append(folder, m)
                time.sleep(rng.uniform(0.1, 0.5))
            a.logout()

        def answered() -> bool:
            return len(relay.snapshot().keys() & set(ids)) == MAILS

        arriving = threading.Thread(target=deliver)
        arriving.start()
        # Kill at random moments while the mail arrives and is answered: until it has all
        # arrived and KILLS daemons died (or everything is answered, or time is up).
        end = time.monotonic() + float(os.environ.get("MAILREF_CHAOS_SECONDS", "45"))
        while time.monotonic() < end and (arriving.is_alive() or kills < KILLS) and not answered():
            round_ += 1
            if round_ % 3 == 0:
                # A clean stop at any moment, start-up included: the daemon restarted last, a
                # moment after (guards against an exit status of -15). It must exit 0 and lose and
                # repeat nothing.
                time.sleep(rng.uniform(0.05, 0.8))
                victim = last
                code = daemons.term(victim)
                assert (
                    code == 0
                ), f"daemon {victim} ended {code} on SIGTERM: {daemons.log(victim)[-2000:]}"
                stops += 1
                daemons.start(victim)
                continue
            time.sleep(rng.uniform(0.3, 1.5))
            ready = [i for i in range(DAEMONS) if daemons.ready(i)]
            if ready:  # a daemon killed before it is up proves nothing
                victim = last = rng.choice(ready)
                daemons.kill(victim)
                kills += 1
                daemons.start(victim)
        arriving.join()
        # The last kills' mail in flight waits for the killed daemon's claims to lapse.
        all_answered = wait_for(answered, 240)
        # Nothing is left to send (every outgoing row is marked sent, no stored mail waits), so
        # no late duplicate can come; the daemons finish what they hold before they exit.
        settled = wait_for(lambda: nothing_left(store), 60)
    finally:
        codes = daemons.stop()
    replies = relay.snapshot()
    missing = [i for i in ids if replies[i] == 0]
    extra = {i: n - 1 for i, n in replies.items() if i in ids and n > 1}
    assert (
        all_answered and not missing
    ), f"{len(missing)} of {MAILS} never answered after {kills} kills, e.g. {missing[:3]}"
    assert (
        sum(extra.values()) <= kills
    ), f"{sum(extra.values())} extra replies after {kills} kills: {extra}"
    assert codes == [0] * DAEMONS
    assert c.folder_status(folder, ["MESSAGES"])[b"MESSAGES"] <= kills  # at most one left per kill
    c.logout()

    assert settled, "outgoing rows or stored mail left unfinished"
    with store() as s:
        statuses = dict(
            s.execute(select(InboxMessage.status, func.count()).group_by(InboxMessage.status)).all()
        )
        sources = list(
            s.scalars(select(JournalEntry.source).where(JournalEntry.source.like("mail:%")))
        )
    assert statuses == {"processed": MAILS}
    assert len(sources) == len(set(sources))  # no mail acted on twice
