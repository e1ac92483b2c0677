"""Batches: stored mail is processed a batch per transaction (run again with a
savepoint per mail when one fails), so one failing mail is quarantined alone and a store fault
leaves the whole batch waiting; a batch is stored in one transaction with the usual dedupe; the SMTP
listener commits in a worker thread (a slow store holds up no other session, and 250 comes only
after the commit) and knows a game created a moment ago; the daemon processes what was stored before
a SIGKILL at each batch boundary, and on SIGTERM the mail it already answered 250, each mail
answered once."""

from __future__ import annotations

import json
import smtplib
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from sqlalchemy import select, text
from sqlalchemy.exc import OperationalError

from mailref import door
from mailref.mail.smtp import Listener
from mailref.store import InboxMessage, JournalEntry
from support.dovecot import free_port
from support.helpers import Outbox, mail, make_referee, process_all, wait_for
from support.helpers import maildir_mails as outbox_mails
from support.joining import confirm_waiting, join

pytestmark = pytest.mark.spec("2.1")

G = "nomes@ref.example"
H = "hex@ref.example"


def test_one_failing_mail_in_a_batch_is_quarantined_alone(referee):
    referee.create_game("nomes", "sidekick", G)
    from mailref.handlers import REGISTRY

    join(referee, "alice@x.org", G, "Alice")
    stored = referee.keep(
        [
            (mail("alice@x.org", G, "[Roll] d6"), "smtp", "", [G]),
            (mail("alice@x.org", G, "[Status]"), "smtp", "", [G]),
            (mail("bob@x.org", G, "[Join]", "Name: Bob"), "smtp", "", [G]),
        ]
    )
    route = REGISTRY["status"]
    original, route.fn = route.fn, lambda env, view: 1 / 0  # a bug in one handler
    try:
        statuses = referee.process([s.id for s in stored])
    finally:
        route.fn = original
    assert list(statuses.values()) == ["processed", "failed", "processed"]
    assert [p["name"] for p in referee.state("nomes")["players"]] == ["Alice"]
    kinds = sorted(
        (m["To"], m["X-Mailref-Kind"])
        for m in Outbox(referee).all()
        if m["X-Mailref-Kind"] in ("ack", "alert", "confirm")
    )
    assert kinds == [
        ("alice@x.org", "ack"),  # her join's, before the batch
        ("alice@x.org", "ack"),  # her roll's
        ("alice@x.org", "confirm"),
        ("bob@x.org", "confirm"),
        ("gm@ref.example", "alert"),
    ]
    with referee.store() as s:
        bad = s.get(InboxMessage, stored[1].id)
        assert "ZeroDivisionError" in bad.error and bad.attempts == 1 and bad.lease_until is None
    with (
        referee.store() as s
    ):  # the first run, without savepoints, left nothing behind: no gap, nothing twice
        assert s.scalars(text("SELECT seq FROM journal ORDER BY seq")).all() == [1, 2, 3, 4]
    queued = len(Outbox(referee).all())
    assert referee.process([s.id for s in stored]) == statuses  # nothing twice
    assert len(Outbox(referee).all()) == queued


def test_a_failing_mail_whose_alert_cannot_be_queued_still_holds_up_nothing(referee, monkeypatch):
    referee.create_game("nomes", "sidekick", G)
    import mailref.referee.quarantine as module
    from mailref.handlers import REGISTRY

    join(referee, "alice@x.org", G, "Alice")
    stored = referee.keep(
        [
            (mail("alice@x.org", G, "[Roll] d6"), "smtp", "", [G]),
            (mail("alice@x.org", G, "[Status]"), "smtp", "", [G]),
            (mail("bob@x.org", G, "[Join]", "Name: Bob"), "smtp", "", [G]),
        ]
    )
    monkeypatch.setattr(REGISTRY["status"], "fn", lambda env, view: 1 / 0)
    monkeypatch.setattr(
        module, "queue_alert", lambda *a, **kw: 1 / 0
    )  # and the GM's alert breaks too
    assert list(referee.process([s.id for s in stored]).values()) == [
        "processed",
        "failed",
        "processed",
    ]
    confirm_waiting(referee)
    assert [p["name"] for p in referee.state("nomes")["players"]] == ["Alice", "Bob"]


def test_a_store_fault_mid_batch_leaves_the_whole_batch_waiting(referee, monkeypatch):
    referee.create_game("nomes", "sidekick", G)
    stored = referee.keep(
        [
            (mail(f"{p}@x.org", G, "[Join]", f"Name: {p.title()}"), "smtp", "", [G])
            for p in ("alice", "bob", "carol")
        ]
    )
    real, calls = door.apply, []

    def flaky(s, game, action, *a, **kw):
        calls.append(action["name"])
        if len(calls) == 2:  # the database goes away under the second mail
            raise OperationalError("INSERT", {}, Exception("disk I/O error"))
        return real(s, game, action, *a, **kw)

    monkeypatch.setattr(door, "apply", flaky)
    with pytest.raises(OperationalError):
        referee.process([s.id for s in stored])
    assert referee.state("nomes")["players"] == [] and Outbox(referee).all() == []
    with referee.store() as s:
        assert {s.get(InboxMessage, x.id).status for x in stored} == {"new"}
    monkeypatch.setattr(door, "apply", real)
    assert process_all(referee) == 3
    confirm_waiting(referee)
    assert [p["name"] for p in referee.state("nomes")["players"]] == ["Alice", "Bob", "Carol"]


def test_a_batch_of_two_games_keeps_each_games_order_and_tells_each_game_once(referee):
    referee.create_game("nomes", "sidekick", G)
    referee.create_game("hex", "sidekick", H)
    changed: list[str] = []
    referee.after_change = changed.append
    mails = [
        mail("alice@x.org", G, "[Join]", "Name: Alice"),
        mail("zed@x.org", H, "[Join]", "Name: Zed"),
        mail("bob@x.org", G, "[Join]", "Name: Bob"),
        mail("yan@x.org", H, "[Join]", "Name: Yan"),
        mail("newbie@x.org", "referee@ref.example", "[Help]"),
    ]
    referee.keep([(m, "smtp", "", None) for m in mails])
    assert process_all(referee) == 5
    assert sorted(changed) == ["hex", "nomes"]  # once per game, after the commit
    confirm_waiting(referee)
    assert [p["name"] for p in referee.state("nomes")["players"]] == ["Alice", "Bob"]
    assert [p["name"] for p in referee.state("hex")["players"]] == ["Zed", "Yan"]
    to = sorted(m["To"] for m in Outbox(referee).all() if m["X-Mailref-Kind"] in ("ack", "help"))
    assert to == ["alice@x.org", "bob@x.org", "newbie@x.org", "yan@x.org", "zed@x.org"]


def test_a_stored_batch_dedupes_within_itself_and_against_the_inbox(referee):
    first = mail("alice@x.org", G, "[Help]", message_id="<same@x.org>")
    other = mail("alice@x.org", G, "[Status]", message_id="<same@x.org>")
    bare = b"From: a@x.org\r\nSubject: [Help]\r\n\r\nno Message-ID here\r\n"
    (a,) = referee.keep([(first, "smtp", "", [G])])
    b, c, d, e, f = referee.keep(
        [
            (first, "imap:x:1:1", "", None),
            (other, "imap:x:1:2", "", None),
            (other, "imap:x:1:3", "", None),
            (bare, "imap:x:1:4", "", None),
            (bare, "imap:x:1:5", "", None),
        ]
    )
    assert (b.id, b.new) == (a.id, False)
    assert c.new and c.status == "ignored" and (d.id, d.new) == (c.id, False)
    assert e.new and e.status == "new" and (f.id, f.new, f.status) == (e.id, False, "new")
    with referee.store() as s:
        assert (
            s.get(InboxMessage, c.id).verdict
            == f"duplicate: Message-ID already received as #{a.id}"
        )
        assert s.query(InboxMessage).count() == 3


def _hold_the_inbox(referee):
    """Another writer holding the database (SQLite) or the inbox table (PostgreSQL)."""
    conn = referee.store.engine.connect()
    conn.begin()  # SQLite: BEGIN IMMEDIATE, the write lock
    if conn.dialect.name == "postgresql":
        conn.execute(text("LOCK TABLE inbox IN EXCLUSIVE MODE"))
    return conn


def test_listener_serves_other_sessions_while_a_commit_waits(referee):
    referee.create_game("nomes", "sidekick", G)
    port = free_port()
    lst = Listener(referee, "127.0.0.1", port, 200_000)
    lst.start()
    result: dict = {}

    def deliver() -> None:
        with smtplib.SMTP("127.0.0.1", port, timeout=60) as c:
            result["refused"] = c.sendmail("alice@x.org", [G], mail("alice@x.org", G, "[Help]"))
            result["done"] = True

    try:
        with smtplib.SMTP("127.0.0.1", port, timeout=10) as c:  # the game addresses are read once
            c.sendmail("bob@x.org", [G], mail("bob@x.org", G, "[Help]"))
        holder = _hold_the_inbox(referee)
        sender = threading.Thread(target=deliver)
        try:
            sender.start()
            sender.join(1.0)
            assert "done" not in result  # no 250 before the commit
            with smtplib.SMTP("127.0.0.1", port, timeout=10) as other:  # the event loop is free
                assert other.ehlo()[0] == 250
                assert other.mail("carol@x.org")[0] == 250
                assert other.rcpt(G)[0] == 250  # known from a moment ago: no wait for the store
                assert other.rset()[0] == 250
            assert "done" not in result
        finally:
            holder.rollback()
            holder.close()
            sender.join(30)
    finally:
        lst.stop()
    assert result == {"refused": {}, "done": True}
    with referee.store() as s:
        assert s.query(InboxMessage).count() == 2
    assert Outbox(referee).all() == []  # stored only: the daemon processes it


def test_a_game_created_a_moment_ago_is_accepted_at_once(referee, tmp_path, clock, database_url):
    referee.create_game("nomes", "sidekick", G)
    port = free_port()
    lst = Listener(referee, "127.0.0.1", port, 200_000)
    lst.start()
    cli = make_referee(tmp_path, clock, url=database_url)  # another process: the operator's CLI
    try:
        with smtplib.SMTP("127.0.0.1", port, timeout=10) as c:
            c.ehlo()
            c.mail("alice@x.org")
            assert c.rcpt(G)[0] == 250
            assert c.rcpt(H)[0] == 550  # no such game yet
            cli.create_game("hex", "sidekick", H)
            assert c.rcpt(H)[0] == 250  # looked up again at once, not after the cache's two seconds
            assert c.rcpt("hex+turn3@ref.example")[0] == 250
            assert c.rcpt("nobody@ref.example")[0] == 550
            c.rset()
    finally:
        lst.stop()
        cli.store.dispose()


# ---- the daemon as a process -------------------------------------------------------------


def _site(tmp: Path, database_url: str) -> tuple[Path, int]:
    port = free_port()
    cfg = tmp / "mailref.toml"
    cfg.write_text(
        f'[daemon]\ndatabase = "{database_url}"\nfrom_address = "referee@ref.example"\n'
        f'admin_address = "gm@ref.example"\n[smtp_in]\nhost = "127.0.0.1"\nport = {port}\n'
        f'[outbox]\nmaildir = "var/outbox"\n'
    )
    return cfg, port


def _mailref(cfg: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mailref", "--config", str(cfg), *args],
        cwd=cfg.parent,
        capture_output=True,
        text=True,
        timeout=60,
    )


def _serve(cfg: Path, env: dict | None = None) -> subprocess.Popen:
    import os

    base = {
        k: v
        for k, v in os.environ.items()
        if k not in ("MAILREF_CONFIG", "NOTIFY_SOCKET", "MAILREF_TEST_CRASH")
    }
    return subprocess.Popen(
        [sys.executable, "-m", "mailref", "serve", "--config", str(cfg)],
        cwd=cfg.parent,
        env={**base, **(env or {})},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


PLAYERS = ["alice", "bob", "carol", "dave", "erin"]


@pytest.mark.parametrize("point", ["mid-batch", "before-delivery"])
def test_sigkill_at_each_processing_boundary_answers_every_stored_mail_once(
    tmp_path, database_url, clock, point
):
    """Mail stored while the daemon was down is its first batch: killed after the batch's first
    mail was applied (not committed), or after the batch committed and before its replies were
    delivered, the next start answers every mail, once."""
    cfg, _ = _site(tmp_path, database_url)
    assert (
        _mailref(cfg, "game", "create", "nomes", "--variant", "sidekick", "--address", G).returncode
        == 0
    )
    r = make_referee(tmp_path, clock, url=database_url)
    r.keep(
        [
            (mail(f"{p}@x.org", G, "[Join]", f"Name: {p.title()}"), "smtp", f"{p}@x.org", [G])
            for p in PLAYERS
        ]
    )
    r.store.dispose()
    marker = tmp_path / "crashed"
    proc = _serve(cfg, {"MAILREF_TEST_CRASH": point, "MAILREF_TEST_CRASH_MARKER": str(marker)})
    assert proc.wait(60) == 137 and marker.read_text() == point
    listed = json.loads(_mailref(cfg, "mail", "list", "--json").stdout)
    assert {m["status"] for m in listed} == ({"new"} if point == "mid-batch" else {"processed"})
    assert outbox_mails(tmp_path) == []  # nothing delivered before the kill
    proc = _serve(cfg)
    try:
        assert wait_for(lambda: len(outbox_mails(tmp_path)) >= len(PLAYERS), 60)
        time.sleep(1.0)  # a second delivery would show now
    finally:
        proc.terminate()
        assert proc.wait(60) == 0
    # Each [Join] answered once, by its confirmation (SPEC §2.3), and each waiting for it.
    acks = sorted(m["To"] for m in outbox_mails(tmp_path) if m["X-Mailref-Kind"] == "confirm")
    assert acks == [f"{p}@x.org" for p in PLAYERS]
    show = json.loads(_mailref(cfg, "game", "show", "nomes", "--json").stdout)
    assert sorted(p["name"] for p in show["joins_waiting"]) == [p.title() for p in PLAYERS]


def test_sigterm_right_after_250_processes_and_answers_that_mail_before_exit(
    tmp_path, database_url
):
    cfg, port = _site(tmp_path, database_url)
    assert (
        _mailref(cfg, "game", "create", "nomes", "--variant", "sidekick", "--address", G).returncode
        == 0
    )
    proc = _serve(cfg)
    try:
        assert wait_for(lambda: _accepts(port), 60)
        with smtplib.SMTP("127.0.0.1", port, timeout=30) as c:
            for p in PLAYERS:
                c.sendmail(f"{p}@x.org", [G], mail(f"{p}@x.org", G, "[Join]", f"Name: {p.title()}"))
        proc.terminate()  # at once: some of it is surely still stored only
        assert proc.wait(60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
    acks = sorted(m["To"] for m in outbox_mails(tmp_path) if m["X-Mailref-Kind"] == "confirm")
    assert acks == [f"{p}@x.org" for p in PLAYERS]
    listed = json.loads(_mailref(cfg, "mail", "list", "--json").stdout)
    assert [m["status"] for m in listed] == ["processed"] * len(PLAYERS)


def _accepts(port: int) -> bool:
    try:
        with smtplib.SMTP("127.0.0.1", port, timeout=5) as c:
            return c.noop()[0] == 250
    except OSError:
        return False


def test_a_refused_mail_between_two_accepted_ones_of_a_batch_undoes_only_itself(referee):
    referee.create_game("nomes", "sidekick", G, parameters={"win_score": 10**9})
    for name in ("Alice", "Bob"):
        referee.admin(
            "nomes", {"type": "player_add", "name": name, "address": f"{name.lower()}@x.org"}, "t"
        )
    mover = referee.state("nomes")["turn"]["player"]
    other = "Bob" if mover == "Alice" else "Alice"
    a, b = f"{mover.lower()}@x.org", f"{other.lower()}@x.org"
    before = len(referee.state("nomes")["rules"])
    mails = [
        mail(a, G, "[Proposal] Tea", 'Enact rule 24 "Tea":\nPlayers may drink tea.\n'),
        mail(b, G, "[Vote] 9", "FOR\n"),  # there is no proposal 9: refused, in the same batch
        mail(b, G, "[Vote] 1", "FOR\n"),
    ]
    referee.keep([(m, "smtp", "", [G]) for m in mails])
    assert process_all(referee) == 3
    state = referee.state("nomes")
    (proposal,) = state["proposals"]
    assert proposal["status"] == "passed"  # the proposal and the vote after the refusal hold
    assert len(state["rules"]) == before + 1
    with referee.store() as s:
        journal = s.scalars(select(JournalEntry.action).order_by(JournalEntry.seq)).all()
    assert [j["type"] for j in journal][-2:] == ["propose", "vote"]
    refusals = [m for m in Outbox(referee).all() if m["X-Mailref-Kind"] == "error"]
    assert [m["To"] for m in refusals] == [b]
