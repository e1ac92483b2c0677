"""A mail's cost does not grow with the game's history: ended matters leave the
hot state after eight days into archived rows, which `game show --json`, the full state and
`mailref replay` read back; read-only commands neither copy nor rewrite the state."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys

import pytest

from mailref.store import ArchivedMatter, Game, JournalEntry
from support.helpers import Outbox, assert_replays, send_mail
from support.joining import confirm_waiting

pytestmark = pytest.mark.spec("8")

G = "nomes@ref.example"


def addr(name: str) -> str:
    return f"{name.lower()}@players.example"


def send(referee, who: str, subject: str, body: str = ""):
    return send_mail(referee, addr(who), G, subject, body)


def hot(referee) -> dict:
    with referee.store() as s:
        return s.query(Game).one().state


def play_turns(referee, clock, turns: int) -> None:
    """The mover proposes, the other votes AGAINST (it fails, nobody ever wins); a day passes
    and its timers fire (the GM's daily digest empties the events)."""
    for _ in range(turns):
        state = hot(referee)
        mover = state["turn"]["player"]
        other = next(p["name"] for p in state["players"] if p["name"] != mover)
        n = state["next_number"]
        send(
            referee,
            mover,
            f"[Proposal] Idea {n}",
            f'Enact rule {100 + n} "Idea {n}":\nPlayers may hum {n} times.\n',
        )
        send(referee, other, f"Re: [Proposal {n}] Idea {n}", "AGAINST")
        clock.advance(days=1)
        referee.tick()


def start(referee):
    referee.create_game(
        "nomes", "sidekick", G, gm="gm@ref.example", parameters={"win_score": 10_000}
    )
    send(referee, "alice", "[Join]", "Name: Alice\n")
    confirm_waiting(referee)
    send(referee, "bob", "[Join]", "Name: Bob\n")
    confirm_waiting(referee)


def test_ended_proposals_are_archived_and_read_back(referee, clock, outbox, tmp_path):
    start(referee)
    play_turns(referee, clock, 14)
    live = hot(referee)
    # Closed more than eight days ago: archived; the recent ones stay for the rules that look back.
    assert [p["number"] for p in live["proposals"]] == list(range(8, 15))
    with referee.store() as s:
        assert [a.number for a in s.query(ArchivedMatter).order_by(ArchivedMatter.id)] == list(
            range(1, 8)
        )
    full = referee.state("nomes")
    assert [p["number"] for p in full["proposals"]] == list(range(1, 15))
    assert full["proposals"][0]["status"] == "failed" and full["proposals"][0]["votes"]
    assert_replays(referee)

    # A late vote on an archived proposal gets a clear answer and changes nothing.
    send(referee, "bob", "Re: [Proposal 2] Idea 2", "FOR")
    (err,) = outbox.to(addr("bob"), outbox.all()[-1:], kind="error")
    assert "there is no proposal 2" in Outbox.body(err)

    cfg = tmp_path / "mailref.toml"
    url = referee.store.engine.url.render_as_string(hide_password=False)  # SQLite or PostgreSQL
    cfg.write_text(
        f'[daemon]\ndatabase = "{url}"\nfrom_address = "referee@ref.example"\n'
        'admin_address = "gm@ref.example"\n'
    )
    run = [sys.executable, "-m", "mailref", "--config", str(cfg)]
    shown = json.loads(
        subprocess.run(
            run + ["game", "show", "nomes", "--json"],
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        ).stdout
    )
    assert [p["number"] for p in shown["proposals"]] == list(range(1, 15))
    out = subprocess.run(run + ["replay"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and "identical after" in out.stdout, out.stdout + out.stderr


def test_hot_state_stays_the_same_size_as_history_grows(referee, clock):
    """What each mail copies, compares and rewrites is the hot state: bounded, not O(history)."""
    start(referee)
    play_turns(referee, clock, 15)
    early = len(json.dumps(hot(referee)))
    play_turns(referee, clock, 45)
    late = len(json.dumps(hot(referee)))
    assert referee.state("nomes")["next_number"] == 61
    assert late < early * 1.1, (early, late)


def test_read_only_commands_neither_journal_nor_rewrite(referee, clock, outbox):
    start(referee)
    with referee.store() as s:
        before = (
            s.query(JournalEntry).count(),
            s.query(Game).one().version,
            s.execute(Game.__table__.select()).one().state,
        )
    for subject in ("[Status]", "[Rules]", "[Help]"):
        send(referee, "alice", subject)
    kinds = [m["X-Mailref-Kind"] for m in outbox.to(addr("alice"))][-3:]
    assert kinds == ["status", "ruleset", "help"]
    with referee.store() as s:
        after = (
            s.query(JournalEntry).count(),
            s.query(Game).one().version,
            s.execute(Game.__table__.select()).one().state,
        )
    assert after == before


def test_sigterm_stops_a_daemon_with_thousands_of_games_promptly(database_url, tmp_path):
    """2,000 games, each with a deadline: the daemon keeps one timer (at the earliest), so it
    starts, says READY and stops on SIGTERM at once. With a timer per game, the jobs' wake-ups
    filled the event loop's self-pipe and a SIGTERM arriving then was lost for good."""
    from datetime import timedelta

    from sqlalchemy import insert

    from mailref.door import create_game
    from mailref.store import open_store
    from mailref.timeutil import utcnow

    store = open_store(database_url)  # not a test referee: 2,000 idle games teach replay nothing
    soon = utcnow() + timedelta(days=30)  # never due during the test, whatever the date
    with store() as s, s.begin():
        g = create_game(s, "g0", "sidekick", "g0@ref.example", None, None, "UTC", {}, utcnow())
        g.next_wakeup = soon
        rows = []
        for i in range(1, 2000):
            state = dict(g.state, slug=f"g{i}", address=f"g{i}@ref.example")
            rows.append(
                {
                    "slug": f"g{i}",
                    "variant": "sidekick",
                    "address": f"g{i}@ref.example",
                    "state": state,
                    "initial": state,
                    "version": 0,
                    "next_wakeup": soon + timedelta(minutes=i),
                    "created_at": g.created_at,
                }
            )
        s.execute(insert(Game), rows)
    store.dispose()
    (tmp_path / "mailref.toml").write_text(
        f'[daemon]\ndatabase = "{database_url}"\n[outbox]\nmaildir = "var/outbox"\n'
    )
    notify = tmp_path / "notify.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(notify))
    sock.settimeout(120)
    env = {k: v for k, v in os.environ.items() if k != "MAILREF_CONFIG"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "mailref", "serve"],
        cwd=tmp_path,
        env={**env, "NOTIFY_SOCKET": str(notify)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        assert sock.recv(100) == b"READY=1"
        proc.send_signal(signal.SIGTERM)  # at once: the moment the timers are being set
        assert proc.wait(60) == 0, proc.stderr.read()
        assert sock.recv(100) == b"STOPPING=1"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        sock.close()
