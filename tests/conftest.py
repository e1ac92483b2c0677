from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
# The CLI and daemon the tests start as processes import this checkout's mailref, whatever
# checkout the virtualenv's editable install points at (several worktrees may share one).
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(Path(__file__).parent.parent), os.environ.get("PYTHONPATH")]))

import helpers  # noqa: E402
from dovecot import Dovecot, dovecot_binary  # noqa: E402
from helpers import Clock, Outbox, assert_replays, make_referee  # noqa: E402
from postgres import Postgres, postgres_bindir  # noqa: E402

GAME = "nomes@ref.example"


@pytest.fixture(autouse=True)
def every_game_replays():
    """Issue 11: `mailref replay` (its own code, cli.replay.cmd_replay) exits 0 on every game any test plays."""
    import argparse
    import contextlib
    import io

    from mailref.cli.replay import cmd_replay

    yield
    made, helpers.REFEREES[:] = list(helpers.REFEREES), []
    for r in made:
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            code = cmd_replay(r, argparse.Namespace(slug=None), None)
        assert code == 0, out.getvalue()
        assert_replays(r)
        r.store.dispose()


@pytest.fixture
def clock() -> Clock:
    return Clock()


# The store, engine and daemon tests run on both databases (SPEC §6); MAILREF_TEST_DATABASES=sqlite
# narrows a quick local run to one.
DATABASES = [d for d in os.environ.get("MAILREF_TEST_DATABASES", "sqlite,postgresql").split(",") if d]


@pytest.fixture(scope="session")
def postgres():
    if "postgresql" not in DATABASES:
        pytest.skip("MAILREF_TEST_DATABASES leaves PostgreSQL out")
    if postgres_bindir() is None:
        if os.environ.get("CI"):
            pytest.fail("postgresql is not installed: scripts/test installs it")
        pytest.skip("postgresql is not installed (scripts/test installs it)")
    root = Path(tempfile.mkdtemp(prefix="mailref-postgres-"))  # not pytest's 0700 tmp: postgres owns it
    pg = Postgres(root).start()
    try:
        pg.create_template()
        yield pg
    finally:
        pg.stop()
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(params=DATABASES)
def database_url(request, tmp_path):
    """A fresh, migrated database of each kind: a SQLite file, or a PostgreSQL database."""
    if request.param == "sqlite":
        yield helpers.migrated_sqlite(tmp_path / "mailref.sqlite3")
        return
    pg = request.getfixturevalue("postgres")
    name = pg.fresh_database()
    # A recycled database has the same URL, and a game made at the test clock's time the same
    # slug and creation time as one of an earlier test: the site's replay cache keyed by those
    # would resume from that other game's history.
    from mailref.site import history

    history._CACHE.clear()
    yield pg.url(name)
    pg.retire(name)


@pytest.fixture
def referee(tmp_path, clock, database_url):
    r = make_referee(tmp_path, clock, url=database_url)
    yield r
    r.store.dispose()


@pytest.fixture
def outbox(referee) -> Outbox:
    return Outbox(referee)


@pytest.fixture(scope="session")
def dovecot(tmp_path_factory):
    if dovecot_binary() is None:
        if os.environ.get("CI"):
            pytest.fail("dovecot is not installed: scripts/test installs dovecot-imapd")
        pytest.skip("dovecot is not installed (scripts/test installs it)")
    if os.geteuid() != 0:
        pytest.skip("the private Dovecot instance needs root to switch to its mail user")
    # Not under pytest's tmp folder: that is 0700, and Dovecot's auth runs as the mail user.
    root = Path(tempfile.mkdtemp(prefix="mailref-dovecot-"))
    d = Dovecot(root).start()
    yield d
    d.stop()
    shutil.rmtree(root, ignore_errors=True)


# ---- every mail a test causes passes a real relay (SPEC §4.3; tests/relay.py) ------------
@pytest.fixture(scope="session")
def relay():
    from relay import Relay

    r = Relay.start()
    yield r
    r.stop()


@pytest.fixture(autouse=True)
def _mail_passes_the_relay(request, relay, tmp_path, monkeypatch):
    """After each test: its outbox rows (every store it opened, every SQLite file and Maildir
    under its tmp_path) go over one SMTP session to the relay; a refused or non-conforming
    mail fails the test."""
    from relay import engine_rows, maildir_files, outbox_rows, sqlite_files

    from mailref.store import Store

    engines = []
    init = Store.__init__

    def tracking_init(self, engine):
        engines.append(engine)
        init(self, engine)

    monkeypatch.setattr(Store, "__init__", tracking_init)
    yield
    if request.node.get_closest_marker("no_relay_check"):
        return
    mails = [m for e in engines for m in engine_rows(e)]
    mails += [m for f in sqlite_files(tmp_path) for m in outbox_rows(f)]
    mails += maildir_files(tmp_path)
    problems = relay.check(mails)
    if problems:
        pytest.fail("mail a relay would refuse:\n  " + "\n  ".join(problems[:20]), pytrace=False)
