"""What an operator met running mailref (session 6): each test does what they did, as they
did it (the CLI and `mailref serve` as processes, a real SMTP session), and checks the answer
is one clear line, the right exit status, and nothing lost."""

from __future__ import annotations

import os
import signal
import smtplib
import subprocess
import time

import pytest
from ops import Site

from helpers import maildir_mails, wait_for


@pytest.mark.parametrize("url, says", [
    ("postgresql://mailref@127.0.0.1:1/mailref", 'needs the Python module psycopg2, which is not installed: '
                                                 'write "postgresql+psycopg://..."'),
    ("postgres://mailref@127.0.0.1/mailref", 'is written "postgresql+psycopg://..."'),
    ("mysql://mailref@127.0.0.1/mailref", "needs the Python module MySQLdb"),
    ("foo://x", "names the database kind 'foo', unknown to SQLAlchemy"),
    ("var/mailref.sqlite3", "is not a database URL like"),
])
@pytest.mark.parametrize("command", [["serve"], ["check"], ["game", "list"]])
def test_a_database_url_mailref_cannot_open_is_one_line_naming_file_and_key(tmp_path, url, says, command):
    """Was a traceback from SQLAlchemy ("No module named 'psycopg2'", "Could not parse
    SQLAlchemy URL") from every command, `mailref serve` included (SPEC §1.3, §7)."""
    site = Site(tmp_path, smtp_in=False)
    site.config.write_text(site.config.read_text().replace('database = "sqlite:///var/mailref.sqlite3"',
                                                           f'database = "{url}"'))
    r = site.cli(*command, timeout=30)
    assert r.returncode == 1, (r.stdout, r.stderr)
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert f"{site.config}: [daemon] database:" in r.stderr and says in r.stderr, r.stderr


def test_a_port_out_of_range_names_its_table(tmp_path):
    site = Site(tmp_path, smtp_in=False, extra='[smtp_out]\nhost = "127.0.0.1"\nport = 70000\n')
    r = site.cli("serve", timeout=30)
    assert r.returncode == 1 and f"{site.config}: [smtp_out] port: 70000 is out of range" in r.stderr, r.stderr


def test_sighup_leaves_the_service_running_and_says_there_is_no_reload(tmp_path):
    """`kill -HUP` (the usual "reload") killed the daemon without a line: no reload, no
    log, and under systemd a restart only because the unit says Restart=on-failure."""
    site = Site(tmp_path)
    with site.serve() as daemon:
        for pid in [daemon.proc.pid, *children(daemon.proc.pid)]:  # as `systemctl kill -s HUP` does
            os.kill(pid, signal.SIGHUP)
        time.sleep(1.5)
        assert daemon.proc.poll() is None, daemon.stderr()
        assert "SIGHUP: mailref has no reload and keeps running" in daemon.stderr()
        assert "systemctl restart mailref" in daemon.stderr()
        with smtplib.SMTP("127.0.0.1", site.smtp_port, timeout=30) as s:  # the listener lives too
            s.sendmail("you@example.org", ["referee@ref.example"], b"From: you@example.org\r\nSubject: [Help]\r\n\r\nhi\r\n")
        assert wait_for(lambda: any(m["X-Mailref-Kind"] == "help" for m in maildir_mails(tmp_path)), 30), daemon.stderr()
    assert daemon.proc.returncode == 0


def children(pid: int) -> list[int]:
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True).stdout
    return [int(x) for x in out.split()]
