"""A game's state carries the schema it was written in (`state["schema"]`); a state an older
mailref wrote is brought up to it step by step when read, and such a game still replays to
its live state."""

from __future__ import annotations

import json
import sqlite3

import pytest

from mailref.engine.schema import SCHEMA, upgrade
from mailref.engine.variants import get_variant
from support.cli import G, run, run_here

pytestmark = pytest.mark.spec("4.4")


def test_a_new_game_is_written_in_the_newest_schema():
    from datetime import UTC, datetime

    for variant in ("sidekick", "blognomic", "imperial", "eire"):
        v = get_variant(variant)
        state = v.initial_state("g", "", G, None, "UTC", {}, datetime(2026, 1, 1, tzinfo=UTC))
        assert state["schema"] == SCHEMA


def test_a_state_without_schema_has_its_held_mail_and_score_levels_apart():
    """Before schema 1 a player's `held` held both the digest's waiting announcements and the
    victory check's score levels; a player who had both keeps both, each under its own key."""
    item = {"at": "2026-01-01T10:00:00Z", "subject": "Proposal 1", "lines": [], "capped": True}
    state = {
        "players": [
            {"name": "Ann", "held": [[0, 1], [10, 3], item]},
            {"name": "Ben", "held": [[0, 1]]},
            {"name": "Cat", "held": [item]},
            {"name": "Dan"},
        ]
    }
    upgrade(state)  # type: ignore[arg-type]
    ann, ben, cat, dan = state["players"]
    assert ann == {"name": "Ann", "held": [item], "score_levels": [[0, 1], [10, 3]]}
    assert ben == {"name": "Ben", "score_levels": [[0, 1]]}
    assert cat == {"name": "Cat", "held": [item]}
    assert dan == {"name": "Dan"}
    assert state["schema"] == SCHEMA
    assert upgrade(json.loads(json.dumps(state))) == state  # once upgraded, left as it is


def test_a_game_whose_rules_declare_no_column_carries_no_gamestate():
    from datetime import UTC, datetime

    for variant in ("sidekick", "imperial", "eire"):
        v = get_variant(variant)
        state = v.initial_state("g", "", G, None, "UTC", {}, datetime(2026, 1, 1, tzinfo=UTC))
        assert "gamestate" not in state
    blog = get_variant("blognomic")
    state = blog.initial_state("g", "", G, None, "UTC", {}, datetime(2026, 1, 1, tzinfo=UTC))
    assert [c["name"] for c in state["gamestate"]["columns"]] == ["Hand", "Home", "Thaum"]


def test_a_state_of_schema_1_is_given_the_columns_its_rules_declare():
    """Before schema 2 the gamestate was not kept: each player gets each column's default."""
    rule = {
        "number": "2.1",
        "title": "Gold",
        "text": "Each Wizard has an amount of Gold, which "
        "is a nonnegative integer, tracked in the GNDT. Gold defaults to 10.",
    }
    state = {"schema": 1, "rules": [rule], "players": [{"name": "Ann"}]}
    upgrade(state)  # type: ignore[arg-type]
    assert state["gamestate"]["values"] == {"Ann": {"gold": 10}}  # type: ignore[typeddict-item]
    bare = {"schema": 1, "rules": [], "players": [{"name": "Ann"}]}
    upgrade(bare)  # type: ignore[arg-type]
    assert "gamestate" not in bare


def test_a_state_of_a_newer_schema_is_not_misread():
    with pytest.raises(ValueError, match="newer than this mailref"):
        upgrade({"schema": SCHEMA + 1})  # type: ignore[typeddict-item]


def test_a_game_an_older_mailref_wrote_replays_identical(tmp_path):
    """The live and initial states as a mailref before schema 1 wrote them (no `schema`, the
    score levels under `held`): `mailref replay` finds them identical, with nothing set apart,
    and the game plays on."""
    assert run(tmp_path, "init").returncode == 0
    create = ("game", "create", "nomes", "--variant", "sidekick", "--address", G)
    assert run_here(tmp_path, *create).returncode == 0
    for name in ("Alice", "Bob", "Carol"):
        assert (
            run_here(tmp_path, "player", "add", "nomes", name, f"{name.lower()}@x.org").returncode
            == 0
        )
    assert run(tmp_path, "score", "nomes", "Bob", "+3", "--reason", "bonus").returncode == 0
    with sqlite3.connect(tmp_path / "var" / "mailref.sqlite3", isolation_level=None) as conn:
        for column in ("state", "initial"):
            (text,) = conn.execute(f"SELECT {column} FROM games").fetchone()
            state = json.loads(text)
            assert state.pop("schema") == SCHEMA
            for p in state["players"]:
                if "score_levels" in p:
                    p["held"] = p.pop("score_levels")
            conn.execute(f"UPDATE games SET {column} = ?", (json.dumps(state),))
        (text,) = conn.execute("SELECT state FROM games").fetchone()
        assert any("held" in p for p in json.loads(text)["players"])
    r = run(tmp_path, "replay")
    assert r.returncode == 0 and r.stdout.splitlines() == [
        "nomes: identical after 4 journal entries"
    ], r.stdout + r.stderr
    assert run(tmp_path, "score", "nomes", "Bob", "+5", "--reason", "more").returncode == 0
    shown = json.loads(run(tmp_path, "game", "show", "nomes", "--json").stdout)
    assert next(p for p in shown["players"] if p["name"] == "Bob")["score"] == 8
    r = run(tmp_path, "replay")
    assert r.returncode == 0 and "nomes: identical after 5 journal entries" in r.stdout


def _played(where) -> None:
    assert run(where, "init").returncode == 0
    create = ("game", "create", "nomes", "--variant", "sidekick", "--address", G)
    assert run_here(where, *create).returncode == 0
    for name in ("Alice", "Bob"):
        assert (
            run_here(where, "player", "add", "nomes", name, f"{name.lower()}@x.org").returncode == 0
        )


def _without_name_keys(where, *, schema: bool) -> None:
    """The live state without Alice's name_keys (a field an older mailref did not write), and
    the initial state without `schema` unless SCHEMA."""
    with sqlite3.connect(where / "var" / "mailref.sqlite3", isolation_level=None) as conn:
        state, initial = (
            json.loads(t) for t in conn.execute("SELECT state, initial FROM games").fetchone()
        )
        del state["players"][0]["name_keys"]
        if not schema:
            del initial["schema"]
        conn.execute(
            "UPDATE games SET state = ?, initial = ?", (json.dumps(state), json.dumps(initial))
        )


def test_a_game_begun_before_the_schema_has_older_writing_set_apart(tmp_path):
    _played(tmp_path)
    _without_name_keys(tmp_path, schema=False)
    r = run(tmp_path, "replay")
    assert r.returncode == 0 and "players[].name_keys added (1)" in r.stdout, r.stdout


def test_a_game_begun_with_a_schema_has_nothing_set_apart(tmp_path):
    """Since states have a schema, a field the live state lacks is a difference: a change of
    shape comes with an upgrade step, not a guess."""
    _played(tmp_path)
    _without_name_keys(tmp_path, schema=True)
    r = run(tmp_path, "replay")
    assert r.returncode == 1 and "nomes: DIFFERS" in r.stdout and "name_keys" in r.stdout
