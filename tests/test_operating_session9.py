"""Operating, session 9: a new operator's host, played from outside (the CLI and `mailref serve`
as processes, real SMTP, real files, signals as systemd sends them: to every process of the
unit)."""

from __future__ import annotations

import json
import os
import signal
import smtplib
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from browser import Browser, chromium_binary
from ops import CountingSink, Site

from helpers import mail, make_referee, wait_for
from mailref.config import SiteConfig
from mailref.site import rebuild

G = "nomes@ref.example"


def serve(site: Site, log: Path, **env: str) -> subprocess.Popen:
    """`mailref serve` in a session of its own, so the test signals it as systemd does: the whole group."""
    with open(log, "wb") as f:
        return subprocess.Popen([sys.executable, "-m", "mailref", "serve"], cwd=site.root, env=site.env(**env),
                                stdout=subprocess.DEVNULL, stderr=f, start_new_session=True)


def has_open(pid: int, suffix: str) -> bool:
    try:
        return any(os.readlink(f"/proc/{pid}/fd/{fd}").endswith(suffix) for fd in os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return False


def children(pid: int) -> list[int]:
    try:
        return [int(c) for t in os.listdir(f"/proc/{pid}/task")
                for c in Path(f"/proc/{pid}/task/{t}/children").read_text().split()]
    except OSError:
        return []


def listener_child(pid: int) -> int | None:
    for c in children(pid):
        try:
            if b"spawn_main" in Path(f"/proc/{c}/cmdline").read_bytes():
                return c
        except OSError:
            pass
    return None


def test_a_sigterm_while_the_daemon_opens_its_database_stops_it_cleanly(tmp_path):
    """The daemon caught SIGTERM only once its event loop ran, a second or more after the start:
    a SIGTERM before (a restart right after a start; the chaos test stopping a daemon it had
    just restarted) killed it outright, exit -15. Here the database is held locked by another
    process, so the daemon waits at start-up with its database open; the SIGTERM comes then."""
    site = Site(tmp_path)
    assert site.cli("game", "create", "nomes", "--variant", "sidekick", "--address", G).returncode == 0
    holder = sqlite3.connect(site.db, isolation_level=None)
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    holder.execute("SELECT count(*) FROM sqlite_master").fetchall()
    proc = serve(site, tmp_path / "serve.log")
    try:
        assert wait_for(lambda: has_open(proc.pid, "mailref.sqlite3"), 60), (tmp_path / "serve.log").read_text()
        os.killpg(proc.pid, signal.SIGTERM)
        time.sleep(0.2)  # the signal is in before the database frees up
    finally:
        holder.close()
    rc = proc.wait(60)
    log = (tmp_path / "serve.log").read_text()
    assert rc == 0, log
    assert "mailref stopping" in log and "Traceback" not in log, log


def test_a_sigterm_while_the_listener_process_starts_stops_the_daemon_cleanly(tmp_path):
    """systemd signals every process of the unit. The SMTP listener's process ignored SIGTERM
    (the daemon stops it in order) only once it had imported mailref: a SIGTERM in its first
    moments killed it, and the daemon ended with "SMTP listener: cannot listen on ...: its
    process ended at start (exit code -15)", exit 1, as if the port were the trouble."""
    site = Site(tmp_path)
    assert site.cli("game", "create", "nomes", "--variant", "sidekick", "--address", G).returncode == 0
    for run in range(3):
        log = tmp_path / f"serve{run}.log"
        proc = serve(site, log)
        end = time.monotonic() + 60
        while listener_child(proc.pid) is None and time.monotonic() < end:  # as soon as it is born
            time.sleep(0.002)
        os.killpg(proc.pid, signal.SIGTERM)
        rc = proc.wait(60)
        assert rc == 0, log.read_text()
        assert "cannot listen" not in log.read_text(), log.read_text()


def test_a_sigterm_mid_delivery_finishes_the_round_and_sends_each_reply_once(tmp_path):
    """SIGTERM while the relay holds a reply's DATA (delivery runs beside processing since
    session 8): the daemon waits for the round in hand, marks what the relay took, and exits 0;
    the next start sends the rest, each reply once."""
    release = threading.Event()
    held = threading.Event()

    def hold(envelope) -> None:
        if not held.is_set():
            held.set()
            release.wait(30)

    with CountingSink(on_data=hold) as sink:
        site = Site(tmp_path, relay_port=sink.port)
        assert site.cli("game", "create", "nomes", "--variant", "sidekick", "--address", G).returncode == 0
        with site.serve() as daemon:
            with smtplib.SMTP("127.0.0.1", site.smtp_port, timeout=30) as s:
                for i in range(20):
                    s.sendmail(f"s{i}@example.org", [G], f"From: s{i}@example.org\r\nTo: {G}\r\nSubject: [Help]\r\nMessage-ID: <h{i}@x>\r\n\r\nhi\r\n".encode())
            assert held.wait(60), daemon.stderr()
            daemon.proc.send_signal(signal.SIGTERM)
            time.sleep(0.3)
            release.set()
            assert daemon.stop() == 0, daemon.stderr()
        with site.serve():
            assert wait_for(lambda: len(set(sink.message_ids())) >= 20, 60)
        counts = sink.message_ids()
        assert all(n == 1 for n in counts.values()), counts


def test_a_sigterm_during_the_backlog_at_start_does_not_wait_for_all_of_it(tmp_path):
    """Mail stored while the daemon was down is processed at start, a batch at a time. A SIGTERM
    then waited until the whole backlog was answered (thousands of mails: minutes, past
    systemd's TimeoutStopSec, then a SIGKILL); README says SIGTERM finishes the batch in hand.
    Now the daemon stops after the batch in hand (and the one more its stop takes), and the next
    start answers the rest, each mail once."""
    from mailref.config import load
    from mailref.referee import Referee
    from mailref.store import InboxMessage

    stop_sent = threading.Event()
    daemon_pid: list[int] = []

    def first_reply_stops_the_daemon(envelope) -> None:
        if not stop_sent.is_set() and daemon_pid:
            stop_sent.set()
            os.kill(daemon_pid[0], signal.SIGTERM)

    n = 1200
    with CountingSink(on_data=first_reply_stops_the_daemon) as sink:
        site = Site(tmp_path, relay_port=sink.port)
        assert site.cli("game", "create", "nomes", "--variant", "sidekick", "--address", G).returncode == 0
        referee = Referee.from_config(load(site.config))
        referee.receive_many([(f"From: s{i}@example.org\r\nTo: {G}\r\nSubject: [Help]\r\nMessage-ID: <b{i}@x>\r\n"
                               f"\r\nhi\r\n".encode(), "smtp", f"s{i}@example.org", [G]) for i in range(n)])

        def waiting() -> int:
            with referee.store() as s:
                return s.query(InboxMessage).filter(InboxMessage.status == "new").count()

        log = tmp_path / "serve.log"
        proc = serve(site, log)
        daemon_pid.append(proc.pid)
        rc = proc.wait(120)
        assert rc == 0 and stop_sent.is_set(), log.read_text()
        assert waiting() > 0, "the daemon answered the whole backlog before it stopped"
        with site.serve():
            assert wait_for(lambda: waiting() == 0 and len(sink.message_ids()) >= n, 120)
        counts = sink.message_ids()
        assert len(counts) == n and all(c == 1 for c in counts.values()), len(counts)
        referee.store.dispose()


def test_a_new_database_is_readable_by_mailref_only(tmp_path):
    """The first `mailref game create` of README's step 2 runs in the operator's shell (umask
    022) before the service ever starts: the database, with every player's address, came out
    0644, readable by every user of the host (the unit's UMask=0027 says it must not be). Now a
    database mailref creates is 0640 whatever the umask, and its -wal and -shm follow it."""
    site = Site(tmp_path)
    r = site.cli("game", "create", "nomes", "--variant", "sidekick", "--address", G)
    assert r.returncode == 0, r.stderr
    assert site.db.stat().st_mode & 0o777 == 0o640
    assert site.cli("player", "add", "nomes", "Alice", "alice@example.org").returncode == 0
    for companion in ("-wal", "-shm"):
        f = site.db.with_name(site.db.name + companion)
        assert not f.exists() or f.stat().st_mode & 0o007 == 0, (companion, oct(f.stat().st_mode))
    (tmp_path / "served").mkdir()
    other = Site(tmp_path / "served")
    with other.serve() as daemon:
        pass
    assert other.db.stat().st_mode & 0o007 == 0
    log = daemon.stderr()
    assert "alembic" not in log and "created a new database" in log, log  # one line, not seven


def test_init_elsewhere_and_embedded_defaults_say_which_file_commands_read(tmp_path):
    """README step 1 writes /etc/mailref/mailref.toml, then `mailref check` and step 2's
    `mailref game create`: in a shell without MAILREF_CONFIG both read the embedded defaults,
    and the game was made in ./var of whatever folder the operator stood in, where the service
    never looks; `check` said only "configuration: embedded defaults"."""
    here = tmp_path / "cwd"
    here.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("MAILREF_CONFIG", "NOTIFY_SOCKET")}
    run = lambda *a: subprocess.run([sys.executable, "-m", "mailref", *a], cwd=here, env=env,  # noqa: E731
                                    capture_output=True, text=True, timeout=60)
    r = run("init", str(tmp_path / "conf"))
    assert r.returncode == 0, r.stderr
    path = tmp_path / "conf" / "mailref.toml"
    assert f"--config {path}" in r.stdout and f"MAILREF_CONFIG={path}" in r.stdout, r.stdout
    r = run("check")
    assert "no --config, no $MAILREF_CONFIG, no ./mailref.toml" in r.stdout, r.stdout
    r = run("game", "create", "nomes", "--variant", "sidekick", "--address", G)
    assert r.returncode == 0 and "no --config, no $MAILREF_CONFIG" in r.stderr, r.stderr
    r = run("init")  # in the folder itself: commands find ./mailref.toml, nothing more to say
    assert r.returncode == 0 and r.stdout.strip() == "wrote mailref.toml", r.stdout


@pytest.fixture(scope="module")
def browser():
    binary = chromium_binary()
    if binary is None:
        pytest.skip("chromium is not installed (scripts/setup --test installs it)")
    b = Browser(binary)
    yield b
    b.close()


LEFT_OF = """(names => {
  const p = [...document.querySelectorAll('p')].find(p => p.textContent.startsWith('Turn order:'));
  const walker = document.createTreeWalker(p, NodeFilter.SHOW_TEXT);
  const at = {};
  for (let n = walker.nextNode(); n; n = walker.nextNode())
    for (const name of names) {
      const i = n.textContent.indexOf(name);
      if (i >= 0) { const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + name.length);
                    at[name] = r.getBoundingClientRect().left; }
    }
  return at;
})"""


def test_a_turn_order_of_right_to_left_names_reads_in_turn_order(tmp_path, clock, browser):
    """Names are shown as written, and a list of them in the order it has: "Turn order: A → B → C"
    with Hebrew and Arabic names next to each other was laid out as one right-to-left run (the
    arrows between them are neutral), so a reader saw the turn order reversed. Each name is now
    isolated (<bdi>); the page's line reads left to right in turn order."""
    referee = make_referee(tmp_path, clock)
    referee.create_game("nomes", "sidekick", G)
    for i, name in enumerate(["עליזה", "محمد", "דוד", "Zoë"]):
        referee.accept(mail(f"p{i}@players.example", G, "[Join]", f"Name: {name}"))
    order = referee.state("nomes")["order"]
    assert rebuild(referee.store, SiteConfig(tmp_path / "site")) == ["nomes"]
    page = browser.open(tmp_path / "site" / "nomes" / "index.html")
    assert "Turn order: " + " → ".join(order) in page.text
    left = browser.evaluate(LEFT_OF + "(" + json.dumps(order) + ")")
    assert sorted(order, key=left.get) == order, (order, left)


class Refusing:
    """A relay that knows no such user."""

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        return "550 5.1.1 no such user here"


def test_the_journal_says_what_to_do_about_a_quarantined_mail_and_a_refused_reply(referee, caplog):
    """Two lines an operator meets in the journal: "message #5 failed" with a traceback (kept?
    who was told? how to retry?) and "outbox #3 to x failed for good: 550 ..." (and now?). Each
    now says what happened and the command that acts on it."""
    import logging

    from aiosmtpd.controller import Controller

    from dovecot import free_port
    from mailref.config import SmtpOut
    from mailref.handlers import REGISTRY
    from mailref.mail.outbox import Deliverer

    referee.create_game("nomes", "sidekick", G, gm="gm@ref.example")
    referee.accept(mail("alice@x.org", G, "[Join]", "Name: Alice"))
    route = REGISTRY["status"]
    original, route.fn = route.fn, lambda env, view: 1 / 0  # a bug in a handler
    try:
        with caplog.at_level(logging.INFO, logger="mailref"):
            stored = referee.accept(mail("alice@x.org", G, "[Status]"))
    finally:
        route.fn = original
    said = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
    assert len(said) == 1 and f"message #{stored.id} from alice@x.org quarantined" in said[0], said
    assert "ZeroDivisionError" in said[0] and f"mailref mail reprocess {stored.id}" in said[0], said

    ctl = Controller(Refusing(), hostname="127.0.0.1", port=free_port())
    ctl.start()
    caplog.clear()
    try:
        d = Deliverer(referee.store, "referee@ref.example", SmtpOut(host="127.0.0.1", port=ctl.port), "unused",
                      "gm@ref.example")
        with caplog.at_level(logging.INFO, logger="mailref"):
            d.deliver(referee.clock())
    finally:
        ctl.stop()
    failed = [r.getMessage() for r in caplog.records if "failed for good" in r.getMessage()]
    assert failed and all("550 5.1.1" in line and "`mailref outbox retry " in line for line in failed), failed


CAP_NET_BIND_SERVICE, PR_CAPBSET_DROP = 10, 24


def without_low_ports() -> None:
    """In the child, before exec: as the unit's empty CapabilityBoundingSet leaves the daemon."""
    import ctypes

    if os.geteuid() == 0 and ctypes.CDLL(None, use_errno=True).prctl(PR_CAPBSET_DROP, CAP_NET_BIND_SERVICE, 0, 0, 0):
        raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def free_low_port() -> int:
    import socket

    for port in range(1023, 900, -1):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
                return port
            except OSError:
                continue
    pytest.skip("no free port below 1024")


def test_a_port_below_1024_without_the_capability_says_how_to_grant_it(tmp_path):
    """`[smtp_in] port = 25` under the unit (CapabilityBoundingSet= empty): the daemon ended
    "cannot listen on 127.0.0.1:25: permission denied" and `check` said the same, leaving the
    operator to work out why. Both now name the capability and the unit's keys."""
    if os.geteuid() != 0:
        pytest.skip("needs root to drop a capability")
    site = Site(tmp_path)
    port = free_low_port()
    site.config.write_text(site.config.read_text().replace(f"port = {site.smtp_port}", f"port = {port}"))
    r = subprocess.run([sys.executable, "-m", "mailref", "check"], cwd=site.root, env=site.env(), capture_output=True,
                       text=True, timeout=60, preexec_fn=without_low_ports)
    line = next(x for x in r.stdout.splitlines() if "SMTP listener" in x)
    assert line.startswith("FAIL") and "CAP_NET_BIND_SERVICE" in line and "AmbientCapabilities" in line, r.stdout
    proc = subprocess.run([sys.executable, "-m", "mailref", "serve"], cwd=site.root, env=site.env(), capture_output=True,
                          text=True, timeout=60, preexec_fn=without_low_ports)
    assert proc.returncode == 1 and "permission denied" in proc.stderr, proc.stderr
    assert "AmbientCapabilities=CAP_NET_BIND_SERVICE" in proc.stderr.splitlines()[-1], proc.stderr


def test_a_long_ruleset_opens_with_contents_linking_to_each_rule(tmp_path, clock, browser):
    """BlogNomic's ruleset is some forty rules: on a phone one long scroll, with no way to rule
    2.14 but scrolling. rules.html now opens with a contents list, a link to each rule."""
    referee = make_referee(tmp_path, clock)
    referee.create_game("blog", "blognomic", "blog@ref.example")
    rules = referee.state("blog")["rules"]
    assert rebuild(referee.store, SiteConfig(tmp_path / "site")) == ["blog"]
    browser.open(tmp_path / "site" / "blog" / "rules.html")
    toc = browser.evaluate("""[...document.querySelectorAll('nav.toc a')].map(a => [a.textContent,
        !!document.getElementById(a.getAttribute('href').slice(1))])""")
    assert len(toc) == browser.evaluate("document.querySelectorAll('main > section.rule').length") > 5, toc
    assert all(found for _, found in toc), [t for t, found in toc if not found]
    assert toc[0][0].startswith(f"{rules[0]['number']}. {rules[0]['title']}"), toc[0]


def test_a_sigterm_with_many_replies_queued_for_a_slow_relay_stops_without_draining_them(tmp_path):
    """The stop delivered until the outbox was empty: with hundreds of rows queued for a slow
    relay (one just back after an outage) a SIGTERM took minutes, past the unit's
    TimeoutStopSec, and systemd's SIGKILL then left rows claimed for the lease's 10 minutes. The
    stop now delivers for STOP_DELIVERY seconds at most; the rest goes at the next start, once."""
    from mailref.config import load
    from mailref.referee import Referee
    from mailref.store import OutboxMessage

    stop_sent = threading.Event()
    daemon_pid: list[int] = []

    def first_reply_stops_the_daemon(envelope) -> None:
        if not stop_sent.is_set() and daemon_pid:
            stop_sent.set()
            os.kill(daemon_pid[0], signal.SIGTERM)

    n = 400
    with CountingSink(delay=0.05, on_data=first_reply_stops_the_daemon) as sink:
        site = Site(tmp_path, relay_port=sink.port)
        assert site.cli("game", "create", "nomes", "--variant", "sidekick", "--address", G).returncode == 0
        referee = Referee.from_config(load(site.config))
        referee.receive_many([(f"From: s{i}@example.org\r\nTo: {G}\r\nSubject: [Help]\r\nMessage-ID: <q{i}@x>\r\n"
                               f"\r\nhi\r\n".encode(), "smtp", f"s{i}@example.org", [G]) for i in range(n)])
        assert referee.process_pending() == n  # n replies queued while no daemon runs

        def queued() -> int:
            with referee.store() as s:
                return s.query(OutboxMessage).filter(OutboxMessage.status != "sent").count()

        log = tmp_path / "serve.log"
        proc = serve(site, log)
        daemon_pid.append(proc.pid)
        rc = proc.wait(120)
        assert rc == 0 and stop_sent.is_set(), log.read_text()
        assert queued() > 0, "the stop delivered every queued reply first"
        with site.serve():
            assert wait_for(lambda: queued() == 0, 120)
        counts = sink.message_ids()
        assert len(counts) == n and all(c == 1 for c in counts.values()), len(counts)
        referee.store.dispose()


def test_a_blognomic_page_says_the_quorum(tmp_path, clock, browser):
    """BlogNomic decides every matter by quorum (half the active Wizards, plus one); its page
    showed votes but never the number they are counted against."""
    referee = make_referee(tmp_path, clock)
    referee.create_game("blog", "blognomic", "blog@ref.example")
    for i, name in enumerate(["Alice", "Bob", "Carol", "Dave", "Erin"]):
        referee.accept(mail(f"p{i}@players.example", "blog@ref.example", "[Join]", f"Name: {name}"))
    assert rebuild(referee.store, SiteConfig(tmp_path / "site")) == ["blog"]
    page = browser.open(tmp_path / "site" / "blog" / "index.html")
    assert "quorum 3" in page.text, page.text


def test_a_sqlite_url_with_driver_options_makes_no_stray_file(tmp_path):
    """`sqlite:///var/db.sqlite3?timeout=20` (SQLAlchemy passes the query to the driver): the
    store took the whole text for the file's name, and made `db.sqlite3?timeout=20` beside it."""
    from mailref.store import open_store

    open_store(f"sqlite:///{tmp_path}/db.sqlite3?timeout=20").dispose()
    assert sorted(p.name for p in tmp_path.iterdir() if "?" in p.name) == []
    assert (tmp_path / "db.sqlite3").stat().st_mode & 0o777 == 0o640
