"""Operating, session 8: what a new operator met on a real host, played from outside (the CLI
and `mailref serve` as processes, real SMTP, real files)."""

from __future__ import annotations

import json
import re
import smtplib
import time

import pytest
from ops import Site

from helpers import wait_for


def send(site: Site, frm: str, to: str, subject: str, body: str = "", mid: str = "") -> None:
    msg = f"From: {frm}\r\nTo: {to}\r\nSubject: {subject}\r\n" + (f"Message-ID: <{mid}>\r\n" if mid else "") + \
        f"\r\n{body}\r\n"
    with smtplib.SMTP("127.0.0.1", site.smtp_port, timeout=30) as s:
        s.sendmail(frm, [to], msg.encode())


def test_a_site_folder_that_cannot_be_written_is_one_line_at_start_and_the_pages_catch_up(tmp_path):
    """`[site] dir` under a path mailref cannot write (here a file where a folder should be,
    as a typo or another user's folder would): the daemon started silently, then logged a
    traceback for every mail ("site: rebuilding the pages of nomes failed ... PermissionError"),
    and `game create`/`site build` printed tracebacks. Now: one line at start naming the key,
    none per mail, one when it works again, and every game's pages written then."""
    (tmp_path / "var").mkdir()
    blocker = tmp_path / "var" / "www"
    blocker.write_text("not a folder")
    site = Site(tmp_path, extra='[site]\ndir = "var/www/site"\n')
    r = site.cli("check")
    assert r.returncode == 1, r.stdout
    line = [x for x in r.stdout.splitlines() if x.split()[1] == "site"]
    assert len(line) == 1 and line[0].startswith("FAIL") and "not a directory" in line[0], r.stdout

    r = site.cli("game", "create", "nomes", "--variant", "sidekick", "--address", "nomes@ref.example")
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert "cannot write the pages in" in r.stderr and "[site] dir" in r.stderr, r.stderr
    r = site.cli("game", "create", "eire", "--variant", "eire", "--address", "eire@ref.example")
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    r = site.cli("site", "build")
    assert r.returncode == 1 and len(r.stderr.splitlines()) == 1 and "[site] dir" in r.stderr, r.stderr

    with site.serve() as daemon:
        said = daemon.stderr()
        assert said.count("cannot write the pages in") == 1 and "[site] dir" in said, said
        for i, name in enumerate(["Alice", "Bob", "Carol"]):
            send(site, f"{name.lower()}@example.org", "nomes@ref.example", "[Join]", f"Name: {name}", f"j{i}@x")
        assert wait_for(lambda: daemon.stderr().count("joined") == 3, 30), daemon.stderr()
        blocker.unlink()  # the operator fixes it
        send(site, "dave@example.org", "nomes@ref.example", "[Join]", "Name: Dave", "j4@x")
        assert wait_for(lambda: "writing the pages in" in daemon.stderr(), 30), daemon.stderr()
        root = tmp_path / "var" / "www" / "site"
        assert wait_for(lambda: (root / "eire" / "index.html").exists(), 30), daemon.stderr()
    log = daemon.stderr()
    assert "Traceback" not in log and log.count("cannot write the pages in") == 1, log
    assert "Dave" in (root / "nomes" / "index.html").read_text()
    assert "nomes" in (root / "index.html").read_text() and "eire" in (root / "index.html").read_text()


class PickyRelay:
    """An SMTP relay as an operator's provider runs it: a login required before MAIL (530), or
    no relaying for this host without one (554 5.7.1 at RCPT, Postfix's words)."""

    def __init__(self, wants: str):
        from aiosmtpd.controller import Controller
        from aiosmtpd.smtp import AuthResult

        from dovecot import free_port

        self.wants, self.mails = wants, []
        ok = lambda server, session, envelope, mechanism, data: AuthResult(  # noqa: E731
            success=data.login == b"mailref" and data.password == b"s3cret")
        self.controller = Controller(self, hostname="127.0.0.1", port=free_port(), authenticator=ok,
                                     auth_required=wants == "login", auth_require_tls=False)
        self.port = self.controller.port

    async def handle_RCPT(self, server, session, envelope, address, options):
        if self.wants == "relaying" and not session.authenticated:
            return f"554 5.7.1 <{address}>: Relay access denied"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.mails.append(envelope.content)
        return "250 OK"


@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")
@pytest.mark.parametrize("wants", ["login", "relaying"])
def test_a_relay_wanting_a_login_it_was_not_given_keeps_the_mail_waiting_and_says_which_keys(tmp_path, wants):
    """A relay that needs AUTH (or relays only for logged-in clients) with no [smtp_out]
    username: every reply and announcement "failed for good: relay said 530 5.7.0
    Authentication required", one WARNING per row, and `mailref check` said "EHLO ok". Now the
    check fails naming the keys, the mail waits (one line), and goes once the login is set."""
    relay = PickyRelay(wants)
    relay.controller.start()
    try:
        site = Site(tmp_path, relay_port=relay.port)
        r = site.cli("check")
        line = next(x for x in r.stdout.splitlines() if "SMTP relay" in x)
        assert r.returncode == 1 and line.startswith("FAIL") and "[smtp_out] username and password_file" in line, \
            r.stdout
        assert site.cli("game", "create", "nomes", "--variant", "sidekick", "--address", "nomes@ref.example",
                        "--gm", "gm@example.org").returncode == 0
        with site.serve() as daemon:
            for i, name in enumerate(["Alice", "Bob", "Carol"]):
                send(site, f"{name.lower()}@example.org", "nomes@ref.example", "[Join]", f"Name: {name}", f"j{i}@x")
            assert wait_for(lambda: daemon.stderr().count("joined") == 3, 30), daemon.stderr()
            assert wait_for(lambda: "outbox: mail not delivered" in daemon.stderr(), 30), daemon.stderr()
            time.sleep(1)
        log = daemon.stderr()
        assert "failed for good" not in log and log.count(" ERROR ") == 1 and " WARNING " not in log, log
        assert "[smtp_out] username and password_file" in log, log
        rows = json.loads(site.cli("outbox", "list", "--json").stdout)
        assert rows and {row["status"] for row in rows} == {"queued"}, rows

        (tmp_path / "relay.pass").write_text("s3cret\n")
        text = site.config.read_text().replace(
            f"port = {relay.port}\n", f'port = {relay.port}\nusername = "mailref"\npassword_file = "relay.pass"\n')
        site.config.write_text(text)
        r = site.cli("check")
        assert r.returncode == 0, r.stdout
        r = site.cli("outbox", "retry")
        assert r.returncode == 0 and f"{len(rows)} delivered now" in r.stdout, (r.stdout, r.stderr)
        assert len(relay.mails) == len(rows)
    finally:
        relay.controller.stop()


def test_a_backup_taken_while_the_daemon_answers_a_burst_restores_to_a_game_that_replays(tmp_path):
    """README had no word on backups; copying the SQLite file with cp while the daemon runs
    misses what sits in its -wal file. `mailref db backup FILE` takes one consistent snapshot
    while mail is being answered; restored (the file put back, the daemon started), the games
    replay and play on."""
    site = Site(tmp_path)
    assert site.cli("game", "create", "nomes", "--variant", "sidekick", "--address", "nomes@ref.example").returncode == 0
    backup = tmp_path / "nomes-backup.sqlite3"
    with site.serve() as daemon:
        for i in range(30):
            send(site, f"p{i}@example.org", "nomes@ref.example", "[Join]", f"Name: P{i}", f"b{i}@x")
            if i == 15:
                r = site.cli("db", "backup", str(backup))
                assert r.returncode == 0 and "game(s)" in r.stdout, r.stderr
                kept = int(re.search(r"(\d+) stored mail", r.stdout).group(1))
                assert kept >= 16, r.stdout  # every mail answered 250 before it
        assert wait_for(lambda: daemon.stderr().count("tag=join: processed: ok") == 30, 60), daemon.stderr()
        r = site.cli("db", "backup", str(backup))
        assert r.returncode == 1 and "exists" in r.stderr, r.stderr
    assert backup.stat().st_mode & 0o077 == 0  # players' addresses: the owner's only
    assert site.cli("db", "backup", str(tmp_path / "no" / "such" / "x")).returncode == 1

    restored = tmp_path / "r"  # short: the notify socket's path must fit AF_UNIX's 108 bytes
    restored.mkdir()
    other = Site(restored)
    other.db.parent.mkdir(parents=True)
    other.db.write_bytes(backup.read_bytes())
    r = other.cli("replay")
    assert r.returncode == 0 and "identical" in r.stdout and "DIFFERS" not in r.stdout, r.stdout + r.stderr
    with other.serve() as again:  # the mail the copy holds unanswered is answered now
        send(other, "late@example.org", "nomes@ref.example", "[Join]", "Name: Late", "late@x")
        assert wait_for(lambda: "Late joined" in again.stderr(), 60), again.stderr()
    players = json.loads(other.cli("game", "show", "nomes", "--json").stdout)["players"]
    assert len(players) == kept + 1, (kept, len(players))


def test_the_command_that_upgrades_an_older_database_says_so_once(tmp_path):
    """A newer mailref's first command (here `game list`, a read) upgraded an older database
    without a word, under an older daemon that may still be running on it (README "Upgrading")."""
    import sqlite3
    from pathlib import Path

    from mailref.store import newest_revision

    site = Site(tmp_path, smtp_in=False)
    site.db.parent.mkdir(parents=True)
    with sqlite3.connect(site.db) as c:
        c.executescript((Path(__file__).parent / "data" / "upgrade" / "schema-0001.sql").read_text())
        c.execute("DELETE FROM outbox")  # what the old version sent is not today's to check (test_operating)
    r = site.cli("game", "list")
    assert r.returncode == 0 and "bn" in r.stdout, r.stderr
    assert r.stderr.strip() == f"upgraded the database sqlite:///{site.db} from schema 0001 to {newest_revision()} " \
        "(an older mailref must not run on it now)", r.stderr
    r = site.cli("game", "list")
    assert r.returncode == 0 and r.stderr == "", r.stderr


def test_another_process_reading_the_database_leaves_the_running_daemon_alive(tmp_path):
    """A read-only reader beside the daemon (`sqlite3 -readonly`, a backup tool, a monitor)
    killed it with SIGBUS: reserving the WAL index's blocks (store/walindex.py) opened and
    closed the -shm file, which drops every POSIX lock the process holds on it, SQLite's
    among them; the reader then took itself for the first user, reset and truncated the index
    under the daemon. Now the daemon and its listener live on and answer."""
    import sqlite3

    site = Site(tmp_path)
    assert site.cli("game", "create", "nomes", "--variant", "sidekick", "--address", "nomes@ref.example").returncode == 0
    with site.serve() as daemon:
        send(site, "a@example.org", "nomes@ref.example", "[Help]", "", "h1@x")
        assert wait_for(lambda: "tag=help" in daemon.stderr(), 30), daemon.stderr()
        reader = sqlite3.connect(f"file:{site.db}?mode=ro", uri=True)
        assert reader.execute("SELECT count(*) FROM inbox").fetchone() == (1,)
        reader.close()
        assert site.cli("game", "list").returncode == 0
        send(site, "b@example.org", "nomes@ref.example", "[Help]", "", "h2@x")
        assert wait_for(lambda: daemon.stderr().count("tag=help") == 2, 30), daemon.stderr()
        assert daemon.proc.poll() is None


def test_an_imap_port_that_is_an_smtp_server_is_named_as_such(tmp_path):
    """[imap] port set to the SMTP port (2525/25/587: a mix-up an operator makes): `mailref check`
    said "unexpected response: b'220 ... ESMTP'"."""
    (tmp_path / "a").mkdir()
    smtp = Site(tmp_path / "a")
    with smtp.serve():
        (tmp_path / "b").mkdir()
        (tmp_path / "b" / "imap.pass").write_text("x\n")
        site = Site(tmp_path / "b", smtp_in=False, extra=f'[imap]\nhost = "127.0.0.1"\nport = {smtp.smtp_port}\n'
                    'ssl = false\nusername = "referee"\npassword_file = "imap.pass"\n')
        r = site.cli("check")
    line = next(x for x in r.stdout.splitlines() if x.split()[1] == "IMAP")
    assert r.returncode == 1 and f"port {smtp.smtp_port} is an SMTP server, not IMAP" in line, r.stdout
    assert "[imap] port" in line


def test_which_refusals_are_the_relay_refusing_this_host():
    """Only the relay's words for "log in first" or "no relaying" keep mail waiting; a verdict
    on the mail itself (a DMARC refusal relayed back) still fails it."""
    from mailref.config import SmtpOut
    from mailref.mail.relay_trouble import refuses_us

    relay = SmtpOut(host="relay.example", port=587)
    for code, said in [(530, "5.7.0 Authentication required"), (530, "5.7.57 Client not authenticated to send mail"),
                       (550, "5.7.1 Relaying denied. Proper authentication required"),
                       (554, "5.7.1 <x@y.org>: Relay access denied"), (550, "5.7.1 Unable to relay")]:
        assert refuses_us(code, said, relay), said
    for code, said in [(550, "5.7.26 Unauthenticated email from example.org is not accepted due to domain's DMARC policy"),
                       (550, "5.1.1 <x@y.org>: Recipient address rejected: User unknown"),
                       (552, "5.3.4 Message size exceeds fixed limit")]:
        assert refuses_us(code, said, relay) is None, said
