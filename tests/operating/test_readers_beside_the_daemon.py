"""Another process reading the database leaves the running daemon alive."""

from __future__ import annotations

import pytest

from support.helpers import wait_for
from support.operator_host import send
from support.ops import Site

pytestmark = pytest.mark.spec("6")


def test_another_process_reading_the_database_leaves_the_running_daemon_alive(tmp_path):
    """A read-only reader beside the daemon (`sqlite3 -readonly`, a backup tool, a monitor)
    killed it with SIGBUS: reserving the WAL index's blocks (store/walindex.py) opened and
    closed the -shm file, which drops every POSIX lock the process holds on it, SQLite's
    among them; the reader then took itself for the first user, reset and truncated the index
    under the daemon. Now the daemon and its listener live on and answer."""
    import sqlite3

    site = Site(tmp_path)
    site.create_game("nomes", "sidekick", "nomes@ref.example")
    with site.serve() as daemon:
        send(site, "a@example.org", "nomes@ref.example", "[Help]", "", "h1@x")
        assert wait_for(lambda: "tag=help" in daemon.stderr(), 30), daemon.stderr()
        reader = sqlite3.connect(f"file:{site.db}?mode=ro", uri=True)
        assert reader.execute("SELECT count(*) FROM inbox").fetchone() == (1,)
        reader.close()
        assert site.cli("game", "list").returncode == 0
        send(site, "b@example.org", "nomes@ref.example", "[Help]", "", "h2@x")
        assert wait_for(lambda: daemon.stderr().count("tag=help") == 2, 30), daemon.stderr()
        assert daemon.proc.poll() is None
