"""`mailref column add SLUG NAME KIND`: the GM declares a column no rule's sentence declares
(SPEC §5.2, the gamestate); every player starts at its default, and players alter it by mail."""

from __future__ import annotations

import json

import pytest

from support.cli import G, run, run_here

pytestmark = pytest.mark.spec("1.4", "5.2")


def test_the_gm_declares_a_column_every_player_starts_at(tmp_path):
    assert run(tmp_path, "init").returncode == 0
    create = ("game", "create", "nomes", "--variant", "sidekick", "--address", G)
    assert run_here(tmp_path, *create).returncode == 0
    for name in ("Alice", "Bob"):
        assert (
            run_here(tmp_path, "player", "add", "nomes", name, f"{name.lower()}@x.org").returncode
            == 0
        )
    r = run(tmp_path, "column", "add", "nomes", "Gold", "integer", "--min", "0", "--default", "10")
    assert (
        r.returncode == 0
        and "The GM declared the column Gold (integer), starting at 10." in r.stdout
    )
    r = run(tmp_path, "column", "add", "nomes", "gold", "text")
    assert r.returncode == 1 and "there is a column gold already" in r.stderr
    r = run(tmp_path, "column", "add", "nomes", "Mood", "choice")
    assert r.returncode == 1 and "--choices" in r.stderr
    shown = json.loads(run(tmp_path, "game", "show", "nomes", "--json").stdout)["gamestate"]
    assert shown["values"] == {"Alice": {"gold": 10}, "Bob": {"gold": 10}}
    assert run_here(tmp_path, "player", "add", "nomes", "Carol", "carol@x.org").returncode == 0
    shown = json.loads(run(tmp_path, "game", "show", "nomes", "--json").stdout)["gamestate"]
    assert shown["values"]["Carol"] == {"gold": 10}
    r = run(tmp_path, "replay")
    assert r.returncode == 0 and "identical" in r.stdout


def test_the_gm_declares_an_asset_that_never_goes_below_zero(tmp_path):
    """`column add SLUG Coins asset`: a ledger, at least 0 whatever --min says."""
    assert run(tmp_path, "init").returncode == 0
    create = ("game", "create", "nomes", "--variant", "sidekick", "--address", G)
    assert run_here(tmp_path, *create).returncode == 0
    assert run_here(tmp_path, "player", "add", "nomes", "Alice", "alice@x.org").returncode == 0
    r = run(tmp_path, "column", "add", "nomes", "Coins", "asset", "--default", "3", "--min", "-5")
    assert "The GM declared the column Coins (asset), starting at 3." in r.stdout
    shown = json.loads(run(tmp_path, "game", "show", "nomes", "--json").stdout)["gamestate"]
    (coins,) = shown["columns"]
    assert (coins["kind"], coins["min"], shown["values"]["Alice"]) == ("asset", 0, {"coins": 3})
