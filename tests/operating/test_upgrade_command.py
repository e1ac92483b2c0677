"""The command that upgrades an older database says so once."""

from __future__ import annotations

import pytest

from support.ops import Site
from support.paths import UPGRADE

pytestmark = pytest.mark.spec("1.4")


def test_the_command_that_upgrades_an_older_database_says_so_once(tmp_path):
    """A newer mailref's first command (here `game list`, a read) upgraded an older database
    without a word, under an older daemon that may still be running on it (docs/operating.md,
    "Upgrade")."""
    import sqlite3

    from mailref.store import newest_revision

    site = Site(tmp_path, smtp_in=False)
    site.db.parent.mkdir(parents=True)
    with sqlite3.connect(site.db) as c:
        c.executescript((UPGRADE / "schema-0001.sql").read_text())
        c.execute(
            "DELETE FROM outbox"
        )  # what the old version sent is not today's to check (test_operating)
    r = site.cli("game", "list")
    assert r.returncode == 0 and "bn" in r.stdout, r.stderr
    assert (
        r.stderr.strip()
        == f"upgraded the database sqlite:///{site.db} from schema 0001 to {newest_revision()} "
        "(an older mailref must not run on it now)"
    ), r.stderr
    r = site.cli("game", "list")
    assert r.returncode == 0 and r.stderr == "", r.stderr
