"""mailref against the bare operations, in ONE run, as ratios (SPEC §8).

    .venv/bin/python bench/run.py [--n 1000] [--postgres] [--dsn URL] [--only smtp,imap,...]
        [--turns 4000]

Sections (root is needed for the private Dovecot; nothing here asserts):
  smtp     SMTP and LMTP (bench/ingest.py): N mails over one connection. Ingest (until the
           last 250, each after its mail's commit) against a null aiosmtpd sink; end to end
           (until every reply reached the relay) against a bare aiosmtpd pipeline that
           parses, commits to SQLite and sends one reply over SMTP.
  imap     N `[Help]` mails from 100 senders in a private Dovecot folder. Bare: per message
           FETCH, parse (compat32), commit to SQLite, build one reply and send it over SMTP to
           a null sink, MOVE. mailref: the poller's drain, then the outbox delivered to the
           same sink.
  latency  reply latency p50/p95 through the daemon with IMAP IDLE (append -> reply at the
           sink), one mail at a time. Bare: append -> EXISTS seen by a plain client in IDLE.
  idle     start (spawn -> sd_notify READY), RSS (the daemon's and its listener's process)
           and SIGTERM-to-exit of the daemon with 10,000 idle games.
  turns    per-mail cost (a proposal and a vote by mail, through Referee.accept; wall and
           CPU) at turn 10 and at turn 4,000 of a two-player Sidekick game, one day per turn
           (the turns between are played through the door, without reading mail), then
           `replay` over that game's journal: in this process, and `mailref replay` as a
           process (start-up included).
  longgame ms per turn through the daemon (bench/long_game.py: SMTP in, every mail out, the
           site made) over the first and the last 50 turns of a passing Sidekick game of
           --long-turns turns, beside the bare pipeline's; SQLite only, not in the default set.

Every section runs on SQLite; with --postgres (the suite's private cluster, tests/postgres.py)
or --dsn URL (a database that is emptied first) every section runs on PostgreSQL too (the
daemon's database, or the store's). The end is the table of docs/performance.md, to paste as it is.
"""

from __future__ import annotations

import argparse
import email
import email.policy
import os
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from email.mime.text import MIMEText
from pathlib import Path

import common
from common import (
    Daemon,
    G,
    Sink,
    cli,
    corpus,
    daemon_db,
    fresh_store,
    out,
    referee_on,
    results,
    start_postgres,
    store_name,
    write_config,
)
from ingest import section_smtp
from turns import Turn, mail_cost, play, start_game

from mailref.config import Imap, SmtpOut
from mailref.mail.imap import Poller
from mailref.mail.outbox import Deliverer
from mailref.referee import Referee
from mailref.store import open_store
from support.dovecot import PASSWORD, USER, Dovecot, free_port
from support.helpers import Clock, mail

# ---- IMAP drain ------------------------------------------------------------------------


def bare_imap(d: Dovecot, folder: str, n: int, sink: Sink, tmp: Path) -> float:
    """Per message: FETCH, compat32 parse, SQLite commit, one reply over SMTP, MOVE."""
    import smtplib

    db = sqlite3.connect(tmp / "bare.sqlite3", isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute("CREATE TABLE IF NOT EXISTS inbox (id INTEGER PRIMARY KEY, raw BLOB, sender TEXT)")
    c = d.client()
    c.select_folder(folder)
    t = time.perf_counter()
    with smtplib.SMTP("127.0.0.1", sink.port) as smtp:
        for uid in c.search(["ALL"]):
            raw = c.fetch([uid], ["BODY.PEEK[]"])[uid][b"BODY[]"]
            msg = email.message_from_bytes(raw, policy=email.policy.compat32)
            db.execute("BEGIN IMMEDIATE")
            db.execute("INSERT INTO inbox (raw, sender) VALUES (?, ?)", (raw, msg["From"]))
            db.execute("COMMIT")
            reply = MIMEText("Here is the help.\n")
            reply["From"], reply["To"], reply["Subject"] = (
                "referee@ref.example",
                msg["From"],
                "Re: " + str(msg["Subject"]),
            )
            reply["In-Reply-To"] = msg["Message-ID"]
            smtp.sendmail(
                "referee@ref.example", [email.utils.parseaddr(msg["From"])[1]], reply.as_bytes()
            )
            c.move([uid], folder + "-done")
    secs = time.perf_counter() - t
    c.logout()
    db.close()
    return n / secs


def mailref_imap(d: Dovecot, folder: str, n: int, sink: Sink, url: str | None, tmp: Path) -> float:
    r = referee_on(fresh_store(url, tmp))
    r.create_game("nomes", "sidekick", G)
    cfg = Imap(
        host="127.0.0.1",
        port=d.port,
        ssl=False,
        username=USER,
        password=PASSWORD,
        folder=folder,
        processed_folder=folder + "-done",
        rejected_folder=folder + "-rej",
    )
    deliverer = Deliverer(
        r.store,
        "referee@ref.example",
        SmtpOut(host="127.0.0.1", port=sink.port),
        tmp / "unused",
        "gm@ref.example",
    )
    p = Poller(cfg, r)
    pc = p.connect()
    before = sink.count
    t = time.perf_counter()
    done = p.drain(pc)
    while sink.count - before < done:
        if not deliverer.deliver(r.clock(), limit=1000)[0]:
            break
    secs = time.perf_counter() - t
    pc.logout()
    r.store.dispose()
    if sink.count - before != n:
        print(f"  (mailref IMAP: {sink.count - before} replies for {n} mails)")
    return n / secs


def section_imap(d: Dovecot, n: int, urls: list[str | None]) -> None:
    msgs = corpus(n)
    c = d.client()
    with Sink() as sink, tempfile.TemporaryDirectory() as tmp:
        for url in urls:
            tag = store_name(url)
            for f in ("bare", "ours"):
                for name in (f, f + "-done", f + "-rej"):
                    if c.folder_exists(name):
                        c.delete_folder(name)
                    c.create_folder(name)
                for i in range(0, n, 200):
                    c.multiappend(f, msgs[i : i + 200])
            bare = bare_imap(d, "bare", n, sink, Path(tmp))
            ours = mailref_imap(d, "ours", n, sink, url, Path(tmp))
            out(
                f"IMAP drain, {tag} (msg/s)",
                f"{ours:,.0f}",
                f"{bare:,.0f}",
                f"{ours / bare:.2f}",
                "≥ 0.5",
            )
    c.logout()


# ---- latency with IDLE -------------------------------------------------------------------


def bare_idle(d: Dovecot, rounds: int) -> list[float]:
    """The floor under any IDLE reply: append -> EXISTS seen by a plain client in IDLE
    (Dovecot waits about half a second after a change before it notifies)."""
    a, b = d.client(), d.client()
    for name in ("idle-bare",):
        if a.folder_exists(name):
            a.delete_folder(name)
        a.create_folder(name)
    b.select_folder("idle-bare")
    samples = []
    for i in range(rounds):
        b.idle()
        time.sleep(0.05)
        t = time.perf_counter()
        a.append("idle-bare", mail(f"lat{i}@players.example", G, "[Help]"))
        while (
            not any(r[1] == b"EXISTS" for r in b.idle_check(timeout=30))
            and time.perf_counter() - t < 30
        ):
            pass
        samples.append(time.perf_counter() - t)
        b.idle_done()
    a.logout()
    b.logout()
    return samples


def p50_p95(samples: list[float]) -> str:
    return (
        f"{statistics.median(samples) * 1000:,.0f} / "
        f"{statistics.quantiles(samples, n=20)[18] * 1000:,.0f}"
    )


def section_latency(d: Dovecot, urls: list[str | None], rounds: int = 40) -> None:
    """One mail at a time appended to the daemon's folder; the time until its reply reached
    the sink. A reply missing after 30 s counts as 30 s, and is said."""
    bare = bare_idle(d, rounds)
    c = d.client()
    for url in urls:
        for name in ("lat", "lat-done", "lat-rej"):
            if c.folder_exists(name):
                c.delete_folder(name)
        c.create_folder("lat")
        with Sink() as sink, tempfile.TemporaryDirectory() as tmp:
            cfg = write_config(
                Path(tmp),
                relay=sink.port,
                dovecot=d,
                folder="lat",
                database=daemon_db(url, Path(tmp)),
            )
            cli(cfg, "game", "create", "nomes", "--variant", "sidekick", "--address", G)
            daemon = Daemon(cfg)
            samples, missing = [], 0
            try:
                daemon.ready()
                time.sleep(1.0)  # the poller is in IDLE
                for i in range(rounds):
                    before = sink.count
                    t = time.perf_counter()
                    c.append("lat", mail(f"lat{i}@players.example", G, "[Help]"))
                    while sink.count == before and time.perf_counter() - t < 30:
                        time.sleep(0.002)
                    missing += sink.count == before
                    samples.append(time.perf_counter() - t)
            finally:
                daemon.stop()
        if missing:
            print(f"  ({missing} of {rounds} replies not at the sink within 30 s)")
        out(
            f"reply latency with IMAP IDLE, {store_name(url)}, p50 / p95 (ms)",
            p50_p95(samples),
            f"{p50_p95(bare)} (IDLE notice)",
            "",
            "p95 < 1 s",
        )
    c.logout()


# ---- 10,000 idle games -------------------------------------------------------------------


def make_idle_games(cfg: Path, games: int) -> None:
    """GAMES sidekick games with no players, written in one transaction."""
    from sqlalchemy import insert

    from mailref import config as config_mod
    from mailref.door import create_game
    from mailref.store import Game
    from mailref.timeutil import utcnow

    c = config_mod.load(cfg)
    store = open_store(c.database)
    with store() as s, s.begin():
        # Created now, so their deadlines lie ahead whenever the bench runs: idle, not due.
        g = create_game(s, "g0", "sidekick", "g0@ref.example", None, None, "UTC", {}, utcnow())
        rows = []
        for i in range(1, games):
            state = dict(g.state, slug=f"g{i}", address=f"g{i}@ref.example", name=f"g{i}")
            rows.append(
                {
                    "slug": f"g{i}",
                    "variant": "sidekick",
                    "address": f"g{i}@ref.example",
                    "state": state,
                    "initial": state,
                    "version": 0,
                    "next_wakeup": g.next_wakeup,
                    "created_at": g.created_at,
                }
            )
            if len(rows) == 1000:
                s.execute(insert(Game), rows)
                rows = []
        if rows:
            s.execute(insert(Game), rows)
    store.dispose()


def section_idle_games(urls: list[str | None], games: int = 10_000) -> None:
    for url in urls:
        with tempfile.TemporaryDirectory() as tmp:
            cfg = write_config(Path(tmp), smtp_in=free_port(), database=daemon_db(url, Path(tmp)))
            cli(cfg, "db", "upgrade")
            make_idle_games(cfg, games)
            d = Daemon(cfg)
            try:
                start = d.ready()
                time.sleep(3.0)  # settled: timers set, first sync passes done
                rss = d.rss_mb()
            finally:
                stopped = d.stop()
        tag = store_name(url)
        out(f"start to READY, {games:,} idle games, {tag} (s)", f"{start:.2f}", "", "", "< 5 s")
        out(f"RSS, {games:,} idle games, {tag} (MB)", f"{rss:.0f}", "", "", "< 200 MB")
        out(
            f"SIGTERM to exit, {games:,} idle games, {tag} (s)",
            "did not stop in 60 s" if stopped is None else f"{stopped:.2f}",
        )


# ---- cost per mail over a long game, and replay ------------------------------------------

PROPOSAL = 'Enact rule {r} "Idea {n}":\nPlayers may hum {n} times a day.\n'


# A turn of the long game: every proposal fails (a vote AGAINST), a day and its timers a turn.
FAILING = Turn(
    lambda st, n: PROPOSAL.format(r=1000 + n, n=n), "AGAINST", timedelta(days=1), tick=True
)


def site_cost(r: Referee, clock: Clock, where: Path) -> float:
    """CPU ms of bringing the published pages up to date after one more turn (a proposal and a
    vote by mail), once they were all written: what the daemon adds to each change with [site]."""
    from mailref.config import SiteConfig
    from mailref.site import rebuild

    site = SiteConfig(where)
    rebuild(r.store, site, now=clock())
    mail_cost(r, clock, 1, FAILING)
    c = time.process_time()
    rebuild(r.store, site, "nomes", now=clock(), force=False)
    return (time.process_time() - c) * 1000


def replay_rate(r: Referee) -> tuple[int, float, float]:
    """What `mailref replay` does for one game (cli.cmd_replay's steps), timed in this process:
    (entries, entries/s wall, entries/s CPU)."""
    from sqlalchemy import select

    from mailref.engine.archive import merge
    from mailref.engine.replay import differences, replay
    from mailref.store import Game
    from mailref.store.archived import archived, journal

    t, c = time.perf_counter(), time.process_time()
    with r.store() as s:
        g = s.scalar(select(Game).where(Game.slug == "nomes"))
        entries = journal(s, g.id)
        cold: list = []
        rebuilt = replay(g.initial, entries, cold)
        diffs = differences(merge(g.state, archived(s, g.id)), merge(rebuilt, cold))
    wall, cpu = time.perf_counter() - t, time.process_time() - c
    if diffs:
        print("  (replay DIFFERS:", diffs[:3], ")")
    return len(entries), len(entries) / wall, len(entries) / cpu


def replay_cli(r: Referee, tmp: Path) -> float:
    """`mailref replay nomes` as an operator runs it, start-up included: seconds."""
    cfg = tmp / "replay.toml"
    url = r.store.engine.url.render_as_string(hide_password=False)
    cfg.write_text(f'[daemon]\ndatabase = "{url}"\nfrom_address = "referee@ref.example"\n')
    t = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "mailref", "--config", str(cfg), "replay", "nomes"],
        capture_output=True,
        text=True,
    )
    secs = time.perf_counter() - t
    if done.returncode != 0:
        print("  (mailref replay:", (done.stdout + done.stderr)[-300:], ")")
    return secs


def section_turns(urls: list[str | None], long: int = 4000) -> None:
    for url in urls:
        tag = store_name(url)
        with tempfile.TemporaryDirectory() as tmp:
            clock = Clock()
            r = referee_on(fresh_store(url, Path(tmp)), clock)
            start_game(r)
            play(r, clock, 10, FAILING)
            early = mail_cost(r, clock, 20, FAILING)
            site_early = site_cost(r, clock, Path(tmp) / "site-early")
            t = time.perf_counter()
            play(r, clock, long - 10 - 20 - 1, FAILING)
            built = time.perf_counter() - t
            late = mail_cost(r, clock, 20, FAILING)
            site_late = site_cost(r, clock, Path(tmp) / "site-late")
            out(
                f"ms per mail at turn 10 / turn {long:,}, {tag}, wall",
                f"{early[0]:.1f} / {late[0]:.1f}",
                "",
                f"{late[0] / early[0]:.2f}",
                "≤ 1.5",
            )
            out(
                f"ms per mail at turn 10 / turn {long:,}, {tag}, CPU",
                f"{early[1]:.1f} / {late[1]:.1f}",
                "",
                f"{late[1] / early[1]:.2f}",
                "≤ 1.5",
            )
            out(
                f"site pages after one more turn, at turn 10 / turn {long:,}, {tag}, CPU ms",
                f"{site_early:.0f} / {site_late:.0f}",
            )
            entries, wall, cpu = replay_rate(r)
            out(
                f"replay {entries:,} journal entries, {tag}, entries/s wall / CPU",
                f"{wall:,.0f} / {cpu:,.0f}",
                "",
                "",
                "≥ 5,000/s",
            )
            secs = replay_cli(r, Path(tmp))
            out(
                f"`mailref replay` (process, start-up included), {tag}, entries/s",
                f"{entries / secs:,.0f}",
                "",
                "",
                "≥ 5,000/s",
            )
            print(f"  (built {long - 31} turns through the door in {built:.0f}s)")
            r.store.dispose()


def compile_installed() -> None:
    """Byte-compile the mailref the daemon and `mailref replay` will import, as `pip install`
    does for an installed copy: with PYTHONDONTWRITEBYTECODE set (as on the CI machines) an
    editable checkout is otherwise compiled anew at every start, inside the timed start-up."""
    import mailref

    where = Path(mailref.__file__).parent.parent  # the checkout the daemon imports from
    for pkg in ("mailref", "handlers"):
        if (where / pkg).is_dir():
            subprocess.run(
                [sys.executable, "-m", "compileall", "-q", str(where / pkg)],
                check=True,
                stdout=subprocess.DEVNULL,
            )


def run_sections(
    args: argparse.Namespace, only: set[str], urls: list[str | None]
) -> tuple[str, float]:
    compile_installed()
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    load = os.getloadavg()[0]
    print(
        f"mailref bench, N = {args.n}, Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, "
        f"load {load:.1f}"
    )
    print(f"  {'':<44} {'mailref':>22} {'bare':>22} {'ratio':>7} target")
    if "smtp" in only:
        section_smtp(args.n, urls)
    if {"imap", "latency"} & only:
        if os.geteuid() != 0:
            print("  IMAP sections need root for the private Dovecot: skipped")
        else:
            d = Dovecot(Path(tempfile.mkdtemp(prefix="mailref-bench-dovecot-"))).start()
            try:
                if "imap" in only:
                    section_imap(d, args.n, urls)
                if "latency" in only:
                    section_latency(d, urls)
            finally:
                d.stop()
    if "idle" in only:
        section_idle_games(urls, args.games)
    if "turns" in only:
        section_turns(urls, args.turns)
    if "longgame" in only:
        from long_game import run as long_game

        long_game(args.long_turns, 50)
    return started, load


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "--n", type=int, default=1000, help="mails per throughput section (default 1000)"
    )
    ap.add_argument(
        "--dsn",
        default=os.environ.get("MAILREF_BENCH_DSN"),
        help="also run the store sections on it",
    )
    ap.add_argument(
        "--postgres",
        action="store_true",
        help="also run the store sections on a private PostgreSQL",
    )
    ap.add_argument(
        "--only",
        default="smtp,imap,latency,idle,turns",
        help="comma-separated sections (turns includes replay)",
    )
    ap.add_argument("--turns", type=int, default=4000, help="the long game's length (default 4000)")
    ap.add_argument(
        "--long-turns", type=int, default=1000, help="longgame: the turns played (default 1000)"
    )
    ap.add_argument("--games", type=int, default=10_000, help="idle games (default 10000)")
    args = ap.parse_args()
    only = set(args.only.split(","))
    urls: list[str | None] = [None] + ([args.dsn] if args.dsn else [])
    if args.postgres:
        common.PG = start_postgres()
        if common.PG:
            urls.append("pg")
    try:
        started, load = run_sections(args, only, urls)
    finally:  # a section that fails must not leave the private cluster running
        if common.PG:
            common.PG.stop()
    print(
        "\nmax RSS of the bench process "
        f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB"
    )
    # The table of docs/performance.md, to paste as it is.
    command = " ".join(["bench/run.py", *sys.argv[1:]])
    print(f"\n    .venv/bin/python {command}\n")
    print(
        f"{started}, {os.cpu_count()} CPUs, load average {load:.1f} at the start and "
        f"{os.getloadavg()[0]:.1f} at the end, N = {args.n}:\n"
    )
    print(
        "| measure | mailref | bare operation | ratio | target (SPEC §8) "
        "|\n|---|---:|---:|---:|---|"
    )
    for row in results:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
