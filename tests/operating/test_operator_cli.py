"""The CLI explains itself: help for every command and option, the engine's hints,
`--json` on every listing, header rows, control characters escaped, one address where an
address is asked for, read-only commands that never create a database, and every
operational error in one line with a non-zero exit."""

from __future__ import annotations

import argparse
import json
import socket
import sqlite3

import pytest

from mailref.cli import build_parser
from mailref.door import Settings
from mailref.store import open_store
from mailref.timeutil import utcnow
from support.helpers import MailedReferee, mail
from support.ops import CountingSink, Site

pytestmark = pytest.mark.spec("1.4")

G = "nomes@ref.example"


def _subparsers(parser: argparse.ArgumentParser, path: str = "mailref"):
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help for a in action._choices_actions}
            for name, sub in action.choices.items():
                assert helps.get(name), f"{path} {name} has no help line"
                yield from _subparsers(sub, f"{path} {name}")


def test_every_command_and_option_has_a_help_line():
    seen = 0
    for path, parser in _subparsers(build_parser()):
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction | argparse._HelpAction):
                continue
            assert action.help, f"{path}: {action.option_strings or action.dest} has no help"
            seen += 1
    assert seen > 100


@pytest.fixture
def site(tmp_path) -> Site:
    s = Site(tmp_path, smtp_in=False)
    referee = MailedReferee(
        open_store(f"sqlite:///{s.db}"), Settings("referee@ref.example", "gm@ref.example"), utcnow
    )
    referee.create_game("nomes", "sidekick", G, gm="gm@ref.example")
    referee.admin(
        "nomes", {"type": "player_add", "name": "Alice", "address": "alice@players.example"}, "test"
    )
    # A subject that would clear the admin's screen and retitle the terminal if printed raw.
    referee.accept(
        mail("alice@players.example", G, "[Status] \x1b[2J\x1b]0;owned\x07 hi \u202egnp.exe")
    )
    referee.store.dispose()
    return s


def test_listings_have_header_rows_json_and_no_raw_control_characters(site):
    for args in (("game", "list"), ("mail", "list"), ("outbox", "list")):
        table = site.cli(*args)
        assert table.returncode == 0, table.stderr
        assert table.stdout.splitlines()[0].split()[0] in ("SLUG", "ID")
        doc = site.cli(*args, "--json")
        assert doc.returncode == 0, doc.stderr
        assert isinstance(json.loads(doc.stdout), list) and json.loads(doc.stdout)
    assert json.loads(site.cli("game", "show", "nomes", "--json").stdout)["slug"] == "nomes"
    shown = [
        site.cli("mail", "list"),
        site.cli("mail", "show", "1"),
        site.cli("mail", "list", "--json"),
        site.cli("outbox", "list"),
        site.cli("game", "show", "nomes"),
    ]
    for r in shown:
        assert r.returncode == 0, r.stderr
        assert "\x1b" not in r.stdout and "\x07" not in r.stdout and "\u202e" not in r.stdout
    assert "\\x1b[2J" in shown[0].stdout and "\\u202e" in shown[0].stdout
    assert json.loads(shown[2].stdout)[0]["subject"].startswith(
        "[Status] \x1b[2J"
    )  # JSON keeps the value exact


def test_the_engines_hint_is_printed(site):
    r = site.cli("game", "set", "nomes", "foo=1")
    assert r.returncode == 1
    assert (
        "unknown parameter 'foo'" in r.stderr
        and "known:" in r.stderr
        and "turn_timeout" in r.stderr
    )


@pytest.mark.parametrize(
    "args",
    [
        ("game", "create", "x1", "--variant", "sidekick", "--address", "e@x.org, victim@y.org"),
        (
            "game",
            "create",
            "x2",
            "--variant",
            "sidekick",
            "--address",
            "x2@x.org",
            "--gm",
            "not an address",
        ),
        (
            "game",
            "create",
            "x3",
            "--variant",
            "sidekick",
            "--address",
            "x3@x.org",
            "--timezone",
            "../../etc/passwd",
        ),
        ("player", "add", "nomes", "Mallory", "m@x.org\r\nBcc: victim@y.org"),
        ("player", "add", "nomes", "Mallory", "m@x.org,victim@y.org"),
        ("player", "add", "nomes", "Mallory", "m@x.org", "--email", "Mallory <m2@x.org>"),
    ],
)
def test_bad_addresses_and_zones_are_refused_in_one_line(site, args):
    r = site.cli(*args)
    assert r.returncode == 1, r.stdout
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr, r.stderr
    assert "Mallory" not in site.cli("game", "show", "nomes").stdout


def test_operational_errors_are_one_line_and_non_zero(site):
    r = site.cli("mail", "reprocess", "99999999999999999999")
    assert r.returncode == 2 and "Traceback" not in r.stderr and "not a row number" in r.stderr
    locker = sqlite3.connect(site.db, isolation_level=None)
    locker.execute("BEGIN EXCLUSIVE")  # another process holds the write lock
    try:
        r = site.cli("score", "nomes", "Alice", "+1", MAILREF_LOCK_WAIT="0.3")
    finally:
        locker.execute("ROLLBACK")
        locker.close()
    assert r.returncode == 1 and r.stderr.count("\n") == 1 and "locked" in r.stderr, r.stderr
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        site.config.write_text(site.config.read_text() + f"[smtp_in]\nport = {port}\n")
        r = site.cli("serve")
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert f"cannot listen on 127.0.0.1:{port}: address already in use" in r.stderr.splitlines()[-1]


def test_read_only_commands_never_create_a_database(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    site = Site(tmp_path, smtp_in=False)
    for args in (
        ("game", "list"),
        ("game", "show", "nomes"),
        ("mail", "list"),
        ("outbox", "list"),
        ("replay",),
    ):
        r = site.cli(*args)
        assert r.returncode == 1 and f"no database at {site.db}" in r.stderr, (args, r.stderr)
    assert not site.db.exists() and not (tmp_path / "var").exists()
    r = site.cli("game", "create", "nomes", "--variant", "sidekick", "--address", G)
    assert r.returncode == 0 and f"created a new database at {site.db}" in r.stderr
    assert "nomes" in site.cli("game", "list").stdout


def test_check_connects_to_each_server_it_names(tmp_path, dovecot):
    with CountingSink() as relay:
        site = Site(tmp_path, relay_port=relay.port, extra=dovecot.imap_toml())
        r = site.cli("check")
        assert r.returncode == 0, r.stdout + r.stderr
        lines = r.stdout.splitlines()
        assert [line.split()[0] for line in lines] == ["ok"] * 5, lines
        assert any("IMAP" in line and "login ok" in line for line in lines)
        assert any("SMTP relay" in line and "EHLO ok" in line for line in lines)
        site = Site(
            tmp_path,
            relay_port=relay.port + 1 if relay.port < 65535 else 1,
            extra=dovecot.imap_toml(password="wrong"),
        )
        r = site.cli("check")
    assert r.returncode == 1
    fails = [line for line in r.stdout.splitlines() if line.startswith("FAIL")]
    assert len(fails) == 2 and "IMAP" in fails[0] and "unreachable" in fails[1], r.stdout


def test_check_refuses_a_bad_configuration_naming_file_and_key(tmp_path):
    site = Site(tmp_path, smtp_in=False)
    site.config.write_text(
        site.config.read_text().replace(
            'admin_address = "gm@ref.example"', 'admin_address = "gm@ref.example, boss@ref.example"'
        )
    )
    r = site.cli("check")
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert (
        f"{site.config}: [daemon] admin_address" in r.stderr and "exactly one address" in r.stderr
    ), r.stderr
