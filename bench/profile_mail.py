"""What one mail costs inside `Referee.accept`: ms per mail and where the time goes,
for a `[Help]` mail, a `[Status]` mail and a ballot, each on a fresh store. Asserts nothing.

    .venv/bin/python bench/profile_mail.py [--n 300] [--top 25] [--only help,status,ballot]
                                           [--postgres] [--no-profile]

- help:   N `[Help]` mails from 100 senders (nobody a player) to a Sidekick game.
- status: N `[Status]` mails from the 20 players of a Sidekick game.
- ballot: N ballots (`Re: [Proposal 1]`, FOR and AGAINST in turn) from 18 of those players
          on the proposal of the mover; one player never votes, so it stays open.

Wall time on a shared machine swings with its load; the CPU time of this process is steadier (on
PostgreSQL the server's share is not in it). Each kind is timed twice: once plainly (the ms/mail
figure) and once under cProfile (the table of the top cumulative entries; cProfile itself roughly
doubles the time). --postgres runs everything again on a private PostgreSQL cluster
(tests/support/postgres.py; root and Debian's postgresql needed).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from mailref.door import Settings  # noqa: E402
from mailref.referee import Referee  # noqa: E402
from mailref.store import open_store  # noqa: E402
from support.helpers import Clock, deliver, mail  # noqa: E402

G = "nomes@ref.example"
PLAYERS = 20


def _referee(url: str) -> Referee:
    return Referee(
        open_store(url),
        Settings("referee@ref.example", "gm@ref.example", replies_per_stranger=20),
        Clock(),
        random.Random(7),
    )


def _with_players(r: Referee) -> None:
    r.create_game("nomes", "sidekick", G, gm="gm@ref.example")
    for i in range(PLAYERS):
        r.admin(
            "nomes",
            {"type": "player_add", "name": f"P{i}", "address": f"p{i}@players.example"},
            "bench",
        )


def setup_help(r: Referee, n: int) -> list[tuple[str, bytes]]:
    r.create_game("nomes", "sidekick", G)
    return [(f"s{i % 100}@players.example", b"") for i in range(n)]


def setup_status(r: Referee, n: int) -> list[tuple[str, bytes]]:
    _with_players(r)
    return [(f"p{i % PLAYERS}@players.example", b"") for i in range(n)]


def setup_ballot(r: Referee, n: int) -> list[tuple[str, bytes]]:
    _with_players(r)
    mover = r.state("nomes")["turn"]["player"]
    addr = f"{mover.lower()}@players.example"
    deliver(
        r,
        mail(addr, G, "[Proposal] Hum", 'Enact rule 301 "Hum":\nPlayers may hum.\n'),
        "smtp",
        addr,
        [G],
    )
    st = r.state("nomes")
    prop = next(p for p in st["proposals"] if p["status"] == "voting")
    voters = [f"p{i}@players.example" for i in range(PLAYERS) if f"P{i}" != mover][: PLAYERS - 2]
    return [
        (voters[i % len(voters)], f"Re: [Proposal {prop['number']}] Hum".encode()) for i in range(n)
    ]


KINDS: dict[str, tuple[str, Callable[[Referee, int], list[tuple[str, bytes]]]]] = {
    "help": ("[Help]", setup_help),
    "status": ("[Status]", setup_status),
    "ballot": ("", setup_ballot),
}


def mails(kind: str, senders: list[tuple[str, bytes]]) -> list[tuple[str, bytes]]:
    subject = KINDS[kind][0]
    out = []
    for i, (frm, subj) in enumerate(senders):
        body = ("FOR" if i % 2 else "AGAINST") + "\n" if kind == "ballot" else ""
        out.append((frm, mail(frm, G, subj.decode() or subject, body)))
    return out


def run(
    url_of: Callable[[], str], kind: str, n: int, profile: bool
) -> tuple[float, float, pstats.Stats | None, str]:
    """(wall ms per mail, CPU ms per mail of this process, the profile, the statuses)."""
    r = _referee(url_of())
    todo = mails(kind, KINDS[kind][1](r, n))
    statuses: dict[str, int] = {}
    prof = cProfile.Profile() if profile else None
    t, cpu = time.perf_counter(), time.process_time()
    if prof:
        prof.enable()
    for frm, raw in todo:
        st = deliver(r, raw, "smtp", frm, [G]).status
        statuses[st] = statuses.get(st, 0) + 1
    if prof:
        prof.disable()
    ms, cpu_ms = (time.perf_counter() - t) / n * 1000, (time.process_time() - cpu) / n * 1000
    r.store.dispose()
    return (
        ms,
        cpu_ms,
        pstats.Stats(prof) if prof else None,
        ", ".join(f"{k} {v}" for k, v in sorted(statuses.items())),
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=300)
    ap.add_argument(
        "--top", type=int, default=25, help="cumulative entries printed per kind (0: none)"
    )
    ap.add_argument("--only", default="help,status,ballot")
    ap.add_argument("--postgres", action="store_true")
    ap.add_argument("--no-profile", action="store_true", help="the ms/mail figures only")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="mailref-profile-"))
    files = iter(range(1, 10**6))
    stores: list[tuple[str, Callable[[], str]]] = [
        ("SQLite", lambda: f"sqlite:///{tmp}/m{next(files)}.sqlite3")
    ]
    pg = None
    if args.postgres:
        from support.postgres import Postgres, postgres_bindir

        if postgres_bindir() is None or os.geteuid() != 0:
            print("--postgres needs Debian's postgresql and root: skipped")
        else:
            pg = Postgres(Path(tempfile.mkdtemp(prefix="mailref-profile-pg-"))).start()
            pg.create_template()
            stores.append(("PostgreSQL", lambda: pg.url(pg.fresh_database())))
    print(f"mailref per-mail cost, N = {args.n}, load {os.getloadavg()[0]:.1f}")
    summary = []
    try:
        for store, url_of in stores:
            for kind in args.only.split(","):
                ms, cpu_ms, _, statuses = run(url_of, kind, args.n, profile=False)
                summary.append((store, kind, ms, cpu_ms))
                print(
                    f"\n== {kind} on {store}: {ms:.2f} ms/mail, {cpu_ms:.2f} ms CPU ({statuses})",
                    flush=True,
                )
                if not args.no_profile and args.top:
                    _, _, stats, _ = run(url_of, kind, args.n, profile=True)
                    buf = io.StringIO()
                    stats.stream = buf
                    stats.sort_stats("cumulative").print_stats(args.top)
                    print("\n".join(buf.getvalue().splitlines()[6:]), flush=True)
    finally:
        if pg:
            pg.stop()
    print("\n| store | mail | ms/mail | CPU ms/mail (this process) |\n|---|---|---:|---:|")
    for store, kind, ms, cpu_ms in summary:
        print(f"| {store} | {kind} | {ms:.2f} | {cpu_ms:.2f} |")


if __name__ == "__main__":
    main()
