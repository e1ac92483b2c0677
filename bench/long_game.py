"""A long game through the daemon: a two-player Sidekick game whose every proposal passes
(one new rule and an amended rule 21 a turn), turns 1 to N (default 1,000), as `mailref
serve` runs it: each mail in over SMTP to its listener, every reply and announcement out
through the outbox to a relay sink, the site's pages made after each change.

    .venv/bin/python bench/long_game.py [--turns 1000] [--window 50]

A turn is the mover's proposal, sent once the last turn's mail is all out, and the other
player's FOR once the proposal's own mail is out; it ends when the turn's last mail (the
results, the ruleset mail, the next "Your move") reaches the sink. Prints the mean ms per
turn, wall and CPU (listener + daemon), over turns 1 to WINDOW and the last WINDOW turns, and
beside them the bare operation of the same run: the bare pipeline of bench/ingest.py
(aiosmtpd, a compat32 parse, a SQLite commit, one reply over SMTP) given the same two mails a
turn, at the start and at the end. Nothing here asserts."""

from __future__ import annotations

import argparse
import json
import os
import re
import smtplib
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from common import Daemon, G, Sink, cli, out, write_config  # noqa: E402
from ingest import Pipeline  # noqa: E402

from support.dovecot import free_port  # noqa: E402
from support.helpers import mail  # noqa: E402

PROPOSAL = (
    'Enact rule {r} "Idea {n}":\nPlayers may hum {n} times a day.\n\n'
    'In rule 21, replace "{old} points" with "{new} points".\n'
)
KIND = re.compile(rb"^X-Mailref-Kind: *(\S+)", re.M | re.I)


class Arrivals(Sink):
    """The relay sink, noting each mail's recipients and kind as it arrives."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[tuple[str, str]] = []

    async def handle_DATA(self, server, session, envelope):
        head = envelope.content.split(b"\r\n\r\n", 1)[0]
        kind = KIND.search(head)
        for rcpt in envelope.rcpt_tos:
            self.seen.append((rcpt, kind.group(1).decode() if kind else ""))
        return await super().handle_DATA(server, session, envelope)

    def wait(self, since: int, want: Counter, within: float = 600) -> float:
        """The moment every mail of WANT arrived after SINCE (or WITHIN seconds passed)."""
        t = time.perf_counter()
        while time.perf_counter() - t < within:
            if not want - Counter(self.seen[since:]):
                return time.perf_counter()
            time.sleep(0.002)
        print(f"  (waited {within:.0f} s for {dict(want - Counter(self.seen[since:]))})")
        return time.perf_counter()

    def quiet(self, since: int, after: float = 2.0) -> Counter:
        """What arrived after SINCE, once nothing more came for AFTER seconds."""
        n, t = len(self.seen), time.perf_counter()
        while time.perf_counter() - t < after or (
            len(self.seen) == since and time.perf_counter() - t < 60
        ):
            time.sleep(0.05)
            if len(self.seen) != n:
                n, t = len(self.seen), time.perf_counter()
        return Counter(self.seen[since:])


def show(cfg: Path) -> dict:
    done = subprocess.run(
        [sys.executable, "-m", "mailref", "--config", str(cfg), "game", "show", "nomes", "--json"],
        check=True,
        capture_output=True,
    )
    return json.loads(done.stdout)


class Game:
    """The two players' side: whose move it is, what rule 21 says, the mails of a turn."""

    def __init__(self, mover: str, points: int, n: int) -> None:
        self.mover, self.points, self.n = mover, points, n

    @classmethod
    def of(cls, state: dict) -> Game:
        return cls(
            state["turn"]["player"], state["parameters"]["pass_points"], len(state["proposals"]) + 1
        )

    def mails(self) -> tuple[tuple[str, bytes], tuple[str, bytes]]:
        other = "Bob" if self.mover == "Alice" else "Alice"
        new = 10 if self.points == 11 else 11
        text = PROPOSAL.format(r=1000 + self.n, n=self.n, old=self.points, new=new)
        a, b = f"{self.mover.lower()}@players.example", f"{other.lower()}@players.example"
        proposal = mail(a, G, f"[Proposal] Idea {self.n}", text)
        vote = mail(b, G, f"Re: [Proposal {self.n}] Idea {self.n}", "FOR\n")
        self.mover, self.points, self.n = other, new, self.n + 1
        return (a, proposal), (b, vote)


def send(port: int, frm: str, raw: bytes) -> None:
    with smtplib.SMTP("127.0.0.1", port, timeout=600) as c:
        c.sendmail(frm, [G], raw)


def tick(clock: Path, at: datetime) -> None:
    """Set the game's time: a new file in place of the old, never read half written."""
    clock.with_suffix(".new").write_text(at.isoformat())
    os.replace(clock.with_suffix(".new"), clock)


def bare_turns(game: Game, turns: int, tmp: Path) -> float:
    """Mean ms per turn of the bare pipeline given the same two mails a turn (the replies go
    out before each 250)."""
    with Sink() as relay, Pipeline(relay.port, tmp / f"bare{time.time_ns()}.sqlite3", False) as p:
        probe = Game(game.mover, game.points, game.n)
        t = time.perf_counter()
        for _ in range(turns):
            for frm, raw in probe.mails():
                send(p.port, frm, raw)
        return 1000 * (time.perf_counter() - t) / turns


def run(turns: int, window: int, site: bool = True, hours: float = 6) -> None:
    try:
        _run(turns, window, site, hours)
    finally:  # the benches run after this one (bench/run.py) go by the real time
        os.environ.pop("MAILREF_TEST_CLOCK", None)


def _run(turns: int, window: int, site: bool, hours: float) -> None:
    with Arrivals() as sink, tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        # The game's time: a turn every HOURS, so that ended matters age and are archived
        # as in a game played over months (bench/passing_rules.py plays its turns so).
        clock, start = Path(tmp) / "clock", datetime.now(UTC)
        tick(clock, start)
        if hours:
            os.environ["MAILREF_TEST_CLOCK"] = str(clock)
        cfg = write_config(Path(tmp), smtp_in=port, relay=sink.port)
        cfg.write_text(
            cfg.read_text().replace(
                "replies_per_stranger_per_day = 20\n",
                "replies_per_stranger_per_day = 20\nreplies_per_sender_per_day = 100000\n",
            )
            + ('\n[site]\ndir = "var/site"\nbase_url = "https://nomic.example/"\n' if site else "")
        )
        # A thousand turns in minutes, not years: the daily caps a real game needs are lifted.
        lifted = ("matters_per_day", "mails_per_player_day", "announcements_per_day")
        sets = [f"{k}={10**6}" for k in lifted] + [f"win_score={10**9}"]
        cli(
            cfg,
            "game",
            "create",
            "nomes",
            "--variant",
            "sidekick",
            "--address",
            G,
            "--gm",
            "gm@ref.example",
            *(x for kv in sets for x in ("--set", kv)),
        )
        for name in ("Alice", "Bob"):
            cli(cfg, "player", "add", "nomes", name, f"{name.lower()}@players.example")
        game = Game.of(show(cfg))
        daemon = Daemon(cfg)
        walls: list[float] = []
        cpus: list[float] = []
        bare: list[float] = []
        try:
            daemon.ready()
            sink.quiet(0)  # the players' welcome, mailed once the daemon starts
            # The first turn of each mover says what a turn mails (waited for until quiet).
            want: dict[tuple[str, int], Counter] = {}
            for turn in range(1, turns + 1):
                if turn == 1 or turn == turns - window + 1:
                    bare.append(bare_turns(game, window, Path(tmp)))
                tick(clock, start + timedelta(hours=hours * turn))
                cpu, t, mover = sum(daemon.cpu()), time.perf_counter(), game.mover
                for step, (frm, raw) in enumerate(game.mails()):
                    since = len(sink.seen)
                    send(port, frm, raw)
                    if (mover, step) in want:
                        done = sink.wait(since, want[mover, step])
                    else:
                        want[mover, step] = sink.quiet(since)
                        done = time.perf_counter()
                walls.append(1000 * (done - t))
                cpus.append(1000 * (sum(daemon.cpu()) - cpu))
                if turn % 25 == 0:
                    print(f"  turn {turn}: {statistics.mean(walls[-window:]):.0f} ms", flush=True)
        finally:
            daemon.stop()
    early = slice(2, window)  # each mover's first turn waited for quiet: left out
    late = slice(turns - window, turns)
    for what, xs, bare_ms in (("wall", walls, bare), ("CPU, listener + daemon", cpus, None)):
        a, b = statistics.mean(xs[early]), statistics.mean(xs[late])
        out(
            f"ms per turn, turns 3-{window} / {turns - window + 1}-{turns}, {what}",
            f"{a:.0f} / {b:.0f}",
            f"{bare_ms[0]:.1f} / {bare_ms[1]:.1f}" if bare_ms else "",
            f"{b / a:.2f}",
            "≤ 1.5",
        )
        if bare_ms:
            out(
                "... against the bare pipeline, early / late",
                f"{a / bare_ms[0]:.1f}x / {b / bare_ms[1]:.1f}x",
            )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--turns", type=int, default=1000, help="turns to play")
    ap.add_argument("--window", type=int, default=50, help="turns averaged at each end")
    ap.add_argument(
        "--no-site", action="store_true", help="without [site]: the daemon makes no pages"
    )
    ap.add_argument(
        "--hours",
        type=float,
        default=6,
        help="the game's hours a turn (0: the real time, every ended matter kept in the state)",
    )
    a = ap.parse_args()
    print(
        f"a long game through the daemon: {a.turns} turns, every proposal passing, "
        + (f"a turn every {a.hours:g} hours of the game's time" if a.hours else "in real time")
        + (", no site" if a.no_site else "")
    )
    run(a.turns, a.window, site=not a.no_site, hours=a.hours)


if __name__ == "__main__":
    main()
