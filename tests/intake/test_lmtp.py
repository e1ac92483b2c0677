"""The LMTP listener (RFC 2033, `[lmtp_in]`), as a front MTA speaks it: LHLO, a reply per
recipient after the data (a game's address 250, an unknown one 550 at RCPT, a store fault
451 for each), and a mail that names its game only in the envelope routed by it."""

from __future__ import annotations

import select

import pytest

from support.dovecot import free_port
from support.helpers import Outbox, mail, maildir_mails, wait_for
from support.listener import Raw, game_on_sqlite, kept, lmtp_listening
from support.ops import Site

pytestmark = pytest.mark.spec("1.3")

G, OTHER = "nomes@ref.example", "other@ref.example"

referee = pytest.fixture(game_on_sqlite)


@pytest.fixture
def port(referee):
    with lmtp_listening(referee) as p:
        yield p


def envelope(c: Raw, rcpts: list[str], sender: bytes = b"a@x.org") -> list[str]:
    """LHLO, MAIL FROM and a RCPT TO for each of RCPTS, then DATA: their reply codes."""
    c.send(
        b"LHLO mx.players.example\r\nMAIL FROM:<"
        + sender
        + b">\r\n"
        + b"".join(b"RCPT TO:<" + r.encode() + b">\r\n" for r in rcpts)
        + b"DATA\r\n"
    )
    return c.codes(3 + len(rcpts))


def test_lhlo_is_the_greeting_and_ehlo_or_helo_are_refused(port):
    c = Raw(port)
    assert c.greeting.startswith("220 ref.example") and "LMTP" in c.greeting
    c.send(b"EHLO mx.players.example\r\nHELO mx.players.example\r\nMAIL FROM:<a@x.org>\r\n")
    assert c.codes(3) == ["500", "500", "503"]
    c.send(b"LHLO mx.players.example\r\n")
    lhlo = c.reply()
    assert lhlo.startswith("250 ref.example") and "PIPELINING" in lhlo and "SIZE 200000" in lhlo
    assert "8BITMIME" in lhlo and "SMTPUTF8" in lhlo


def test_each_recipient_gets_its_own_reply_and_the_mail_is_kept_once(referee, port):
    referee.create_game("other", "sidekick", OTHER)
    raw = mail("a@x.org", G, "[Help]")
    c = Raw(port)
    assert envelope(c, [G, "nobody@ref.example", OTHER]) == [
        "250",
        "250",
        "250",
        "550",
        "250",
        "354",
    ]
    c.send(raw + b".\r\n")
    replies = [c.reply(), c.reply()]  # one for each recipient taken, none for the refused one
    assert [r[:3] for r in replies] == ["250", "250"] and all("stored as #1" in r for r in replies)
    assert not select.select([c.sock], [], [], 0.3)[0]  # nothing more: the next command is awaited
    c.send(b"QUIT\r\n")
    assert c.reply()[:3] == "221"
    (row,) = kept(referee)
    assert row.raw == raw and row.rcpt_to == [G, OTHER]


def test_a_store_locked_past_the_lock_wait_is_a_451_for_each_recipient_and_the_retry_is_kept(
    referee, port, monkeypatch
):
    """A real store fault (another writer holds SQLite's lock longer than a writer waits):
    every recipient taken is told 451, so the front MTA keeps the mail queued for each."""
    referee.create_game("other", "sidekick", OTHER)
    monkeypatch.setenv("MAILREF_LOCK_WAIT", "0.3")
    referee.store.engine.dispose()
    raw = mail("a@x.org", G, "[Help]")
    holder = referee.store.engine.connect()
    holder.begin()  # SQLite: BEGIN IMMEDIATE, the write lock
    try:
        c = Raw(port, timeout=30)
        assert envelope(c, [G, OTHER]) == ["250", "250", "250", "250", "354"]
        c.send(raw + b".\r\n")
        assert c.codes(2) == ["451", "451"]
    finally:
        holder.rollback()
        holder.close()
    # The lock is given back: what follows waits for a writer as the store always does (the
    # referee answering the retry holds the lock longer than the wait above on a busy machine).
    monkeypatch.delenv("MAILREF_LOCK_WAIT")
    referee.store.engine.dispose()
    assert kept(referee) == []
    c.send(b"RSET\r\n")
    assert c.reply()[:3] == "250"
    assert envelope(c, [G, OTHER])[-1] == "354"
    c.send(raw + b".\r\n")
    assert c.codes(2) == ["250", "250"]
    assert [r.raw for r in kept(referee)] == [raw]


def test_a_mail_naming_its_game_only_in_the_envelope_goes_to_that_game(referee, port):
    """A mail to a list (or a Bcc): its header names neither game of the mailbox; the LMTP
    envelope says which game it is for, and that game answers."""
    referee.create_game("other", "sidekick", OTHER)
    for rcpt in (OTHER, G):
        c = Raw(port)
        assert envelope(c, [rcpt])[-1] == "354"
        c.send(mail("a@x.org", "players@lists.example", "[Help]") + b".\r\n")
        assert c.reply()[:3] == "250"
        c.close()
    replies = wait_for(lambda: len(Outbox(referee).all()) == 2 and Outbox(referee).all(), 15)
    assert [m["X-Mailref-Game"] for m in replies] == ["other", "nomes"]
    assert all(m["To"] == "a@x.org" for m in replies)


def test_the_dialogues_limits_hold_over_lmtp(referee, port):
    """The same session as SMTP's: a bare LF never ends the data, a long line is kept,
    control bytes are not echoed, a command line over the limit is refused at once."""
    c = Raw(port)
    assert envelope(c, [G])[-1] == "354"
    c.send(
        b"Subject: [Help]\r\n\r\nhello\n.\nMAIL FROM:<gm@ref.example>\r\n"
        + b"y" * 5000
        + b"\r\n.\r\n"
    )
    assert c.reply()[:3] == "250"
    (row,) = kept(referee)
    assert b"hello\n.\nMAIL FROM" in row.raw and row.raw.endswith(b"y" * 5000 + b"\r\n")
    c.send(b"RC\x1bPT\r\n" + b"NOOP " + b"x" * 3000)
    first = c.reply()
    assert first.startswith("500") and "\x1b" not in first
    assert c.reply().startswith("500")


def test_the_daemon_listens_for_lmtp_with_its_lmtp_in_table(tmp_path):
    """`[lmtp_in]` alone (no `[smtp_in]`): `mailref serve` takes mail over LMTP and answers it."""
    lmtp = free_port()
    site = Site(tmp_path, smtp_in=False, extra=f'[lmtp_in]\nhost = "127.0.0.1"\nport = {lmtp}\n')
    with site.serve() as daemon:
        c = Raw(lmtp, timeout=30)
        assert envelope(c, ["referee@ref.example"], b"ann@x.org")[-1] == "354"
        c.send(mail("ann@x.org", "referee@ref.example", "[Help]") + b".\r\n")
        assert c.reply()[:3] == "250"
        assert wait_for(lambda: maildir_mails(tmp_path), 30), daemon.stderr()
        assert f"LMTP listener on 127.0.0.1:{lmtp}" in daemon.stderr()
        assert daemon.stop() == 0


def test_the_lmtp_in_table_is_read_and_a_port_shared_with_smtp_in_is_refused(tmp_path):
    from mailref.config import ConfigError, load

    cfg = tmp_path / "mailref.toml"
    cfg.write_text('[lmtp_in]\nport = 2424\nmax_message_size = "1MB"\n')
    c = load(cfg)
    assert (c.lmtp_in.host, c.lmtp_in.port, c.lmtp_in.max_message_size) == (
        "127.0.0.1",
        2424,
        1024 * 1024,
    )
    assert c.smtp_in is None and "lmtp listener 127.0.0.1:2424" in c.describe()
    cfg.write_text("[smtp_in]\nport = 2525\n[lmtp_in]\nport = 2525\n")
    with pytest.raises(ConfigError, match=r"\[lmtp_in\] port: 2525 is \[smtp_in\]'s too"):
        load(cfg)
    cfg.write_text('[lmtp_in]\nport = 2424\nsocket = "/run/x"\n')
    with pytest.raises(ConfigError, match="socket"):
        load(cfg)
