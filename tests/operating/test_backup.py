"""A backup taken while the daemon answers a burst restores to a game that replays."""

from __future__ import annotations

import json
import re

import pytest

from mailref.store import open_store
from support.helpers import wait_for
from support.joining import confirm_over_smtp
from support.operator_host import send
from support.ops import Site

pytestmark = pytest.mark.spec("7")


def test_a_backup_taken_while_the_daemon_answers_a_burst_restores_to_a_game_that_replays(tmp_path):
    """README had no word on backups; copying the SQLite file with cp while the daemon runs
    misses what sits in its -wal file. `mailref db backup FILE` takes one consistent snapshot
    while mail is being answered; restored (the file put back, the daemon started), the games
    replay and play on."""
    site = Site(tmp_path)
    site.create_game("nomes", "sidekick", "nomes@ref.example")
    backup = tmp_path / "nomes-backup.sqlite3"
    with site.serve() as daemon:
        for i in range(30):
            send(site, f"p{i}@example.org", "nomes@ref.example", "[Join]", f"Name: P{i}", f"b{i}@x")
            if i == 15:
                r = site.cli("db", "backup", str(backup))
                assert r.returncode == 0 and "game(s)" in r.stdout, r.stderr
                kept = int(re.search(r"(\d+) stored mail", r.stdout).group(1))
                assert kept >= 16, r.stdout  # every mail answered 250 before it
        assert wait_for(
            lambda: daemon.stderr().count("tag=join: processed: ok") == 30, 60
        ), daemon.stderr()
        r = site.cli("db", "backup", str(backup))
        assert r.returncode == 1 and "exists" in r.stderr, r.stderr
    assert backup.stat().st_mode & 0o077 == 0  # players' addresses: the owner's only
    assert site.cli("db", "backup", str(tmp_path / "no" / "such" / "x")).returncode == 1

    restored = tmp_path / "r"  # short: the notify socket's path must fit AF_UNIX's 108 bytes
    restored.mkdir()
    other = Site(restored)
    other.db.parent.mkdir(parents=True)
    other.db.write_bytes(backup.read_bytes())
    r = other.cli("replay")
    assert r.returncode == 0 and "identical" in r.stdout and "DIFFERS" not in r.stdout, (
        r.stdout + r.stderr
    )
    with other.serve() as again:  # the mail the copy holds unanswered is answered now
        send(other, "late@example.org", "nomes@ref.example", "[Join]", "Name: Late", "late@x")
        store = open_store(f"sqlite:///{other.db}", migrate=False)
        try:
            confirm_over_smtp(store, other.smtp_port, "late@example.org", 60)
        finally:
            store.dispose()
        assert wait_for(lambda: "Late joined" in again.stderr(), 60), again.stderr()
    view = json.loads(other.cli_in_process("game", "show", "nomes", "--json").stdout)
    # Every kept [Join] was taken up: each waits for its confirmation; Late confirmed.
    players, waiting = view["players"], view.get("joins_waiting", [])
    assert [p["name"] for p in players] == ["Late"] and len(waiting) == kept, (kept, view)
