"""Files the daemon makes: a new database is readable by mailref only; a SQLite URL with driver
options makes no stray file."""

from __future__ import annotations

import pytest

from support.daemon_processes import G
from support.ops import Site

pytestmark = pytest.mark.spec("7")


def test_a_new_database_is_readable_by_mailref_only(tmp_path):
    """The first `mailref game create` of README's step 2 runs in the operator's shell (umask
    022) before the service ever starts: the database, with every player's address, came out
    0644, readable by every user of the host (the unit's UMask=0027 says it must not be). Now a
    database mailref creates is 0640 whatever the umask, and its -wal and -shm follow it."""
    site = Site(tmp_path)
    r = site.cli("game", "create", "nomes", "--variant", "sidekick", "--address", G)
    assert r.returncode == 0, r.stderr
    assert site.db.stat().st_mode & 0o777 == 0o640
    assert site.cli("player", "add", "nomes", "Alice", "alice@example.org").returncode == 0
    for companion in ("-wal", "-shm"):
        f = site.db.with_name(site.db.name + companion)
        assert not f.exists() or f.stat().st_mode & 0o007 == 0, (companion, oct(f.stat().st_mode))
    (tmp_path / "served").mkdir()
    other = Site(tmp_path / "served")
    with other.serve() as daemon:
        pass
    assert other.db.stat().st_mode & 0o007 == 0
    log = daemon.stderr()
    assert "alembic" not in log and "created a new database" in log, log  # one line, not seven


def test_a_sqlite_url_with_driver_options_makes_no_stray_file(tmp_path):
    """`sqlite:///var/db.sqlite3?timeout=20` (SQLAlchemy passes the query to the driver): the
    store took the whole text for the file's name, and made `db.sqlite3?timeout=20` beside it."""
    from mailref.store import open_store

    open_store(f"sqlite:///{tmp_path}/db.sqlite3?timeout=20").dispose()
    assert sorted(p.name for p in tmp_path.iterdir() if "?" in p.name) == []
    assert (tmp_path / "db.sqlite3").stat().st_mode & 0o777 == 0o640
