"""`mailref outbox list` and `mailref mail list` say when --limit left rows out (SPEC §6)."""

from __future__ import annotations

import json
import sqlite3

import pytest

from mailref.door import Settings
from mailref.store import open_store
from mailref.timeutil import utcnow
from support.helpers import MailedReferee, mail
from support.ops import Site

pytestmark = pytest.mark.spec("6")

G = "nomes@ref.example"


@pytest.fixture
def site(tmp_path) -> Site:
    """A game of 12 players the admin added (their welcomes and the join announcements fill the
    outbox past 50 mails) and an inbox of 55 status requests."""
    s = Site(tmp_path, smtp_in=False)
    referee = MailedReferee(
        open_store(f"sqlite:///{s.db}"), Settings("referee@ref.example", "gm@ref.example"), utcnow
    )
    referee.create_game("nomes", "sidekick", G, gm="gm@ref.example")
    for i in range(12):
        name = f"P{i:02d}"
        action = {"type": "player_add", "name": name, "address": f"{name.lower()}@players.example"}
        assert referee.admin("nomes", action, "gm").ok
    for _ in range(55):
        referee.accept(mail("p00@players.example", G, "[Status]"))
    referee.store.dispose()
    return s


def outgoing(site: Site) -> int:
    with sqlite3.connect(site.db) as db:
        return db.execute("SELECT count(*) FROM outbox").fetchone()[0]


def test_outbox_list_says_when_it_stops_at_its_limit(site):
    n = outgoing(site)
    assert n > 60
    r = site.cli("outbox", "list")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert len([ln for ln in lines if ln.startswith("#")]) == 50
    assert lines[-1] == f"(the newest 50 of {n} rows; --limit {n} lists them all)", lines[-1]
    every = site.cli("outbox", "list", "--limit", str(n))
    assert "newest" not in every.stdout and len(every.stdout.splitlines()) == n + 1


def test_a_json_listing_stays_json_and_says_the_cut_on_stderr(site):
    n = outgoing(site)
    r = site.cli("outbox", "list", "--json")
    assert len(json.loads(r.stdout)) == 50
    assert f"(the newest 50 of {n} rows; --limit {n} lists them all)" in r.stderr


def test_mail_list_says_when_it_stops_at_its_limit(site):
    r = site.cli("mail", "list", "--limit", "10", "--status", "processed")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[-1] == (
        "(the newest 10 of 55 processed rows; --limit 55 lists them all)"
    ), r.stdout
