"""The listener (mailref.mail.smtp) attacked as real clients and hostile senders would:
clients that speak SMTP their own way (swaks pipelining, SMTPUTF8, HELO, lower case, LF
line ends), floods and endless lines, slow senders, smuggling, a disconnect at every step
(a mail is kept exactly once, however often it is sent again), and a store that is locked
or failing while sessions keep coming."""

from __future__ import annotations

import select
import shutil
import smtplib
import socket
import subprocess
import threading
import time
import tracemalloc
from email.message import EmailMessage

import pytest
from sqlalchemy import func
from sqlalchemy import select as query

from mailref.mail import smtp_server
from mailref.mail.smtp import Listener
from mailref.store import InboxMessage
from support.dovecot import free_port
from support.helpers import mail, wait_for
from support.listener import (
    Raw,
    answer_to,
    game_on_sqlite,
    kept,
    listener,
    listener_of,
    listening,
)

G = "nomes@ref.example"
TO = b"RCPT TO:<" + G.encode() + b">\r\n"


referee = pytest.fixture(
    game_on_sqlite
)  # the dialogue does not depend on the database: SQLite only

pytestmark = pytest.mark.spec("2.1")
port = pytest.fixture(listener_of)


def raws(referee) -> list[bytes]:
    return [r.raw for r in kept(referee)]


# ---- real clients ----------------------------------------------------------------------------


@pytest.mark.skipif(shutil.which("swaks") is None, reason="swaks not installed")
def test_swaks_pipelining_an_8bit_mail(referee, port):
    out = subprocess.run(
        [
            "swaks",
            "--server",
            f"127.0.0.1:{port}",
            "--pipeline",
            "--from",
            "zed@x.org",
            "--to",
            f"{G},nobody@ref.example",
            "--header",
            "Subject: [Help]",
            "--body",
            "Grüße aus Köln",
            "--add-header",
            "Content-Type: text/plain; charset=utf-8",
            "--add-header",
            "Content-Transfer-Encoding: 8bit",
        ],
        capture_output=True,
        timeout=30,
    )
    log = out.stdout.decode("utf-8", "replace")
    assert "PIPELINING" in log and "550" in log  # one recipient refused, the other taken
    (raw,) = raws(referee)
    assert "Grüße aus Köln".encode() in raw


def test_smtplib_sends_an_smtputf8_mail_from_a_utf8_address(referee, port):
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "Jörg <jörg@bücher.example>", G, "[Help]"
    msg["Message-ID"] = "<utf8.1@bücher.example>"
    msg.set_content("Hallo, wie geht's? ÄÖÜ")
    with smtplib.SMTP("127.0.0.1", port) as c:
        c.send_message(msg, mail_options=["SMTPUTF8", "BODY=8BITMIME"])
    (row,) = kept(referee)
    assert row.mail_from == "jörg@bücher.example" and "ÄÖÜ".encode() in row.raw


def test_an_old_fashioned_client_helo_lower_case_spaces_rset_and_several_mails(referee, port):
    one, two = mail("a@x.org", G, "[Help]"), mail("a@x.org", G, "[Status]")
    c = Raw(port)
    c.send(b"helo x.org\r\n")
    assert c.reply().startswith("250 ref.example")
    c.send(b"mail from: <a@x.org>\r\n")  # a space after the colon, as many clients write
    assert c.reply()[:3] == "250"
    c.send(b"rcpt to: <" + G.encode() + b">\r\n")
    assert c.reply()[:3] == "250"
    c.send(b"rset\r\n")  # changed its mind mid-transaction
    assert c.reply()[:3] == "250"
    c.send(b"data\r\n")
    assert c.reply()[:3] == "503"  # RSET forgot the recipient
    for raw in (one, two):  # two mails in one session, each command awaited
        for cmd in (b"Mail From:<a@x.org>\r\n", b"Rcpt To:<" + G.encode() + b">\r\n", b"Data\r\n"):
            c.send(cmd)
            c.reply()
        c.send(raw + b".\r\n")
        assert c.reply()[:3] == "250"
    c.send(b"quit\r\n")
    assert c.reply()[:3] == "221" and c.reply() == "EOF"
    assert raws(referee) == [one, two]
    q = Raw(port)
    q.send(b"QUIT\r\n")  # a session without a mail
    assert q.reply()[:3] == "221" and q.reply() == "EOF"


def test_commands_ended_by_a_bare_lf_are_answered(referee, port):
    """A script or an old client that ends its commands with LF alone is answered (aiosmtpd,
    which the listener replaced, did); its data still ends only at CRLF.CRLF."""
    raw = mail("a@x.org", G, "[Help]")
    c = Raw(port, timeout=5)
    c.send(b"EHLO x.org\nMAIL FROM:<a@x.org>\nRCPT TO:<" + G.encode() + b">\nDATA\n")
    assert c.codes(4) == ["250", "250", "250", "354"]
    c.send(raw + b".\r\nNOOP\n")
    assert c.codes(2) == ["250", "250"]
    assert raws(referee) == [raw]


def test_a_cr_alone_does_not_end_a_command(referee, port):
    c = Raw(port, timeout=5)
    c.send(b"NOOP\rQUIT\r\nNOOP\r\n")  # "NOOP\rQUIT" is one (bad) command, not a QUIT
    assert c.codes(2) == ["500", "250"]


# ---- hostile input ---------------------------------------------------------------------------


@pytest.mark.parametrize("address", [b"a\x00b@x.org", b"\xff\xfe@x.org", b"a\x1b[31m@x.org"])
def test_an_envelope_address_with_nul_control_or_non_utf8_bytes_is_refused_at_once(
    referee, port, address
):
    """Refused with 501 at MAIL FROM / RCPT TO, not taken and then failing in the store
    (451 at the end of DATA, the same again at every retry until the sender gives up)."""
    c = Raw(port)
    c.send(
        b"EHLO x.org\r\nMAIL FROM:<"
        + address
        + b">\r\nMAIL FROM:<a@x.org>\r\nRCPT TO:<"
        + address
        + b">\r\n"
        + TO
        + b"DATA\r\n"
    )
    assert c.codes(6) == ["250", "501", "250", "501", "250", "354"]
    raw = mail("a@x.org", G, "[Help]")
    c.send(raw + b".\r\n")
    assert c.reply()[:3] == "250"
    assert raws(referee) == [raw]


def test_nul_and_non_utf8_bytes_in_commands_and_data_do_not_break_the_session(referee, port):
    c = Raw(port)
    c.send(
        b"EH\x00LO x\r\n\xff\xfe\xfd\r\nEHLO \xc3\x28.example\r\nMAIL FROM:<a@x.org>\r\n"
        + TO
        + b"DATA\r\n"
    )
    assert c.codes(6) == ["500", "500", "250", "250", "250", "354"]
    raw = b"Subject: [Help]\r\n\r\nbytes \x00 \xff\xfe as they came\r\n"
    c.send(raw + b".\r\n")
    assert c.reply()[:3] == "250"
    assert raws(referee) == [raw]


def test_a_100_kb_command_line_in_one_write_is_refused_once(referee, port):
    """A line over the limit is one 500, whether it arrives in one piece or in many; the
    session goes on (it is not taken as a 100 KB address, nor counted as fifty errors)."""
    c = Raw(port)
    c.send(b"EHLO x.org\r\nMAIL FROM:<" + b"a" * 100_000 + b"@x.org>\r\nNOOP\r\n")
    assert c.codes(3) == ["250", "500", "250"]
    c.send(b"RCPT TO:<" + b"b" * 100_000)
    time.sleep(0.1)
    c.send(b"@ref.example>\r\nMAIL FROM:<a@x.org>\r\n")
    assert c.codes(2) == ["500", "250"]


def test_ten_thousand_pipelined_noops_are_cut_short(referee, port):
    """Commands that move no mail forward (NOOP, RSET, VRFY, HELP, HELO/EHLO) are answered a
    hundred times, then count as errors: a flood is closed with 421 (as Postfix's
    smtpd_junk_command_limit does) instead of being answered ten thousand times."""
    c = Raw(port)
    c.send(b"NOOP\r\n" * 10_000)
    replies = []
    while (r := c.reply()) != "EOF":
        replies.append(r[:3])
    assert replies[: smtp_server.JUNK_LIMIT] == ["250"] * smtp_server.JUNK_LIMIT
    assert replies[-1] == "421" and len(replies) < 200


def test_noops_between_mails_are_no_junk(referee, port):
    """A relay that keeps its session and says NOOP between mails is never cut off."""
    c = Raw(port)
    c.send(b"EHLO x.org\r\n")
    c.reply()
    for i in range(3):
        c.send(b"NOOP\r\n" * (smtp_server.JUNK_LIMIT - 10))
        assert set(c.codes(smtp_server.JUNK_LIMIT - 10)) == {"250"}
        c.send(b"MAIL FROM:<a@x.org>\r\n" + TO + b"DATA\r\n")
        assert c.codes(3) == ["250", "250", "354"]
        c.send(mail("a@x.org", G, f"[Help] {i}") + b".\r\n")
        assert c.reply()[:3] == "250"
    assert len(kept(referee)) == 3


def test_commands_after_quit_are_not_obeyed(referee, port):
    """A pipeline that goes on after QUIT (or after the session is closed for errors) is
    not read further: its mail is not kept."""
    c = Raw(port)
    c.send(
        b"EHLO x.org\r\nQUIT\r\nMAIL FROM:<a@x.org>\r\n"
        + TO
        + b"DATA\r\n"
        + mail("a@x.org", G, "[Help]")
        + b".\r\n"
    )
    assert c.codes(2) == ["250", "221"] and c.reply() == "EOF"
    time.sleep(0.3)
    assert kept(referee) == []


def test_rcpt_before_mail_and_data_without_recipients_in_a_pipeline(referee, port):
    c = Raw(port)
    c.send(
        b"EHLO x.org\r\n" + TO + b"MAIL FROM:<a@x.org>\r\nRCPT TO:<nobody@ref.example>\r\nDATA\r\n"
    )
    assert c.codes(5) == ["250", "503", "250", "550", "503"]
    c.send(b"RSET\r\n")  # after the answer to DATA: the session goes on
    assert c.reply()[:3] == "250"
    assert kept(referee) == []


@pytest.mark.parametrize(
    "fake_end", [b"\n.\r\n", b"\r\n.\n", b"\r.\r", b"\n.\n", b"\r\n.\r", b"\r.\r\n"]
)
def test_only_crlf_dot_crlf_ends_the_data(referee, port, fake_end):
    """SMTP smuggling: none of these end the message, so what follows is data, not a second
    mail from someone else."""
    c = Raw(port)
    c.send(b"EHLO x.org\r\nMAIL FROM:<a@x.org>\r\n" + TO + b"DATA\r\n")
    assert c.codes(4) == ["250", "250", "250", "354"]
    smuggled = b"MAIL FROM:<gm@ref.example>\r\n" + TO + b"DATA\r\nSubject: [Kill] 1\r\n\r\nbye"
    c.send(b"Subject: [Help]\r\n\r\nhello" + fake_end + smuggled + b"\r\n.\r\nNOOP\r\n")
    assert c.codes(2) == ["250", "250"]  # one mail, then the NOOP: nothing smuggled was answered
    (raw,) = raws(referee)
    assert raw.startswith(b"Subject: [Help]") and b"[Kill]" in raw


def test_the_end_of_the_data_split_at_every_octet(referee, port):
    c = Raw(port)
    c.send(b"EHLO x.org\r\nMAIL FROM:<a@x.org>\r\n" + TO + b"DATA\r\n")
    assert c.codes(4) == ["250", "250", "250", "354"]
    c.send(b"Subject: [Help]\r\n\r\nslow")
    for octet in b"\r\n.\r\n":
        time.sleep(0.05)
        c.send(bytes([octet]))
    assert c.reply()[:3] == "250"
    assert raws(referee) == [b"Subject: [Help]\r\n\r\nslow\r\n"]


def test_thirty_megabytes_without_size_keep_memory_flat(referee):
    """A 30 MB message not declared with SIZE, against a 1 MB limit: 552 at the end, and the
    listener never holds more than about the limit (measured with tracemalloc: the client
    sends one 64 KB piece again and again)."""
    with listening(referee, max_size=1_000_000) as port:
        c = Raw(port, timeout=30)
        c.send(b"EHLO x.org\r\nMAIL FROM:<a@x.org>\r\n" + TO + b"DATA\r\n")
        assert c.codes(4) == ["250", "250", "250", "354"]
        piece = (b"z" * 1022 + b"\r\n") * 64
        tracemalloc.start()
        try:
            for _ in range(30 * 1024 * 1024 // len(piece)):
                c.send(piece)
            c.send(b".\r\n")
            assert c.reply()[:3] == "552"
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peak < 4_000_000, peak
    assert kept(referee) == []


def test_a_message_near_the_limit_is_kept_with_little_copying(referee):
    """A 9 MB message (10 MB limit) is kept whole, and the listener's Python allocations peak
    at about twice its size (the data as it arrives, then the message once; it was five
    copies)."""
    with listening(referee, max_size=10_000_000) as port:
        c = Raw(port, timeout=60)
        c.send(b"EHLO x.org\r\nMAIL FROM:<a@x.org>\r\n" + TO + b"DATA\r\n")
        assert c.codes(4) == ["250", "250", "250", "354"]
        head = b"Subject: [Help]\r\n\r\n"
        piece = (b".z" + b"z" * 1020 + b"\r\n") * 64  # a leading period on every line: stuffed
        pieces = 9 * 1024 * 1024 // len(piece)
        tracemalloc.start()
        try:
            c.send(head)
            for _ in range(pieces):
                c.send(piece)
            c.send(b".\r\n")
            assert c.reply()[:3] == "250"
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    (row,) = kept(referee)
    size = len(head) + pieces * (len(piece) - 64)
    assert row.size == size and row.raw[len(head) : len(head) + 3] == b"zzz"
    assert peak < 2.6 * size, (peak, size)


def test_big_messages_at_once_are_held_within_the_budget(referee, monkeypatch):
    """Sessions together hold at most BUFFER_BUDGET of mail data (two messages of the limit
    at least): the message whose data would pass it is refused 452 (try again later) and
    thrown away, the others are kept, and once they are the listener takes mail again."""
    monkeypatch.setattr(smtp_server, "BUFFER_BUDGET", 0)  # the floor: 2 x 200 KB
    chunk = (b"y" * 1022 + b"\r\n") * 150  # 150 KB
    with listener(referee, max_size=200_000) as lst:
        senders = [Raw(lst.port, timeout=30) for _ in range(3)]
        for n, c in enumerate(senders):
            c.send(b"EHLO x.org\r\nMAIL FROM:<p%d@x.org>\r\n" % n + TO + b"DATA\r\n")
            assert c.codes(4) == ["250", "250", "250", "354"]
            c.send(b"Subject: [Help] %d\r\n\r\n" % n + chunk)
            if n < 2:  # the listener has read it, so the third is the one over the budget
                held = (n + 1) * len(chunk)
                assert wait_for(lambda held=held: lst.room.buffered >= held, 30), lst.room.buffered
        # The third's data is being thrown away as it arrives (only the tail that may begin the
        # end is kept) before any end arrives: an end read with the data is a message read.
        tail = len(smtp_server.END) - 1
        assert wait_for(lambda: any(s.held == tail for s in lst.sessions), 30)
        for c in senders:
            c.send(b".\r\n")
        assert [c.reply()[:3] for c in senders] == ["250", "250", "452"]
        senders[2].send(b"MAIL FROM:<p2@x.org>\r\n" + TO + b"DATA\r\n")
        assert senders[2].codes(3) == ["250", "250", "354"]
        senders[2].send(b"Subject: [Help] again\r\n\r\n" + chunk + b".\r\n")
        assert senders[2].reply()[:3] == "250"
    assert len(kept(referee)) == 3


# ---- slow senders and crowds -----------------------------------------------------------------


def dribble(c: Raw, data: bytes, every: float = 0.05) -> int | None:
    """Send DATA a byte every EVERY seconds until the listener says something (or closes);
    how many bytes were sent by then, None if it stayed silent to the end."""
    for i, octet in enumerate(data):
        if select.select([c.sock], [], [], 0)[0]:
            return i
        try:
            c.sock.sendall(bytes([octet]))
        except OSError:
            return i
        time.sleep(every)
    return None


def test_a_slowloris_command_is_closed_though_it_sends_a_byte_at_a_time(referee, monkeypatch):
    """The time allowed for a command counts from the last reply, not from the last byte
    (RFC 5321 §4.5.3.2.7: the server awaits the next *command*); a byte now and then does
    not keep a session open for ever."""
    monkeypatch.setattr(smtp_server, "IDLE_TIMEOUT", 0.6)
    with listening(referee) as port:
        c = Raw(port)
        assert dribble(c, b"EHLO " + b"x" * 100) is not None  # closed before the line was done
        assert c.reply()[:3] == "421" and c.reply() == "EOF"


def test_a_slow_sender_of_data_is_closed_too(referee, monkeypatch):
    monkeypatch.setattr(smtp_server, "IDLE_TIMEOUT", 0.6)
    with listening(referee) as port:
        c = Raw(port)
        c.send(b"EHLO x.org\r\nMAIL FROM:<a@x.org>\r\n" + TO + b"DATA\r\n")
        assert c.codes(4) == ["250", "250", "250", "354"]
        assert dribble(c, b"y" * 100) is not None  # one endless line of data, a byte at a time
        assert c.reply()[:3] == "421"
    assert kept(referee) == []


def test_near_the_session_cap_idle_sessions_are_given_less_time(referee, monkeypatch):
    """Under stress (most of the sessions taken), a session waits STRESS_TIMEOUT for its
    command instead of IDLE_TIMEOUT, so idle connections cannot hold every place (Postfix's
    stress-dependent smtpd_timeout); the sender being served finishes its mail."""
    monkeypatch.setattr(smtp_server, "MAX_SESSIONS", 10)
    monkeypatch.setattr(smtp_server, "STRESS_TIMEOUT", 0.5)
    with listening(referee) as port:
        idle = [Raw(port) for _ in range(10)]
        assert all(c.greeting.startswith("220") for c in idle)
        assert Raw(port).greeting[:3] == "421"  # the eleventh

        def told_421() -> list[Raw]:
            return [c for c in idle if select.select([c.sock], [], [], 0)[0]]

        # Told when the listener's loop next runs after STRESS_TIMEOUT, whenever that is.
        told = wait_for(told_421, 30)
        # Idle sessions are closed until the stress is over (fewer than STRESS_AT of the cap).
        assert 0 < len(told) < 10
        assert all(c.reply()[:3] == "421" for c in told)
        newcomer = Raw(port)
        assert newcomer.greeting.startswith("220")
        newcomer.send(b"EHLO x.org\r\nMAIL FROM:<a@x.org>\r\n" + TO + b"DATA\r\n")
        assert newcomer.codes(4) == ["250", "250", "250", "354"]
        newcomer.send(mail("a@x.org", G, "[Help]") + b".\r\n")
        assert newcomer.reply()[:3] == "250"
    assert len(kept(referee)) == 1


# ---- disconnects and exactly once ------------------------------------------------------------


STEPS = [b"EHLO x.org\r\n", b"MAIL FROM:<a@x.org>\r\n", TO, b"DATA\r\n"]


@pytest.mark.parametrize(
    "cut",
    [
        "mid-command",
        "after EHLO",
        "after MAIL",
        "after RCPT",
        "after DATA",
        "mid-data",
        "before the final dot",
        "after the final dot",
    ],
)
def test_a_disconnect_at_every_step_keeps_the_mail_exactly_once(referee, port, cut):
    """The sender hangs up at CUT; it then sends the same bytes again (as it would, not having
    seen a 250). The mail is kept once: the second delivery is recognised."""
    raw = mail("a@x.org", G, "[Help]")
    pieces = [*STEPS, raw + b".\r\n"]
    left = {
        "mid-command": 7,
        "after EHLO": len(STEPS[0]),
        "after MAIL": len(b"".join(STEPS[:2])),
        "after RCPT": len(b"".join(STEPS[:3])),
        "after DATA": len(b"".join(STEPS)),
        "mid-data": len(b"".join(STEPS)) + 40,
        "before the final dot": len(b"".join(pieces)) - 3,
        "after the final dot": len(b"".join(pieces)),
    }[cut]
    c = Raw(port)
    for i, piece in enumerate(pieces):
        part, left = piece[:left], left - len(piece[:left])
        if part:
            c.send(part)
        if part != piece or i == len(pieces) - 1:
            break  # hangs up here, without waiting for the answer
        c.reply()
    c.close()
    if cut == "after the final dot":  # its commit goes on without the sender
        assert wait_for(lambda: len(kept(referee)) == 1, timeout=15)
    else:
        time.sleep(0.3)
    held = len(kept(referee))
    assert held == (1 if cut == "after the final dot" else 0)
    with smtplib.SMTP("127.0.0.1", port) as c:
        c.ehlo()
        c.mail("a@x.org")
        c.rcpt(G)
        code, msg = c.data(raw)
    assert code == 250 and (b"already had it" in msg) == (held == 1)
    assert raws(referee) == [raw]


def test_the_250_waits_for_the_commit_while_the_store_is_locked(referee, port):
    """While another writer holds the store, the mail's 250 does not come; greetings,
    NOOPs and RCPTs of other sessions are answered meanwhile (the event loop is free)."""
    raw = mail("a@x.org", G, "[Help]")
    holder = referee.store.engine.connect()
    holder.begin()  # SQLite: BEGIN IMMEDIATE, the write lock
    try:
        c = Raw(port, timeout=30)
        c.send(b"EHLO x.org\r\nMAIL FROM:<a@x.org>\r\n" + TO + b"DATA\r\n")
        assert c.codes(4) == ["250", "250", "250", "354"]
        c.send(raw + b".\r\n")
        assert not select.select([c.sock], [], [], 0.5)[0]  # no answer while the commit waits
        for _ in range(5):
            o = Raw(port)
            o.send(b"EHLO y.org\r\nNOOP\r\nMAIL FROM:<b@y.org>\r\n" + TO + b"QUIT\r\n")
            assert o.greeting[:3] == "220" and o.codes(5) == ["250", "250", "250", "250", "221"]
        with referee.store.reader() as conn:  # a reader never waits for the writer
            assert conn.scalar(query(func.count()).select_from(InboxMessage)) == 0
    finally:
        holder.rollback()
        holder.close()
    assert c.reply()[:3] == "250"
    assert raws(referee) == [raw]


def test_stopping_while_a_commit_waits_tells_421_and_a_resend_is_recognised(referee):
    """The listener stops while a mail's commit waits for a locked store: its sender is
    told 421 once the grace time is over; the commit goes through afterwards, and the
    sender's retry to the next listener is taken as the mail it already had."""
    raw = mail("a@x.org", G, "[Help]")
    lst = Listener(referee, "127.0.0.1", port := free_port(), 200_000)
    lst.start()
    holder = referee.store.engine.connect()
    holder.begin()
    c = Raw(port)
    c.send(b"EHLO x.org\r\nMAIL FROM:<a@x.org>\r\n" + TO + b"DATA\r\n")
    assert c.codes(4) == ["250", "250", "250", "354"]
    c.send(raw + b".\r\n")
    time.sleep(0.2)
    stopper = threading.Thread(target=lst.stop, kwargs={"within": 0.5})
    stopper.start()
    assert c.reply()[:3] == "421"
    holder.rollback()
    holder.close()
    stopper.join(30)
    assert not stopper.is_alive()
    assert len(kept(referee)) == 1  # committed after all, though the sender was told 421
    with listening(referee) as again:
        with smtplib.SMTP("127.0.0.1", again) as s:
            s.ehlo()
            s.mail("a@x.org")
            s.rcpt(G)
            code, msg = s.data(raw)
    assert code == 250 and b"already had it" in msg
    assert raws(referee) == [raw]


def test_a_message_pipelined_behind_a_refused_data_is_not_obeyed_as_commands(referee, port):
    """A client that sends the message right behind DATA without waiting for 354 (RFC 2920
    §3.1: DATA ends a group) has its DATA refused when no recipient was taken: what follows
    is that message, not commands. Obeyed, a body holding `RSET`, `MAIL FROM:<gm@...>`, `RCPT`,
    `DATA` became a second mail with an envelope of its author's choosing (smuggling); the
    session is closed instead."""
    smuggled = (
        b"RSET\r\nMAIL FROM:<gm@ref.example>\r\n"
        + TO
        + b"DATA\r\nFrom: gm@ref.example\r\nSubject: [Kill] 1\r\n\r\n"
        b"bye\r\n.\r\n"
    )
    c = Raw(port)
    c.send(
        b"EHLO x.org\r\nMAIL FROM:<a@x.org>\r\nRCPT TO:<nobody@ref.example>\r\nDATA\r\n" + smuggled
    )
    assert c.codes(4) == ["250", "250", "550", "503"]
    assert c.reply()[:3] == "421" and c.reply() == "EOF"
    time.sleep(0.3)
    assert kept(referee) == []


def test_a_store_locked_past_the_lock_wait_answers_451_and_the_retry_is_kept_once(
    referee, port, monkeypatch
):
    """A real store failure, not a stand-in: another writer holds SQLite's lock longer than
    a writer waits (MAILREF_LOCK_WAIT). The sender is told 451 (try later), nothing is kept;
    its retry is kept, once, and a second retry is recognised."""
    monkeypatch.setenv("MAILREF_LOCK_WAIT", "0.3")
    referee.store.engine.dispose()  # new connections wait 0.3 s for a lock
    raw = mail("a@x.org", G, "[Help]")
    holder = referee.store.engine.connect()
    holder.begin()
    try:
        with smtplib.SMTP("127.0.0.1", port) as c, pytest.raises(smtplib.SMTPDataError) as refused:
            c.sendmail("a@x.org", [G], raw)
        assert refused.value.smtp_code == 451
        o = Raw(port)  # meanwhile the listener answers others
        o.send(b"NOOP\r\n")
        assert o.greeting[:3] == "220" and o.reply()[:3] == "250"
    finally:
        holder.rollback()
        holder.close()
    # The lock is given back: the retries wait for a writer as the store always does (the
    # referee answering the first retry holds the lock longer than 0.3 s on a busy machine).
    monkeypatch.delenv("MAILREF_LOCK_WAIT")
    referee.store.engine.dispose()
    for again in (b"stored as", b"already had it"):
        with smtplib.SMTP("127.0.0.1", port) as c:
            c.ehlo()
            c.mail("a@x.org")
            c.rcpt(G)
            code, msg = c.data(raw)
        assert code == 250 and again in msg
    assert raws(referee) == [raw]


def test_the_same_mail_sent_again_while_its_first_commit_waits_is_kept_once(referee, port):
    """A sender that gave up waiting for the 250 sends the same bytes again on a new session
    while the first commit still waits for the store: both are answered 250 once committed
    (one transaction or two), and the mail is kept once."""
    raw = mail("a@x.org", G, "[Help]")
    holder = referee.store.engine.connect()
    holder.begin()
    sessions = []
    try:
        for _ in range(2):
            c = Raw(port, timeout=30)
            c.send(b"EHLO x.org\r\nMAIL FROM:<a@x.org>\r\n" + TO + b"DATA\r\n")
            assert c.codes(4) == ["250", "250", "250", "354"]
            c.send(raw + b".\r\n")
            sessions.append(c)
            time.sleep(0.2)
    finally:
        holder.rollback()
        holder.close()
    answers = sorted(c.reply() for c in sessions)
    assert [a[:3] for a in answers] == ["250", "250"]
    assert sum("already had it" in a for a in answers) == 1, answers
    assert raws(referee) == [raw]


def test_a_whole_session_in_one_write_then_half_closed_is_answered_to_the_end(referee, port):
    """As `printf ... | nc -N` sends it: everything at once, then the sending side shut. The
    listener still answers every command, the mail's 250 after its commit, then 221."""
    raw = mail("a@x.org", G, "[Help]")
    c = Raw(port)
    c.send(b"EHLO x.org\r\nMAIL FROM:<a@x.org>\r\n" + TO + b"DATA\r\n" + raw + b".\r\nQUIT\r\n")
    c.sock.shutdown(socket.SHUT_WR)
    assert c.codes(6) == ["250", "250", "250", "354", "250", "221"] and c.reply() == "EOF"
    assert raws(referee) == [raw]


def test_a_group_failing_on_a_locked_store_is_not_tried_again_mail_by_mail(referee, monkeypatch):
    """Mail that queued while the store was locked is committed as one group; when the lock
    outlasts the lock wait, the group's senders are all told 451 at once, each mail tried
    once (one by one, a group of 50 waited for the lock 50 times more). Their retries are
    kept."""
    monkeypatch.setenv("MAILREF_LOCK_WAIT", "1.5")
    referee.store.engine.dispose()
    real, calls = referee.keep, []

    def counted(mails, wait=True):
        if wait:  # not the listener's try without waiting (Busy at once: the store is held)
            calls.append(len(mails))
            if len(calls) == 1:  # the first commit, as slow as it may be: the four queue meanwhile
                assert wait_for(lambda: queued() == 4, 30)
        return real(mails, wait)

    monkeypatch.setattr(referee, "keep", counted)
    raws_sent = [mail(f"p{i}@x.org", G, "[Help]") for i in range(5)]
    codes: dict[int, int] = {}

    with listener(referee) as lst:
        assert lst.intake.committer is not None
        queued = lst.intake.committer.inbox.qsize

        def send(i: int) -> None:
            codes[i] = answer_to(lst.port, f"p{i}@x.org", G, raws_sent[i])

        holder = referee.store.engine.connect()
        holder.begin()
        try:
            first = threading.Thread(target=send, args=(0,))
            first.start()
            assert wait_for(lambda: calls == [1], 30)  # its commit waits for the lock...
            rest = [threading.Thread(target=send, args=(i,)) for i in range(1, 5)]
            for t in [*rest]:  # ...and the next four queue behind it
                t.start()
            for t in [first, *rest]:
                t.join(30)
        finally:
            holder.rollback()
            holder.close()
        assert codes == {i: 451 for i in range(5)}
        # A group formed, and no mail was tried twice.
        assert max(calls) > 1 and sum(calls) == 5, calls
        for i in range(5):
            send(i)
    assert codes == {i: 250 for i in range(5)}
    assert sorted(raws(referee)) == sorted(raws_sent)
