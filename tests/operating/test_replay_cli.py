"""`mailref replay` as an operator runs it on a SQLite file: read with sqlite3 alone (SPEC §8:
start-up included, ≥ 5,000 journal entries/s), and still everything it checked before: a
forged state or journal is found, a refused journaled action is reported, an older schema is
upgraded first, and a writer holding the database does not stop it."""

from __future__ import annotations

import json
import shutil
import sqlite3

import pytest

from support.cli import G, modules_of, run, run_here

pytestmark = pytest.mark.spec("4.4", "8")


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A Sidekick game with a few turns played through the CLI: proposals, votes, a rule change."""
    where = tmp_path_factory.mktemp("replay")
    assert run(where, "init").returncode == 0
    assert (
        run_here(
            where, "game", "create", "nomes", "--variant", "sidekick", "--address", G
        ).returncode
        == 0
    )
    for name in ("Alice", "Bob", "Carol"):
        assert (
            run_here(where, "player", "add", "nomes", name, f"{name.lower()}@x.org").returncode == 0
        )
    assert run(where, "score", "nomes", "Bob", "+3", "--reason", "bonus").returncode == 0
    assert (
        run(
            where, "rule", "add", "nomes", "30", "Thirty", "-", stdin="The text of thirty."
        ).returncode
        == 0
    )
    assert (
        run_here(
            where, "game", "create", "other", "--variant", "sidekick", "--address", "other@x.org"
        ).returncode
        == 0
    )
    return where


@pytest.fixture
def site(tmp_path, played):
    shutil.copytree(played, tmp_path, dirs_exist_ok=True)
    return tmp_path


def db(site) -> sqlite3.Connection:
    return sqlite3.connect(site / "var" / "mailref.sqlite3", isolation_level=None)


def test_replay_reads_sqlite_without_sqlalchemy(site):
    done, modules = modules_of(site, "replay")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[:2] == [
        "nomes: identical after 5 journal entries",
        "other: identical after 0 journal entries",
    ]
    assert not [m for m in modules if m == "sqlalchemy" or m.startswith("sqlalchemy.")]
    assert "mailref.store.reads" in modules and "mailref.store.database" not in modules


def test_a_forged_state_differs(site):
    with db(site) as conn:
        state = json.loads(
            conn.execute("SELECT state FROM games WHERE slug = 'nomes'").fetchone()[0]
        )
        state["players"][1]["score"] = 99
        conn.execute("UPDATE games SET state = ? WHERE slug = 'nomes'", (json.dumps(state),))
    r = run(site, "replay")
    assert r.returncode == 1
    assert (
        "nomes: DIFFERS after 5 journal entries" in r.stdout and "live 99 != replayed 3" in r.stdout
    )
    assert "other: identical" in r.stdout
    assert r.stderr == "mailref: refused: 1 game(s) do not replay to their live state\n"
    assert run(site, "replay", "other").returncode == 0  # one game alone


def test_a_forged_journal_differs(site):
    with db(site) as conn:
        conn.execute(
            "DELETE FROM journal WHERE seq = (SELECT max(seq) FROM journal)"
        )  # the rule added
    r = run(site, "replay", "nomes")
    assert (
        r.returncode == 1
        and "nomes: DIFFERS after 4 journal entries" in r.stdout
        and ".rules" in r.stdout
    )


def test_a_journaled_action_refused_on_replay_is_reported(site):
    with db(site) as conn:
        ((seq, action),) = conn.execute(
            "SELECT seq, action FROM journal WHERE action LIKE '%\"score\"%'"
        )
        action = json.loads(action)
        action["player"] = "Nobody"
        conn.execute("UPDATE journal SET action = ? WHERE seq = ?", (json.dumps(action), seq))
    r = run(site, "replay", "nomes")
    assert r.returncode == 1 and "replay refused a journaled score" in r.stdout


def test_an_unknown_game_is_refused(site):
    r = run(site, "replay", "nope")
    assert r.returncode == 1 and r.stderr == "mailref: refused: there is no game 'nope'\n"


def test_an_older_schema_is_upgraded_then_replayed(site):
    """A database a revision behind is read through the store, which upgrades it first."""
    with db(site) as conn:
        conn.execute("DROP TABLE dice_draws")
        conn.execute("DROP TABLE dice_seeds")
        conn.execute("DROP TABLE secrets")
        conn.execute("DROP INDEX ix_inbox_game_slug_received_at")
        conn.execute("UPDATE alembic_version SET version_num = '0005'")
    r = run(site, "replay")
    assert r.returncode == 0 and "nomes: identical after 5 journal entries" in r.stdout, r.stderr
    with db(site) as conn:
        assert conn.execute("SELECT name FROM sqlite_master WHERE name = 'dice_seeds'").fetchone()
        assert conn.execute("SELECT version_num FROM alembic_version").fetchone()[0] != "0005"


def test_replay_reads_while_a_writer_holds_the_database(site):
    """A running daemon's write transaction does not hold replay up: it reads a snapshot."""
    writer = db(site)
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("UPDATE games SET version = version + 1 WHERE slug = 'other'")
    try:
        done = run(site, "replay")
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    assert (
        done.returncode == 0 and "nomes: identical after 5 journal entries" in done.stdout
    ), done.stderr
