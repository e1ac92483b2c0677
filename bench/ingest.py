"""Ingest benchmark: the same generated mail through (1) a bare aiosmtpd sink, (2) mailref's
SMTP listener (each message stored, read, classified and answered), (3) a bare IMAP fetch
from a real Dovecot, (4) mailref's IMAP drain of that mailbox; and reply latency p50/p95
with IDLE through the running daemon. Prints figures; asserts nothing.

    .venv/bin/python bench/ingest.py [N]          (root, Dovecot installed)
"""

from __future__ import annotations

import os
import random
import smtplib
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from aiosmtpd.controller import Controller  # noqa: E402

from dovecot import Dovecot, free_port  # noqa: E402
from helpers import Clock, mail, make_referee  # noqa: E402
from mailref.config import Imap  # noqa: E402
from mailref.mail.imap import Poller  # noqa: E402
from mailref.mail.smtp import Listener  # noqa: E402

G = "nomes@ref.example"


def corpus(n: int) -> list[bytes]:
    subjects = ["[Help]", "[Status]", "[Vote] 1", "Re: [Proposal 1] x", "[Rules]", "chatter"]
    return [mail(f"p{i % 50}@players.example", G, random.choice(subjects), "FOR\n\nOn Mon, X wrote:\n> AGAINST\n")
            for i in range(n)]


def rate(n: int, secs: float) -> str:
    return f"{n / secs:8.0f} msg/s  ({n} in {secs:.2f}s)"


class Sink:
    async def handle_DATA(self, server, session, envelope):
        return "250 OK"


def smtp_send(port: int, msgs: list[bytes]) -> float:
    t = time.perf_counter()
    with smtplib.SMTP("127.0.0.1", port) as c:
        for m in msgs:
            c.sendmail("p@players.example", [G], m)
    return time.perf_counter() - t


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    msgs = corpus(n)
    print(f"ingest benchmark, {n} generated messages, Python {sys.version.split()[0]}")
    port = free_port()
    ctl = Controller(Sink(), hostname="127.0.0.1", port=port)
    ctl.start()
    print("bare aiosmtpd sink            ", rate(n, smtp_send(port, msgs)))
    ctl.stop()

    with tempfile.TemporaryDirectory() as tmp:
        r = make_referee(Path(tmp), Clock())
        r.create_game("nomes", "sidekick", G)
        for i in range(50):
            r.admin("nomes", {"type": "player_add", "name": f"P{i}", "address": f"p{i}@players.example"}, "bench")
        port = free_port()
        lst = Listener(r, "127.0.0.1", port, 10_000_000, on_stored=lambda: None)
        lst.start()
        secs = smtp_send(port, msgs)
        lst.stop()
        t = time.perf_counter()
        r.process_pending()
        proc = time.perf_counter() - t
        print("mailref SMTP listener (store) ", rate(n, secs))
        print("  + read, classify, answer    ", rate(n, proc), f" end to end {n / (secs + proc):.0f} msg/s")

    if os.geteuid() != 0:
        print("IMAP figures need root for the private Dovecot; skipped")
        return
    droot = Path(tempfile.mkdtemp(prefix="mailref-dovecot-"))
    d = Dovecot(droot).start()
    try:
        c = d.client()
        c.create_folder("bench")
        for i in range(0, n, 100):
            c.multiappend("bench", msgs[i:i + 100])
        c.select_folder("bench", readonly=True)
        t = time.perf_counter()
        uids = c.search(["ALL"])
        for i in range(0, len(uids), 200):
            c.fetch(uids[i:i + 200], ["BODY.PEEK[]"])
        print("bare IMAP fetch (Dovecot)     ", rate(n, time.perf_counter() - t))
        with tempfile.TemporaryDirectory() as tmp:
            r = make_referee(Path(tmp), Clock())
            r.create_game("nomes", "sidekick", G)
            cfg = Imap(host="127.0.0.1", port=d.port, ssl=False, username="mailreftest", password="secret",
                       folder="bench", processed_folder="bench-done", rejected_folder="bench-rej")
            p = Poller(cfg, r)
            pc = p.connect()
            t = time.perf_counter()
            done = p.drain(pc)
            print("mailref IMAP drain (all steps)", rate(done, time.perf_counter() - t))
            pc.logout()
        latency(d, c)
    finally:
        d.stop()


def latency(d, c, rounds: int = 40) -> None:
    """Reply latency through the running daemon with IDLE: append, wait for the reply file."""
    import mailbox

    sys.path.insert(0, str(ROOT / "tests"))
    from test_imap import write_config

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        c.create_folder("lat")
        cfg = write_config(tmp, d, "lat", poll="1h")
        subprocess.run([sys.executable, "-m", "mailref", "--config", str(cfg), "game", "create", "nomes", "--variant",
                        "sidekick", "--address", G], check=True, capture_output=True)
        proc = subprocess.Popen([sys.executable, "-m", "mailref", "serve", "--config", str(cfg)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(2)
        box = tmp / "var" / "outbox"
        samples = []
        try:
            for i in range(rounds):
                before = len(list(mailbox.Maildir(str(box)))) if box.exists() else 0
                t = time.perf_counter()
                c.append("lat", mail(f"lat{i}@players.example", G, "[Help]"))
                while (len(list(mailbox.Maildir(str(box)))) if box.exists() else 0) <= before:
                    if time.perf_counter() - t > 30:
                        break
                    time.sleep(0.005)
                samples.append(time.perf_counter() - t)
        finally:
            proc.terminate()
            proc.wait(30)
        q = statistics.quantiles(samples, n=20)
        print(f"reply latency with IDLE         p50 {statistics.median(samples) * 1000:.0f} ms, "
              f"p95 {q[18] * 1000:.0f} ms over {rounds} mails (append to reply file in the Maildir)")


if __name__ == "__main__":
    main()
