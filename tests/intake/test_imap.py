"""The IMAP path against a real Dovecot: replies, filing, MOVE and its fallback, UIDVALIDITY
resets, oversize mail, one MOVE per folder for a batch, and SIGKILL at each boundary of a
batch (fetched, stored, processed, filed)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mailref.mail.imap import Poller
from mailref.store import InboxMessage
from support.helpers import Outbox, mail, wait_for
from support.helpers import maildir_mails as outbox_mails
from support.imap import imap_cfg
from support.ops import Site

G = "nomes@ref.example"
pytestmark = [pytest.mark.dovecot, pytest.mark.spec("2.1")]


@pytest.fixture
def box(dovecot, request):
    """A fresh folder of its own for each test, so tests never see each other's mail."""
    name = "t" + str(abs(hash(request.node.name)) % 10**8)
    c = dovecot.client()
    for f in (name, f"{name}-done", f"{name}-rejected"):
        if c.folder_exists(f):
            c.delete_folder(f)
    c.create_folder(name)
    yield name, c
    c.logout()


def count(c, folder: str) -> int:
    return c.folder_status(folder, ["MESSAGES"])[b"MESSAGES"]


@pytest.mark.parametrize("use_move", [True, False])
def test_message_is_answered_and_filed(referee, dovecot, box, use_move):
    folder, c = box
    referee.create_game("nomes", "sidekick", G)
    c.append(folder, mail("alice@x.org", G, "[Join]", "Name: Alice"))
    c.append(folder, mail("mailer-daemon@x.org", G, "auto reply"))
    poller = Poller(imap_cfg(dovecot, folder, use_move=use_move), referee)
    pc = poller.connect()
    assert poller.drain(pc) == 2
    assert (count(c, folder), count(c, f"{folder}-done"), count(c, f"{folder}-rejected")) == (
        0,
        1,
        1,
    )
    replies = [m for m in Outbox(referee).all() if m["X-Mailref-Kind"] == "confirm"]
    assert len(replies) == 1 and replies[0]["To"] == "alice@x.org"
    assert poller.drain(pc) == 0
    pc.logout()


def test_uidvalidity_reset_reprocesses_nothing(referee, dovecot, box):
    folder, c = box
    referee.create_game("nomes", "sidekick", G)
    raw = mail("alice@x.org", G, "[Help]")
    c.append(folder, raw)
    poller = Poller(imap_cfg(dovecot, folder), referee)
    pc = poller.connect()
    poller.drain(pc)
    pc.logout()
    c.delete_folder(folder)  # the server loses the folder and its UIDs...
    c.create_folder(folder)
    c.append(folder, raw)  # ...and offers the same mail again under a new UIDVALIDITY
    pc = poller.connect()
    assert poller.drain(pc) == 1
    pc.logout()
    with referee.store() as s:
        assert s.query(InboxMessage).count() == 1
    assert len(Outbox(referee).all()) == 1


def test_oversize_mail_is_answered_from_its_game_and_rejected(referee, dovecot, box, caplog):
    folder, c = box
    referee.create_game("nomes", "sidekick", G, name="Nomes")
    referee.create_game(
        "other", "sidekick", "other@ref.example"
    )  # two games: the answer names the right one
    c.append(folder, mail("alice@x.org", G, "[Join]", "Name: Alice\n" + "x" * 50_000))
    poller = Poller(imap_cfg(dovecot, folder), referee, max_size=20_000)
    pc = poller.connect()
    with caplog.at_level("INFO", "mailref"):
        poller.drain(pc)
    pc.logout()
    (reply,) = Outbox(referee).all()
    assert reply["X-Mailref-Kind"] == "error" and "over the referee's limit" in Outbox.body(reply)
    # From the game, as every answer to a game's mail (SPEC §2.3), its subject naming it (§2.6).
    assert (
        G in reply["From"] and reply["X-Mailref-Game"] == "nomes" and "[Nomes]" in reply["Subject"]
    )
    assert count(c, f"{folder}-rejected") == 1
    with referee.store() as s:
        (row,) = s.query(InboxMessage).all()
        assert (
            row.status == "ignored"
            and b"X-Mailref-Truncated" in row.raw
            and row.game_slug == "nomes"
        )
    # One log line for the mail handled (SPEC §7), as for every other.
    lines = [
        r.getMessage() for r in caplog.records if r.getMessage().startswith(f"mail #{row.id} ")
    ]
    assert len(lines) == 1 and "game=nomes tag=join: ignored: too large" in lines[0], lines


# ---- the daemon as a process ---------------------------------------------------------


def write_config(
    tmp: Path, dovecot, folder: str, poll: str = "1h", database: str = "var/mailref.sqlite3"
) -> Path:
    return Site(tmp, extra=dovecot.imap_toml(folder, poll), database=database).config


def mailref(cfg: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mailref", "--config", str(cfg), *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **(env or {})},
    )


def start(cfg: Path, env: dict | None = None) -> subprocess.Popen:
    # Its log to a file: a pipe nobody reads fills up (a pass a second at DEBUG is 16 KB/s)
    # and the daemon stops at its next log line.
    with open(cfg.parent / "serve.log", "ab") as log:
        return subprocess.Popen(
            [sys.executable, "-m", "mailref", "serve", "--config", str(cfg)],
            env={**os.environ, "MAILREF_LOG": "DEBUG", **(env or {})},
            stdout=subprocess.DEVNULL,
            stderr=log,
        )


def test_daemon_answers_with_idle(tmp_path, dovecot, box, database_url):
    folder, c = box
    cfg = write_config(
        tmp_path, dovecot, folder, poll="1h", database=database_url
    )  # only IDLE can bring the mail in time
    assert (
        mailref(cfg, "game", "create", "nomes", "--variant", "sidekick", "--address", G).returncode
        == 0
    )
    proc = start(cfg)
    try:
        time.sleep(1.5)
        c.append(folder, mail("alice@x.org", G, "[Join]", "Name: Alice"))
        got = wait_for(
            lambda: [m for m in outbox_mails(tmp_path) if m["X-Mailref-Kind"] == "confirm"], 30
        )
        assert got and got[0]["To"] == "alice@x.org"
        assert wait_for(lambda: count(c, f"{folder}-done") == 1, 10)
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 0


@pytest.mark.parametrize(
    "point", ["after-fetch", "after-commit", "mid-batch", "after-process", "after-file"]
)
def test_sigkill_at_each_batch_boundary_answers_every_mail_once(
    tmp_path, dovecot, box, point, database_url
):
    """A batch is fetched, stored in one transaction, processed in one transaction, filed with
    one MOVE, then the cursor moves: killed between any two of those, nothing is lost and
    nothing doubled (the next pass fetches the batch again; the inbox knows it). Once the batch
    is processed its replies may already be on their way when the kill comes: rows the killed
    process had claimed are sent once its short outbox lease lapsed, and the one in flight may
    go twice (SPEC §6)."""
    folder, c = box
    cfg = write_config(tmp_path, dovecot, folder, poll="1s", database=database_url)
    mailref(cfg, "game", "create", "nomes", "--variant", "sidekick", "--address", G)
    players = ["alice", "bob", "carol", "dave"]
    c.multiappend(folder, [mail(f"{p}@x.org", G, "[Join]", f"Name: {p.title()}") for p in players])
    marker = tmp_path / "crashed"
    proc = start(
        cfg,
        {
            "MAILREF_TEST_CRASH": point,
            "MAILREF_TEST_CRASH_MARKER": str(marker),
            "MAILREF_OUTBOX_LEASE": "2",
        },
    )
    assert (
        proc.wait(60) == 137 and marker.read_text() == point
    )  # killed at that point, as SIGKILL would
    assert count(c, folder) == (0 if point == "after-file" else 4)  # filed only once processed
    proc = start(cfg)
    try:
        assert wait_for(lambda: count(c, f"{folder}-done") == 4, 30)
        wait_for(
            lambda: len([m for m in outbox_mails(tmp_path) if m["X-Mailref-Kind"] == "confirm"])
            >= 4,
            15,
        )
        time.sleep(1.0)  # a second reply would show now
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)
    acks = sorted(m["To"] for m in outbox_mails(tmp_path) if m["X-Mailref-Kind"] == "confirm")
    assert sorted(set(acks)) == [f"{p}@x.org" for p in players]
    assert len(acks) <= len(players) + (point in ("after-process", "after-file"))
    assert count(c, folder) == 0
    assert mailref(cfg, "mail", "list").stdout.count("processed") == 4
    show = json.loads(mailref(cfg, "game", "show", "nomes", "--json").stdout)
    # Each [Join] taken up once: each waits for its confirmation (SPEC §2.3).
    assert sorted(p["name"] for p in show["joins_waiting"]) == [p.title() for p in players]


def test_one_move_per_folder_files_a_batch(referee, dovecot, box):
    """A batch of processed and ignored mail leaves the folder in two moves, one per folder."""
    folder, c = box
    referee.create_game("nomes", "sidekick", G)
    c.multiappend(
        folder,
        [mail(f"p{i}@x.org", G, "[Help]") for i in range(6)]
        + [mail("mailer-daemon@x.org", G, "auto reply")] * 2,
    )
    poller = Poller(imap_cfg(dovecot, folder), referee)
    pc = poller.connect()
    moves: list[tuple[list[int], str]] = []
    real = pc.move
    pc.move = lambda uids, target: moves.append((list(uids), target)) or real(uids, target)
    assert poller.drain(pc) == 8
    pc.logout()
    assert sorted((len(u), t) for u, t in moves) == [
        (2, f"{folder}-rejected"),
        (6, f"{folder}-done"),
    ]
    assert (count(c, folder), count(c, f"{folder}-done"), count(c, f"{folder}-rejected")) == (
        0,
        6,
        2,
    )
    assert len([m for m in Outbox(referee).all() if m["X-Mailref-Kind"] == "help"]) == 6


def test_mail_arriving_while_the_poller_files_is_not_left_for_the_next_one(referee, dovecot, box):
    """Dovecot tells of a new message once, in the answer to whatever command is running (a
    FETCH, a MOVE) when it lands: a message appended mid-drain must be drained before IDLE,
    not wait until some later mail or the IDLE renewal (9 minutes) wakes the poller."""
    import threading

    folder, c = box
    referee.create_game("nomes", "sidekick", G)
    poller = Poller(imap_cfg(dovecot, folder, idle=True), referee)
    process, appended, sender = (
        poller.process,
        [],
        dovecot.client(),
    )  # a connection of its own (thread)

    def process_then_more_mail(arg):
        if not appended:  # B lands while A is in hand, after the drain's SEARCH
            appended.append(sender.append(folder, mail("bob@x.org", G, "[Help]")))
        return process(arg)

    poller.process = process_then_more_mail
    c.append(folder, mail("alice@x.org", G, "[Help]"))
    thread = threading.Thread(target=poller.run, daemon=True)
    thread.start()
    try:
        # Generous: without a second drain, B waits for the IDLE renewal, minutes away.
        filed = lambda: c.folder_exists(f"{folder}-done") and count(c, f"{folder}-done") == 2  # noqa: E731
        assert wait_for(filed, 60), "B was left in the folder"
    finally:
        poller.stop.set()
        thread.join(30)
        sender.logout()
    helps = [m["To"] for m in Outbox(referee).all() if m["X-Mailref-Kind"] == "help"]
    assert sorted(helps) == ["alice@x.org", "bob@x.org"]
