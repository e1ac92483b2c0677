"""Fair time (SPEC §2.1): the latency of a player's mail while a stranger's backlog is
processed. `mailref serve` with its SMTP listener and a relay sink; a stranger sends thirty
6 MB mails to the game's address over one connection, and once they are all stored a player
sends `[Status]` over another.

    .venv/bin/python bench/fair_time.py [--mails 30] [--mb 6] [--rounds 3]

Prints the player's reply latency alone (MAIL FROM to the reply at the sink) and behind the backlog,
their ratio, and how long the backlog took to be processed (its first 250 until no mail
awaits). Nothing here asserts."""

from __future__ import annotations

import argparse
import smtplib
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from common import Daemon, G, Sink, cli, out, write_config  # noqa: E402

from support.dovecot import free_port  # noqa: E402
from support.helpers import mail  # noqa: E402

PLAYER = "bob@players.example"
STRANGER = "flood@stranger.example"


class Arrivals(Sink):
    """The relay sink, noting when a mail to the player arrived."""

    def __init__(self) -> None:
        super().__init__()
        self.to_player: list[float] = []

    async def handle_DATA(self, server, session, envelope):
        if PLAYER in envelope.rcpt_tos:
            self.to_player.append(time.perf_counter())
        return await super().handle_DATA(server, session, envelope)


def large(n: int, mb: int) -> bytes:
    """A stranger's mail of MB megabytes of text, with no command."""
    line = "all work and no play makes a stranger a dull sender\n"
    return mail(STRANGER, G, f"Read this {n}", line * (mb * 1024 * 1024 // len(line)))


def send(port: int, sender: str, raw: bytes) -> float:
    """Hand RAW over in a session of its own; the moment it was sent (its reply may reach the
    sink before the session's end is read)."""
    with smtplib.SMTP("127.0.0.1", port, timeout=600) as c:
        c.ehlo()
        sent = time.perf_counter()
        c.sendmail(sender, [G], raw)
    return sent


def answered(sink: Arrivals, had: int, since: float, within: float = 300) -> float:
    """Seconds from SINCE until the player's next reply reached the sink."""
    while len(sink.to_player) == had and time.perf_counter() - since < within:
        time.sleep(0.005)
    return (sink.to_player[had] if len(sink.to_player) > had else time.perf_counter()) - since


def waiting(db: Path) -> int:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30) as c:
        return c.execute("SELECT count(*) FROM inbox WHERE status = 'new'").fetchone()[0]


def flood(port: int, backlog: list[bytes], first: list[float], stored: threading.Event) -> None:
    """The stranger's mails over one connection; FIRST gets the first one's 250, and STORED is
    set once all are stored."""
    with smtplib.SMTP("127.0.0.1", port, timeout=600) as c:
        for n, raw in enumerate(backlog):
            c.sendmail(STRANGER, [G], raw)
            if n == 0:
                first.append(time.perf_counter())
    stored.set()


def player_mail(n: int) -> bytes:
    return mail(PLAYER, G, "[Status]", f"How do we stand? ({n})")


def run(mails: int, mb: int, rounds: int) -> None:
    alone, behind, drained = [], [], []
    with Arrivals() as sink, tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        cfg = write_config(Path(tmp), smtp_in=port, relay=sink.port)
        text = cfg.read_text().replace(
            f"port = {port}\n", f'port = {port}\nmax_message_size = "{mb + 2}MB"\n'
        )
        cfg.write_text(text)
        cli(cfg, "game", "create", "nomes", "--variant", "sidekick", "--address", G)
        cli(cfg, "player", "add", "nomes", "Bob", PLAYER)
        daemon = Daemon(cfg)
        db = Path(tmp) / "var" / "mailref.sqlite3"
        try:
            daemon.ready()
            for r in range(rounds):
                had = len(sink.to_player)
                alone.append(answered(sink, had, send(port, PLAYER, player_mail(2 * r))))
                backlog = [large(r * mails + n, mb) for n in range(mails)]  # new mail each round
                stored, first = threading.Event(), []
                t = threading.Thread(target=flood, args=(port, backlog, first, stored))
                t.start()
                stored.wait(600)
                had = len(sink.to_player)
                behind.append(answered(sink, had, send(port, PLAYER, player_mail(2 * r + 1))))
                t.join()
                while waiting(db):
                    time.sleep(0.05)
                drained.append(time.perf_counter() - first[0])
        finally:
            daemon.stop()
    a, b = statistics.median(alone), statistics.median(behind)
    out("player's reply latency, alone (s)", f"{a:.2f}")
    out(
        f"... behind a stranger's {mails} mails of {mb} MB (s)",
        f"{b:.2f}",
        f"{a:.2f}",
        f"{b / a:.1f}x",
        "a few seconds",
    )
    out(
        f"the stranger's {mails} mails, first 250 to processed (s)",
        f"{statistics.median(drained):.1f}",
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mails", type=int, default=30)
    ap.add_argument("--mb", type=int, default=6)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    print(f"fair time: {args.mails} mails of {args.mb} MB, {args.rounds} rounds (median)")
    run(args.mails, args.mb, args.rounds)


if __name__ == "__main__":
    main()
