"""Fixtures every test may use, and the SPEC marker.

Mark a test (or a module, with `pytestmark`) by the SPEC.md sections it holds the product to:
`@pytest.mark.spec("2.4")` or `pytestmark = pytest.mark.spec("2.4", "3.2")`. Each section also
becomes a plain marker, spec_2_4 (and its chapter, spec_2), so `-m` selects by section:

    .venv/bin/python -m pytest -m spec_2_4          # what SPEC §2.4 covers
    .venv/bin/python -m pytest -m "spec_5 and not spec_5_4"
    .venv/bin/python -m pytest tests/games -m spec_5_2
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
# Every state the referee holds for its next batch is checked against what the store gives back.
os.environ.setdefault("MAILREF_TEST_STATE_CHECK", "1")
# The CLI and daemon the tests start as processes import this checkout's mailref, whatever
# checkout the virtualenv's editable install points at (several worktrees may share one).
os.environ["PYTHONPATH"] = os.pathsep.join(
    filter(None, [str(Path(__file__).parent.parent), os.environ.get("PYTHONPATH")])
)

from support import helpers  # noqa: E402

# One game fixture per variant, by the variant's name (each module of tests/games/ names its own
# variant's `game`).
from support.blognomic import blognomic_game  # noqa: E402, F401
from support.dovecot import Dovecot, dovecot_binary  # noqa: E402
from support.helpers import Clock, Outbox, assert_replays, make_referee  # noqa: E402
from support.imperial import imperial_game  # noqa: E402, F401
from support.listener import listening, submit  # noqa: E402
from support.postgres import Postgres, postgres_bindir  # noqa: E402
from support.sidekick import sidekick_game  # noqa: E402, F401
from support.site import chromium as _chromium  # noqa: E402

GAME = "nomes@ref.example"

# SPEC.md's chapters and numbered sections: each is a marker spec_N_M, its chapter spec_N.
SPEC_SECTIONS = [
    "1",
    "2",
    "3",
    "4",
    "5",
    "1.1",
    "1.2",
    "1.3",
    "1.4",
    "1.5",
    "2.1",
    "2.2",
    "2.3",
    "2.4",
    "2.5",
    "2.6",
    "2.7",
    "3.1",
    "3.2",
    "3.3",
    "4.1",
    "4.2",
    "4.3",
    "4.4",
    "4.5",
    "5.1",
    "5.2",
    "5.3",
    "5.4",
    "5.5",
    "6",
    "7",
    "8",
]


def spec_marker_names(section: str) -> list[str]:
    """The plain markers a spec(SECTION) mark adds: the section's and its chapter's."""
    parts = section.split(".")
    return sorted({"spec_" + parts[0], "spec_" + "_".join(parts)})


def pytest_configure(config):
    for section in SPEC_SECTIONS:
        for name in spec_marker_names(section):
            config.addinivalue_line(
                "markers", f"{name}: a test of SPEC.md section {name[5:].replace('_', '.')}"
            )


@pytest.hookimpl(tryfirst=True)  # before -m deselects
def pytest_collection_modifyitems(config, items):
    for item in items:
        for mark in item.iter_markers("spec"):
            for section in mark.args:
                if str(section) not in SPEC_SECTIONS:
                    raise pytest.UsageError(
                        f"{item.nodeid}: spec({section!r}) names no SPEC.md section"
                    )
                for name in spec_marker_names(str(section)):
                    item.add_marker(name)


@pytest.fixture(autouse=True)
def every_game_replays():
    """`mailref replay` (its own code, cli.replay.cmd_replay) exits 0 on every game any test
    plays."""
    import argparse
    import contextlib
    import io

    from mailref.cli.replay import cmd_replay

    yield
    made, helpers.REFEREES[:] = list(helpers.REFEREES), []
    checked: set[str] = set()
    for r in made:
        # Both checks read the database alone: referees on one database (a restart, a second
        # process) are checked once.
        url = r.store.engine.url.render_as_string(hide_password=False)
        if url not in checked:
            checked.add(url)
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
DATABASES = [
    d for d in os.environ.get("MAILREF_TEST_DATABASES", "sqlite,postgresql").split(",") if d
]


@pytest.fixture(scope="session")
def postgres():
    if "postgresql" not in DATABASES:
        pytest.skip("MAILREF_TEST_DATABASES leaves PostgreSQL out")
    if postgres_bindir() is None:
        if os.environ.get("CI"):
            pytest.fail("postgresql is not installed: scripts/test installs it")
        pytest.skip("postgresql is not installed (scripts/test installs it)")
    root = Path(
        tempfile.mkdtemp(prefix="mailref-postgres-")
    )  # not pytest's 0700 tmp: postgres owns it
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


@pytest.fixture
def smtp(referee):
    """The one way a test sends raw mail as a sending server does: smtp(raw, mail_from, rcpt=GAME,
    utf8=False) hands RAW over one real SMTP session to the referee's own listener."""
    with listening(referee, 10_000_000) as port:

        def send(message: bytes, mail_from: str, rcpt: str = GAME, utf8: bool = False) -> None:
            submit(port, mail_from, [rcpt], message, mail_options=["SMTPUTF8"] if utf8 else [])

        yield send


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


# ---- every mail a test causes passes a real relay (SPEC §4.3; tests/support/relay.py) ------------
@pytest.fixture(scope="session")
def relay():
    from support.relay import Relay

    r = Relay.start()
    yield r
    r.stop()


@pytest.fixture(autouse=True)
def _mail_passes_the_relay(request, relay, tmp_path, monkeypatch):
    """After each test: its outbox rows (every store it opened, every SQLite file and Maildir
    under its tmp_path) go over one SMTP session to the relay; a refused or non-conforming
    mail fails the test."""
    from mailref.store import Store
    from support.relay import engine_rows, maildir_files, outbox_rows, sqlite_files

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


# ---- one headless Chromium a worker, under either name (support/site.py) -----------------
# Every test only navigates and reads pages, so one browser serves them all; starting one per
# module (or per name) cost a second or more each.
browser = pytest.fixture(scope="session", name="browser")(_chromium)


@pytest.fixture(scope="session")
def chromium(browser):
    return browser
