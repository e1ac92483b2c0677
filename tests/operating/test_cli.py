"""The admin CLI as an operator uses it: exit codes 0/1/2, the same door as mail, replay."""

from __future__ import annotations

import json
import shutil

import pytest

from mailref import config as config_mod
from support.cli import G, run

pytestmark = pytest.mark.spec("1.4")


@pytest.fixture(scope="module")
def initialised(tmp_path_factory):
    """`mailref init` and `game create` once for the module (each CLI run starts Python anew)."""
    where = tmp_path_factory.mktemp("site")
    assert run(where, "init").returncode == 0
    assert (where / "mailref.toml").exists()
    assert run(where, "init").returncode == 1  # never overwrites
    r = run(
        where,
        "game",
        "create",
        "nomes",
        "--variant",
        "sidekick",
        "--address",
        G,
        "--gm",
        "gm@x.org",
        "--set",
        "turn_timeout=2d",
    )
    assert r.returncode == 0, r.stderr
    return where


@pytest.fixture
def site(tmp_path, initialised):
    """A copy of that site for each test (its paths are relative to its mailref.toml)."""
    shutil.copytree(initialised, tmp_path, dirs_exist_ok=True)
    return tmp_path


def show(site) -> dict:
    r = run(site, "game", "show", "nomes", "--json")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_admin_commands_change_the_game_and_are_journaled(site):
    assert (
        run(
            site, "player", "add", "nomes", "Alice", "alice@x.org", "--email", "alice@work.example"
        ).returncode
        == 0
    )
    assert run(site, "player", "add", "nomes", "Bob", "bob@x.org").returncode == 0
    state = show(site)
    assert state["parameters"]["turn_timeout"] == "2d"
    assert state["players"][0]["addresses"] == ["alice@x.org", "alice@work.example"]
    assert state["turn"]["number"] == 1
    assert run(site, "score", "nomes", "Alice", "+7", "--reason", "bonus").returncode == 0
    assert run(site, "score", "nomes", "Bob", "-3").returncode == 0
    assert run(site, "office", "nomes", "admin", "Alice").returncode == 0
    assert run(site, "player", "away", "nomes", "Bob").returncode == 0
    assert (
        run(
            site, "rule", "add", "nomes", "30", "Thirty", "-", stdin="The text of thirty."
        ).returncode
        == 0
    )
    assert run(site, "rule", "amend", "nomes", "30", "Amended thirty.").returncode == 0
    assert run(site, "rule", "retitle", "nomes", "30", "Trente").returncode == 0
    assert run(site, "rule", "repeal", "nomes", "2").returncode == 0
    assert run(site, "deadline", "nomes", "extend", "1d").returncode == 0
    assert run(site, "game", "pause", "nomes").returncode == 0
    assert run(site, "game", "resume", "nomes").returncode == 0
    state = show(site)
    alice, bob = state["players"]
    assert (alice["score"], alice["offices"], bob["score"], bob["status"]) == (
        7,
        ["admin"],
        -3,
        "away",
    )
    rules = {r["number"]: r for r in state["rules"]}
    assert (
        rules["30"]["title"] == "Trente"
        and rules["30"]["text"] == "Amended thirty."
        and "2" not in rules
    )
    r = run(site, "replay")
    assert r.returncode == 0 and "identical" in r.stdout
    out = run(site, "outbox", "list")
    assert "ruleset" in out.stdout and "announcement" in out.stdout


@pytest.mark.parametrize(
    "args,code",
    [
        (["score", "nomes", "Nobody", "+1"], 1),
        (["rule", "amend", "nomes", "99", "x"], 1),
        (["game", "show", "nope"], 1),
        (["game", "create", "nomes", "--variant", "sidekick", "--address", "other@x.org"], 1),
        (["game", "create", "x2", "--variant", "chess", "--address", "c@x.org"], 1),
        (["score", "nomes", "Alice", "lots"], 2),
        (["frobnicate"], 2),
        (["mail", "reprocess", "12345"], 1),
    ],
)
def test_exit_codes(site, args, code):
    r = run(site, *args)
    assert r.returncode == code, (r.stdout, r.stderr)
    if code == 1:
        assert r.stderr.startswith("mailref: refused:") and len(r.stderr.strip().splitlines()) == 1


def test_outbox_retry_writes_the_maildir(site):
    run(site, "player", "add", "nomes", "Alice", "alice@x.org")
    r = run(site, "outbox", "retry")
    assert r.returncode == 0
    assert list((site / "var" / "outbox" / "new").iterdir())
    assert "sent" in run(site, "outbox", "list").stdout


def test_bad_configuration_names_file_and_key(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[smtp_in]\nport = "twenty"\n')
    r = run(tmp_path, "--config", str(bad), "game", "list")
    assert r.returncode == 1 and "bad.toml" in r.stderr and "[smtp_in] port" in r.stderr
    bad.write_text('[imap]\npoll_interval = "soon"\n')
    with pytest.raises(config_mod.ConfigError, match=r"\[imap\] poll_interval"):
        config_mod.load(bad)
    bad.write_text('[daemon]\ncolour = "blue"\n')
    with pytest.raises(config_mod.ConfigError, match="colour: unknown key"):
        config_mod.load(bad)


def test_secrets_come_from_files_and_are_never_shown(tmp_path):
    (tmp_path / "imap.pass").write_text("hunter2\n")
    cfg = tmp_path / "m.toml"
    cfg.write_text(
        '[imap]\npassword_file = "imap.pass"\n[daemon]\ndatabase = '
        '"postgresql+psycopg://u:pw@h/db"\n'
    )
    c = config_mod.load(cfg)
    assert c.imap.password == "hunter2"
    assert "hunter2" not in repr(c) and "hunter2" not in c.describe() and ":pw@" not in c.describe()


def test_embedded_defaults(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("MAILREF_CONFIG", raising=False)
    c = config_mod.load()
    assert c.smtp_in.port == 2525 and c.imap is None and c.smtp_out is None
    assert c.database.endswith("var/mailref.sqlite3")
