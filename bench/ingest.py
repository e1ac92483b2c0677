"""The listeners' section of bench/run.py (SPEC §8): SMTP and LMTP, in one run.

  ingest      N mails over one connection until the last 250, each given after its mail's
              commit: mailref's daemon (`mailref serve` with [smtp_in] and [lmtp_in], its
              listener in a process of its own) against a null aiosmtpd sink of the same
              protocol, whose handler keeps nothing. The listener is aiosmtpd's, so the ratio
              is mailref's own cost per mail.
  end to end  the same, until every reply reached the relay (a null sink), against the bare
              pipeline: an aiosmtpd listener whose handler parses the mail (compat32),
              commits it to SQLite and sends one reply over SMTP (one connection kept) before
              its 250.
Each figure is the better of two bursts (the first is also the warm-up), each burst from
senders of its own (the daily reply allowance is per sender)."""

from __future__ import annotations

import email
import email.policy
import email.utils
import smtplib
import sqlite3
import tempfile
import time
from email.mime.text import MIMEText
from pathlib import Path

from aiosmtpd.controller import Controller
from common import (
    Daemon,
    G,
    LmtpController,
    Sink,
    cli,
    corpus,
    daemon_db,
    out,
    send_all,
    store_name,
    write_config,
)

from support.dovecot import free_port

INGEST, END_TO_END = 0.6, 0.5  # SPEC §8's targets


class Pipeline:
    """The bare pipeline: aiosmtpd (SMTP or LMTP), compat32 parse, SQLite commit, one reply."""

    def __init__(self, relay: int, db: Path, lmtp: bool) -> None:
        self.relay, self.port = relay, free_port()
        self.db = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute(
            "CREATE TABLE IF NOT EXISTS inbox (id INTEGER PRIMARY KEY, raw BLOB, sender TEXT)"
        )
        self.smtp: smtplib.SMTP | None = None
        self.ctl = (LmtpController if lmtp else Controller)(
            self, hostname="127.0.0.1", port=self.port
        )

    async def handle_DATA(self, server, session, envelope) -> str:
        raw = envelope.original_content
        msg = email.message_from_bytes(raw, policy=email.policy.compat32)
        self.db.execute("BEGIN IMMEDIATE")
        self.db.execute("INSERT INTO inbox (raw, sender) VALUES (?, ?)", (raw, msg["From"]))
        self.db.execute("COMMIT")
        reply = MIMEText("Here is the help.\n")
        reply["From"], reply["To"], reply["Subject"] = (
            "referee@ref.example",
            msg["From"],
            "Re: " + str(msg["Subject"]),
        )
        reply["In-Reply-To"] = msg["Message-ID"]
        if self.smtp is None:
            self.smtp = smtplib.SMTP("127.0.0.1", self.relay)
        self.smtp.sendmail(
            "referee@ref.example", [email.utils.parseaddr(msg["From"])[1]], reply.as_bytes()
        )
        return "250 OK"

    def __enter__(self) -> Pipeline:
        self.ctl.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.ctl.stop()
        if self.smtp is not None:
            self.smtp.quit()
        self.db.close()


def null_sink(msgs: list[bytes], lmtp: bool) -> tuple[float, float]:
    """Mails a second, and CPU ms a mail (this process: the sender and the sink)."""
    with Sink(lmtp) as sink:
        cpu = time.process_time()
        rate = len(msgs) / send_all(sink.port, msgs, lmtp)
        return rate, 1000 * (time.process_time() - cpu) / len(msgs)


def bare_pipeline(msgs: list[bytes], lmtp: bool, tmp: Path) -> tuple[float, float]:
    with (
        Sink() as relay,
        Pipeline(relay.port, Path(tempfile.mkdtemp(dir=tmp)) / "bare.sqlite3", lmtp) as p,
    ):
        cpu = time.process_time()
        rate = len(msgs) / send_all(p.port, msgs, lmtp)
        return rate, 1000 * (time.process_time() - cpu) / len(msgs)


def section_smtp(n: int, urls: list[str | None]) -> None:
    for url in urls:
        measure(n, url)


def measure(n: int, url: str | None) -> None:
    """Two rounds, each: the null sinks, the bare pipelines, then mailref's daemon (both
    listeners, ingest and end to end); the better of the two rounds of each. The bare runs
    and mailref's alternate, so a machine busy with other work weighs on both alike."""
    msgs = corpus(n)
    best: dict[tuple[str, bool], float] = {}
    cpu: dict[tuple[str, bool], list[float]] = {}  # CPU ms a mail of the better run

    def keep(key: tuple[str, bool], value: float, used: list[float] | None = None) -> bool:
        better = value > best.get(key, 0.0)
        if better:
            best[key] = value
            if used is not None:
                cpu[key] = used
        return better

    with Sink() as relay, tempfile.TemporaryDirectory() as tmp:
        smtp, lmtp = free_port(), free_port()
        cfg = write_config(
            Path(tmp),
            smtp_in=smtp,
            lmtp_in=lmtp,
            relay=relay.port,
            database=daemon_db(url, Path(tmp)),
        )
        cli(cfg, "game", "create", "nomes", "--variant", "sidekick", "--address", G)
        d = Daemon(cfg)
        try:
            d.ready()
            for burst in range(2):
                for over_lmtp in (False, True):
                    rate, used = null_sink(msgs, over_lmtp)
                    keep(("sink", over_lmtp), rate, [used])
                    rate, used = bare_pipeline(msgs, over_lmtp, Path(tmp))
                    keep(("bare", over_lmtp), rate, [used])
                    burst_msgs, before = corpus(n, f"b{burst}{over_lmtp}"), relay.count
                    t, start = time.perf_counter(), (*d.cpu(), time.process_time())
                    took = send_all(lmtp if over_lmtp else smtp, burst_msgs, over_lmtp)
                    keep(("ingest", over_lmtp), n / took)
                    while relay.count < before + n and time.perf_counter() - t < 600:
                        time.sleep(0.01)
                    used = [
                        1000 * (b - a) / n
                        for a, b in zip(start, (*d.cpu(), time.process_time()), strict=True)
                    ]
                    keep(("whole", over_lmtp), n / (time.perf_counter() - t), used)
        finally:
            d.stop()
    if relay.count < 4 * n:
        print(f"  (mailref: only {relay.count} replies of {4 * n})")
    where = store_name(url)
    for over_lmtp, name in ((False, "SMTP"), (True, "LMTP")):
        ingest, whole = best[("ingest", over_lmtp)], best[("whole", over_lmtp)]
        sink, bare = best[("sink", over_lmtp)], best[("bare", over_lmtp)]
        out(
            f"{name} ingest (every 250 after its commit), {where} (msg/s)",
            f"{ingest:,.0f}",
            f"{sink:,.0f}",
            f"{ingest / sink:.2f}",
            f"≥ {INGEST} × null aiosmtpd sink",
        )
        out(
            f"{name} end to end (until every reply is out), {where} (msg/s)",
            f"{whole:,.0f}",
            f"{bare:,.0f}",
            f"{whole / bare:.2f}",
            f"≥ {END_TO_END} × bare pipeline",
        )
        # CPU time is what a loaded machine changes least: every process of the burst (the
        # listener, the daemon, the bench's own sender and relay sink) against the bare one's.
        listener_ms, daemon_ms, bench_ms = cpu[("whole", over_lmtp)]
        out(
            f"{name} CPU per mail until every reply, listener + daemon + bench, {where} (ms)",
            f"{listener_ms:.2f} + {daemon_ms:.2f} + {bench_ms:.2f}",
            f"{cpu[('bare', over_lmtp)][0]:.2f}",
            f"{cpu[('bare', over_lmtp)][0] / (listener_ms + daemon_ms + bench_ms):.2f}",
        )
