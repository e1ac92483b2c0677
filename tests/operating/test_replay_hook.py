"""The teardown hook of conftest (every game every test plays must replay) can fail: a state the
journal does not explain is reported by `mailref replay`'s own code."""

from __future__ import annotations

import argparse
import contextlib
import io

import pytest

from mailref.cli.replay import cmd_replay
from mailref.store import Game
from support import helpers
from support.helpers import mail, make_referee
from support.joining import confirm_waiting

pytestmark = pytest.mark.spec("4.4")


def test_replay_reports_a_state_the_journal_does_not_explain(tmp_path, database_url):
    """On both stores, read (as `mailref replay` does) with the database's own driver."""
    r = make_referee(tmp_path, url=database_url)
    r.create_game("nomes", "sidekick", "nomes@ref.example")
    for n in ("alice", "bob"):
        r.accept(
            mail(f"{n}@x.example", "nomes@ref.example", "[Join]", f"Name: {n.title()}"), "smtp"
        )
        confirm_waiting(r)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cmd_replay(r, argparse.Namespace(slug=None), None) == 0
    with r.store() as s, s.begin():
        g = s.query(Game).one()
        g.state = {**g.state, "name": "Forged"}
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        assert cmd_replay(r, argparse.Namespace(slug=None), None) == 1
    assert "nomes: DIFFERS" in out.getvalue() and "Forged" in out.getvalue()
    helpers.REFEREES.remove(r)  # the hook would (rightly) fail this test's forged game
    r.store.dispose()
