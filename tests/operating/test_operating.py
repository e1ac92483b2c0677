"""What an operator meets running mailref: each test does what they did, as they
did it (the CLI and `mailref serve` as processes, a real SMTP session), and checks the answer
is one clear line, the right exit status, and nothing lost."""

from __future__ import annotations

import json
import os
import signal
import smtplib
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from support.helpers import maildir_mails, wait_for
from support.ops import Site

pytestmark = pytest.mark.spec("7")


@pytest.mark.parametrize(
    "url, says",
    [
        (
            "postgresql://mailref@127.0.0.1:1/mailref",
            "needs the Python module psycopg2, which is not installed: "
            'write "postgresql+psycopg://..."',
        ),
        ("postgres://mailref@127.0.0.1/mailref", 'is written "postgresql+psycopg://..."'),
        ("mysql://mailref@127.0.0.1/mailref", "needs the Python module MySQLdb"),
        ("foo://x", "names the database kind 'foo', unknown to SQLAlchemy"),
        ("var/mailref.sqlite3", "is not a database URL like"),
        # Two slashes name a host, "var": a 30-line traceback from serve, "\x0a" in check.
        ("sqlite://var/x.sqlite3", 'needs three slashes before a file: "sqlite:///var/x.sqlite3"'),
    ],
)
@pytest.mark.parametrize("command", [["serve"], ["check"], ["game", "list"]])
def test_a_database_url_mailref_cannot_open_is_one_line_naming_file_and_key(
    tmp_path, url, says, command
):
    """Was a traceback from SQLAlchemy ("No module named 'psycopg2'", "Could not parse
    SQLAlchemy URL") from every command, `mailref serve` included (SPEC §1.3, §7)."""
    site = Site(tmp_path, smtp_in=False)
    site.config.write_text(
        site.config.read_text().replace(
            'database = "sqlite:///var/mailref.sqlite3"', f'database = "{url}"'
        )
    )
    r = site.cli(*command, timeout=30)
    assert r.returncode == 1, (r.stdout, r.stderr)
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert f"{site.config}: [daemon] database:" in r.stderr and says in r.stderr, r.stderr


def test_a_port_out_of_range_names_its_table(tmp_path):
    site = Site(tmp_path, smtp_in=False, extra='[smtp_out]\nhost = "127.0.0.1"\nport = 70000\n')
    r = site.cli("serve", timeout=30)
    assert (
        r.returncode == 1 and f"{site.config}: [smtp_out] port: 70000 is out of range" in r.stderr
    ), r.stderr


def test_sighup_leaves_the_service_running_and_says_there_is_no_reload(tmp_path):
    """`kill -HUP` (the usual "reload") killed the daemon without a line: no reload, no
    log, and under systemd a restart only because the unit says Restart=on-failure."""
    site = Site(tmp_path)
    with site.serve() as daemon:
        for pid in [daemon.proc.pid, *children(daemon.proc.pid)]:  # as `systemctl kill -s HUP` does
            os.kill(pid, signal.SIGHUP)
        # The line is written when the daemon's loop next runs, not when kill returns.
        assert wait_for(
            lambda: "SIGHUP: mailref has no reload and keeps running" in daemon.stderr(), 30
        ), daemon.stderr()
        assert daemon.proc.poll() is None, daemon.stderr()
        assert "systemctl restart mailref" in daemon.stderr()
        with smtplib.SMTP("127.0.0.1", site.smtp_port, timeout=30) as s:  # the listener lives too
            s.sendmail(
                "you@example.org",
                ["referee@ref.example"],
                b"From: you@example.org\r\nSubject: [Help]\r\n\r\nhi\r\n",
            )
        assert wait_for(
            lambda: any(m["X-Mailref-Kind"] == "help" for m in maildir_mails(tmp_path)), 30
        ), daemon.stderr()
    assert daemon.proc.returncode == 0


def children(pid: int) -> list[int]:
    out = subprocess.run(
        ["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True
    ).stdout
    return [int(x) for x in out.split()]


OLD = Path(__file__).parent / "upgrade" / "schema-0001.sql"


def test_a_database_an_older_mailref_made_is_upgraded_its_mail_taken_up_and_it_replays(tmp_path):
    """tests/operating/upgrade/schema-0001.sql: what mailref at schema 0001 (commit 8e66675^) left:
    a Sidekick game with a proposal, a BlogNomic game with a proposal and two ballots, and one mail
    stored but not processed (Dan's FOR). Today's code opens it: `mailref replay` set every game
    apart as DIFFERS (fields this version adds, log lines worded anew); the schema goes to the
    newest revision, the waiting mail is answered, and the journal still replays."""
    from mailref.store import newest_revision

    site = Site(tmp_path)
    site.db.parent.mkdir(parents=True)
    with sqlite3.connect(site.db) as c:
        c.executescript(OLD.read_text())
        # What the old version sent is not today's to check (the suite passes every outbox row
        # it finds through a relay's conformance check; those wrote deadlines in ISO then).
        c.execute("DELETE FROM outbox")
    r = site.cli("replay")
    assert r.returncode == 0, r.stdout + r.stderr
    assert (
        "DIFFERS" not in r.stdout
        and "bn: identical after 8 journal entries, but for what this version" in r.stdout
    )
    assert "players[].name_keys added (5)" in r.stdout

    with site.serve():
        # An ack today; an error once the proposal has gone stale (7 days after it was made).
        assert wait_for(
            lambda: any(
                m["To"] == "dan@x.org" and m["X-Mailref-Kind"] in ("ack", "error")
                for m in maildir_mails(tmp_path)
            ),
            30,
        )
    with sqlite3.connect(site.db) as c:
        assert c.execute("SELECT version_num FROM alembic_version").fetchall() == [
            (newest_revision(),)
        ]
        assert c.execute("SELECT status FROM inbox WHERE id = 5").fetchall() == [("processed",)]
    show = json.loads(site.cli_in_process("game", "show", "bn", "--json").stdout)
    assert show["proposals"][0]["votes"]["Cat"] == "AGAINST" and len(show["players"]) == 5
    assert (
        site.cli_in_process("player", "add", "bn", "Fay", "fay@x.org").returncode == 0
    )  # a record of today's shape beside old ones
    r = site.cli("replay")
    assert r.returncode == 0 and "DIFFERS" not in r.stdout, r.stdout + r.stderr


def test_replay_still_says_differs_for_a_real_difference_beside_an_upgrades(tmp_path):
    """Setting apart what a newer version writes hides no real difference: a ballot only the
    journal has (a key of `votes`, not a field) and a changed score still count."""
    from mailref.engine.upgraded import set_apart

    live = {
        "players": [{"name": "Ann", "score": 0}],
        "events": [{"at": "t", "text": "old words"}],
        "proposals": [{"number": 1, "votes": {"Ann": "FOR"}}],
    }
    rebuilt = {
        "players": [{"name": "Ann", "score": 10, "name_keys": ["ann"]}],
        "events": [{"at": "t", "text": "new words"}],
        "proposals": [{"number": 1, "votes": {"Ann": "FOR", "Ben": "AGAINST"}}],
        "cursor": 3,
    }
    kept, notes = set_apart(live, rebuilt)
    assert notes == [
        "cursor added (1)",
        "players[].name_keys added (1)",
        "1 log line(s) worded differently",
    ]
    assert kept["players"][0]["score"] == 10 and kept["proposals"][0]["votes"] == {
        "Ann": "FOR",
        "Ben": "AGAINST",
    }


def test_cli_papercuts_an_operator_met(tmp_path):
    """A pipe closed early, a misspelt --status, a negative score set, and refusals that spoke
    of mail ("send [Status]", "a body line `Name: ...`", "[Start] is not a command")."""
    site = Site(tmp_path, smtp_in=False)
    site.create_game("nomes", "sidekick", "nomes@ref.example")
    assert site.cli_in_process("player", "add", "nomes", "Alice", "alice@x.org").returncode == 0

    # `mailref game show nomes --json | head -1`
    proc = subprocess.Popen(
        [sys.executable, "-m", "mailref", "game", "show", "nomes", "--json"],
        cwd=tmp_path,
        env=site.env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    proc.stdout.readline()
    proc.stdout.close()
    assert proc.wait(60) == 0 and proc.stderr.read() == b""

    r = site.cli("mail", "list", "--status", "stored")
    assert r.returncode == 2 and "invalid choice: 'stored'" in r.stderr and "processed" in r.stderr

    r = site.cli("score", "nomes", "Alice", "=-5")
    assert r.returncode == 0 and "Alice's score: 0 -> -5" in r.stdout, r.stderr
    assert site.cli("score", "nomes", "Alice", "+-5").returncode == 2

    r = site.cli("proposal", "enact", "nomes", "7")
    assert (
        r.returncode == 1
        and "[Status]" not in r.stderr
        and "`mailref game show SLUG` lists" in r.stderr
    ), r.stderr
    r = site.cli("player", "add", "nomes", "Alice", "alice2@x.org")
    assert (
        r.returncode == 1 and "body line" not in r.stderr and "choose another name" in r.stderr
    ), r.stderr
    r = site.cli("player", "add", "nomes", "<b>Bo</b>", "bo@x.org")
    assert (
        r.returncode == 1
        and "body line" not in r.stderr
        and "a name is at most 40 characters" in r.stderr
    ), r.stderr
    r = site.cli("game", "start", "nomes")
    assert r.returncode == 1 and len(r.stderr.splitlines()) == 1, r.stderr
    assert (
        "`start` does not apply" in r.stderr
        and "active from creation" in r.stderr
        and "[Start]" not in r.stderr
    )


def test_the_site_is_readable_by_a_web_server_under_the_units_umask(tmp_path):
    """mailref.service runs with UMask=0027: the site folder came out 0750, so a web server
    (another user) answered 403 for every page (docs/operating.md, "Site")."""
    site = Site(tmp_path, smtp_in=False, extra='[site]\ndir = "var/site"\n')
    site.create_game("nomes", "sidekick", "nomes@ref.example")
    subprocess.run(["rm", "-rf", str(tmp_path / "var" / "site")], check=True)
    r = subprocess.run(
        [sys.executable, "-m", "mailref", "site", "build"],
        cwd=tmp_path,
        env=site.env(),
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=lambda: os.umask(0o027),
    )
    assert r.returncode == 0, r.stderr
    root = tmp_path / "var" / "site"
    for path in [root, *root.rglob("*")]:
        if path.name.startswith(".mailref-site"):
            continue
        others = path.stat().st_mode & 0o007
        assert others == (0o005 if path.is_dir() else 0o004), (path, oct(path.stat().st_mode))


def test_check_on_the_empty_postgresql_database_the_dba_made_is_ok(tmp_path, postgres):
    """`mailref check` said FAIL "UndefinedTable: relation alembic_version does not exist" for
    a new, empty PostgreSQL database: the usual first state (docs/several-daemons.md),
    which `mailref serve` fills."""
    name = f"empty{os.getpid()}_{time.monotonic_ns() % 10**6}"
    postgres.execute(f'CREATE DATABASE "{name}"')
    try:
        site = Site(tmp_path, smtp_in=False, database=postgres.url(name))
        r = site.cli("check")
        assert r.returncode == 0, r.stdout
        assert "empty; `mailref serve` or a changing command creates the tables" in r.stdout
        site.create_game("nomes", "sidekick", "nomes@ref.example")
        r = site.cli("check")
        assert r.returncode == 0 and "opens and is writable, schema" in r.stdout, r.stdout
    finally:
        postgres.drop(name)


def test_systemd_accepts_the_unit(tmp_path):
    """`systemd-analyze verify` on mailref.service as installed (ExecStart pointing at this
    checkout's mailref): a misspelt directive would only show on the operator's machine."""
    import shutil

    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed (a machine without systemd)")
    unit = (Path(__file__).parents[2] / "mailref.service").read_text()
    assert "ExecStart=/opt/mailref/.venv/bin/mailref serve" in unit
    here = Path(sys.executable).parent / "mailref"
    (tmp_path / "mailref.service").write_text(
        unit.replace("/opt/mailref/.venv/bin/mailref", str(here))
    )
    r = subprocess.run(
        [analyze, "verify", str(tmp_path / "mailref.service")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 0 and "mailref.service" not in r.stderr, r.stderr


def test_the_log_line_of_a_status_request_ends_in_its_verdict_not_an_empty_one(tmp_path):
    site = Site(tmp_path)
    site.create_game("nomes", "sidekick", "nomes@ref.example")
    assert site.cli_in_process("player", "add", "nomes", "Alice", "alice@x.org").returncode == 0
    with site.serve() as daemon:
        with smtplib.SMTP("127.0.0.1", site.smtp_port, timeout=30) as s:
            s.sendmail(
                "alice@x.org",
                ["nomes@ref.example"],
                b"From: alice@x.org\r\nTo: nomes@ref.example\r\nSubject: [Status]\r\n\r\nwhere "
                b"are we?\r\n",
            )
        line = wait_for(lambda: [x for x in daemon.stderr().splitlines() if "tag=status" in x], 30)
    assert line and line[0].split("tag=status: ")[1].startswith("processed: ok ("), line
    rows = json.loads(site.cli("mail", "list", "--json").stdout)
    assert rows[0]["verdict"] == "ok"


@pytest.mark.parametrize(
    "args",
    [
        ("player", "add", "nomes", "Alice", "alice@x.org"),
        ("digest", "nomes"),
        ("score", "nomes", "Alice", "+1"),
        ("outbox", "retry"),
        ("mail", "reprocess", "3"),
    ],
)
def test_a_command_in_the_wrong_folder_makes_no_stray_database(tmp_path, args):
    """Run where there is no database, a changing command made one, said so, and then refused
    ("there is no game 'nomes'"): the operator was in the wrong folder, and now had two."""
    site = Site(tmp_path, smtp_in=False)
    r = site.cli(*args)
    assert (
        r.returncode == 1
        and f"no database at {site.db}" in r.stderr
        and "`mailref game create`" in r.stderr
    ), r.stderr
    assert not site.db.exists() and "created" not in r.stderr


def test_every_store_fault_the_daemon_says_it_also_says_is_over(tmp_path):
    """A lock held by another process for a few seconds: "reading deadlines: the database is
    locked" was said, and never that it worked again (processing and the outbox did say so)."""
    site = Site(tmp_path)
    site.create_game("nomes", "sidekick", "nomes@ref.example")
    with site.serve(MAILREF_LOCK_WAIT="0.5") as daemon:
        locker = sqlite3.connect(site.db, isolation_level=None)
        locker.execute("BEGIN EXCLUSIVE")
        try:
            assert wait_for(
                lambda: "the database is locked" in daemon.stderr(), 20
            ), daemon.stderr()
            time.sleep(2)  # every part of the daemon has met the lock by now
        finally:
            locker.execute("ROLLBACK")
            locker.close()
        # Each part of the daemon says so when it next runs, each on its own schedule.
        assert wait_for(lambda: ": working again" in daemon.stderr(), 20), daemon.stderr()
        assert wait_for(lambda: not faults_not_over(daemon.stderr()), 30), daemon.stderr()
    log = daemon.stderr()
    assert faults_not_over(log) == [], log


def faults_not_over(log: str) -> list[str]:
    """The store faults LOG says (ERROR lines) and never says are over ("...: working again")."""
    # "... INFO mailref.outbox: outbox: cannot claim rows to send: working again" -> that fault's
    # name
    again = [
        x.split(": ", 1)[1].removesuffix(": working again")
        for x in log.splitlines()
        if x.endswith(": working again")
    ]
    # "reading deadlines: the database is locked ..."
    said = [x.split(": ", 1)[1] for x in log.splitlines() if " ERROR " in x]
    return [s for s in said if not any(s.startswith(what + ": ") for what in again)]


def test_a_daemon_that_no_mail_can_reach_says_so(tmp_path):
    """Without [smtp_in] and [imap] the daemon ran, ready, with no way for mail to come in,
    and only "no smtp listener, no imap" in its start line to tell."""
    site = Site(tmp_path, smtp_in=False)
    with site.serve() as daemon:
        pass
    assert (
        "WARNING mailref: no mail can come in: the configuration has neither [smtp_in] nor [imap]"
        in daemon.stderr()
    )
    (tmp_path / "b").mkdir()  # short: the notify socket's path must fit AF_UNIX's 108 bytes
    site = Site(tmp_path / "b")
    with site.serve() as daemon:
        pass
    assert "no mail can come in" not in daemon.stderr()


def test_outbox_retry_sends_every_waiting_row_and_says_what_is_left(tmp_path):
    """`mailref outbox retry` sent one batch (50) and said "0 delivered now, 50 still failing"
    of 66 waiting: the rest was never mentioned, and with the relay back only 50 went."""
    from support.ops import CountingSink

    sink = CountingSink()  # not started yet: the relay is down
    site = Site(tmp_path, smtp_in=False, relay_port=sink.port)
    site.create_game("nomes", "sidekick", "nomes@ref.example")
    for i in range(12):  # each newcomer is announced to everyone: 1 + 2 + ... + 11 rows
        assert site.cli_in_process("player", "add", "nomes", f"P{i}", f"p{i}@x.org").returncode == 0
    waiting = len(
        json.loads(
            site.cli("outbox", "list", "--status", "queued", "--limit", "1000", "--json").stdout
        )
    )
    assert waiting > 50

    r = site.cli("outbox", "retry")
    assert r.returncode == 0 and r.stdout.strip() == (
        f"{waiting} queued for retry; 0 delivered now; 50 failed again and wait for their next "
        "attempt "
        f"(with back-off); {waiting - 50} left for the daemon"
    ), r.stdout
    assert "unreachable" in r.stderr

    with sink:
        r = site.cli("outbox", "retry")
        assert (
            r.returncode == 0
            and r.stdout.strip() == f"{waiting} queued for retry; {waiting} delivered now"
        ), r.stdout
        ids = sink.message_ids()
    assert len(ids) == waiting and set(ids.values()) == {1}


def test_log_lines_a_newer_version_adds_are_set_apart_but_a_missing_one_still_differs():
    """BlogNomic now says when Dormancy ends: the journal of a game an older mailref kept,
    replayed today, has that line more (the upgrade test's database); a live line the replay
    lacks is a real difference."""
    from mailref.engine.upgraded import set_apart

    live = {
        "events": [
            {"at": "t1", "text": "Ann joined."},
            {"at": "t2", "text": "Eve joined."},
            {"at": "t3", "text": "Ann proposed 1."},
        ]
    }
    rebuilt = {
        "dormant": False,
        "events": [
            {"at": "t1", "text": "Ann joined."},
            {"at": "t2", "text": "Eve joined."},
            {"at": "t2", "text": "BlogNomic is no longer Dormant."},
            {"at": "t3", "text": "Ann proposed 1."},
        ],
    }
    same, notes = set_apart(live, rebuilt)
    assert same == live and notes == ["dormant added (1)", "1 log line(s) this version adds"]
    lacking = {
        "events": [rebuilt["events"][0], rebuilt["events"][2]]
    }  # "Eve joined." is not replayed
    differs, _ = set_apart(live, lacking)
    assert differs != live
