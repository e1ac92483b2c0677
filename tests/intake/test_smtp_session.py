"""The SMTP dialogue of the listener (mailref.mail.smtp_server, aiosmtpd's session) as
clients really speak it:
pipelined commands, dot-stuffing, a bare LF that must not end the data, long lines, bad
commands, too many recipients, idle and crowded sessions, a shutdown mid-session, and mail
that arrives together being committed together."""

from __future__ import annotations

import smtplib
import threading
import time

import pytest

from mailref.mail import smtp_server
from mailref.mail.smtp import Listener
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


referee = pytest.fixture(
    game_on_sqlite
)  # the dialogue does not depend on the database: SQLite only

pytestmark = pytest.mark.spec("1.3")
port = pytest.fixture(listener_of)


def raws(referee) -> list[bytes]:
    return [r.raw for r in kept(referee)]


def test_pipelined_session_with_two_messages_is_answered_in_order(referee, port):
    one, two = mail("a@x.org", G, "[Help]"), mail("b@x.org", G, "[Status]")
    c = Raw(port)
    c.send(
        b"EHLO x.org\r\nMAIL FROM:<a@x.org>\r\nRCPT TO:<"
        + G.encode()
        + b">\r\nDATA\r\n"
        + one
        + b".\r\n"
        b"MAIL FROM:<b@x.org>\r\nRCPT TO:<nobody@ref.example>\r\nRCPT TO:<"
        + G.encode()
        + b">\r\nDATA\r\n"
        + two
        + b".\r\nQUIT\r\n"
    )
    replies = [c.reply() for _ in range(11)]
    assert "PIPELINING" in replies[0]
    assert [r[:3] for r in replies] == [
        "250",
        "250",
        "250",
        "354",
        "250",
        "250",
        "550",
        "250",
        "354",
        "250",
        "221",
    ]
    assert raws(referee) == [one, two]


def test_dot_stuffed_lines_come_back_as_written(referee, port):
    body = ".\n..two dots\n.one dot\nend.\n."
    raw = mail("a@x.org", G, "[Help]", body)
    with smtplib.SMTP("127.0.0.1", port) as c:
        c.sendmail("a@x.org", [G], raw)  # smtplib stuffs every leading period
    assert raws(referee) == [raw]


def test_a_bare_lf_dot_does_not_end_the_data(referee, port):
    """SMTP smuggling: "\\n.\\n" must not end the message and start a second one."""
    c = Raw(port)
    c.send(b"EHLO x.org\r\nMAIL FROM:<a@x.org>\r\nRCPT TO:<" + G.encode() + b">\r\nDATA\r\n")
    assert c.codes(4) == ["250", "250", "250", "354"]
    smuggled = (
        b"MAIL FROM:<admin@ref.example>\r\nRCPT TO:<"
        + G.encode()
        + b">\r\nDATA\r\nSubject: [Kill] 1\r\n\r\n"
    )
    c.send(b"Subject: [Help]\r\n\r\nhello\n.\n" + smuggled + b"\r\n.\r\n")
    assert c.reply().startswith("250")
    (raw,) = raws(referee)
    assert b"hello\n.\nMAIL FROM:<admin@ref.example>" in raw
    c.close()


def test_long_lines_and_an_empty_message_are_kept(referee, port):
    long = mail("a@x.org", G, "[Help]", "x" * 5000)
    c = Raw(port)
    c.send(b"HELO x.org\r\nMAIL FROM:<a@x.org>\r\nRCPT TO:<" + G.encode() + b">\r\nDATA\r\n")
    assert c.codes(4) == ["250", "250", "250", "354"]
    c.send(b"Subject: [Help]\r\n\r\n" + b"y" * 5000 + b"\r\n.\r\n")  # one 5,000-octet line
    assert c.reply()[:3] == "250"
    c.send(b"MAIL FROM:<a@x.org>\r\nRCPT TO:<" + G.encode() + b">\r\nDATA\r\n.\r\n")
    assert c.codes(4) == ["250", "250", "354", "250"]
    assert raws(referee)[0].endswith(b"y" * 5000 + b"\r\n") and raws(referee)[1] == b""
    with smtplib.SMTP("127.0.0.1", port) as s:
        s.sendmail("a@x.org", [G], long)
    assert raws(referee)[2] == long


def test_commands_out_of_order_get_503_and_the_session_goes_on(referee, port):
    c = Raw(port)
    c.send(b"MAIL FROM:<a@x.org>\r\n")
    assert c.reply().startswith("503")  # no HELO yet
    c.send(b"EHLO x.org\r\nRCPT TO:<" + G.encode() + b">\r\nDATA\r\n")
    assert c.codes(3) == ["250", "503", "503"]
    c.send(b"MAIL FROM:<a@x.org>\r\nMAIL FROM:<a@x.org>\r\nFOO bar\r\nEHLO\r\nSTARTTLS\r\n")
    assert c.codes(5) == ["250", "503", "500", "501", "502"]
    c.send(
        b"RSET\r\nNOOP\r\nVRFY alice\r\nHELP\r\nMAIL FROM:<a@x.org> SIZE=12 BODY=8BITMIME\r\n"
        b"RCPT TO:<" + G.encode() + b"> NOTIFY=NEVER\r\nQUIT\r\n"
    )
    assert c.codes(7) == ["250", "250", "252", "250", "250", "555", "221"]
    assert raws(referee) == []


def test_a_client_sending_only_junk_is_closed(referee, port):
    c = Raw(port)
    c.send(b"GARBAGE\r\n" * smtp_server.MAX_ERRORS)
    replies = [c.reply() for _ in range(smtp_server.MAX_ERRORS)]
    assert replies[-1].startswith("421") and c.reply() == "EOF"


def test_an_endless_command_line_is_refused_without_growing(referee, port):
    c = Raw(port)
    c.send(b"EHLO " + b"x" * (smtp_server.COMMAND_LIMIT + 10))
    assert c.reply().startswith("500")
    c.send(b"\r\nNOOP\r\n")  # the end of that line (skipped, already refused), then a good command
    assert c.codes(1) == ["250"]


def test_oversize_data_gets_552_and_the_next_mail_is_taken(referee):
    with listening(referee, max_size=10_000) as port:
        c = Raw(port)
        c.send(b"EHLO x.org\r\nMAIL FROM:<a@x.org>\r\nRCPT TO:<" + G.encode() + b">\r\nDATA\r\n")
        assert c.codes(4) == ["250", "250", "250", "354"]
        for _ in range(50):  # 50 KB in pieces, never held whole
            c.send(b"z" * 998 + b"\r\n")
        c.send(b".\r\n")
        assert c.reply().startswith("552")
        ok = mail("a@x.org", G, "[Help]")
        c.send(b"MAIL FROM:<a@x.org>\r\nRCPT TO:<" + G.encode() + b">\r\nDATA\r\n" + ok + b".\r\n")
        assert c.codes(4) == ["250", "250", "354", "250"]
    assert raws(referee) == [ok]


def test_more_than_a_hundred_recipients_get_452(referee, port):
    c = Raw(port)
    c.send(b"EHLO x.org\r\nMAIL FROM:<a@x.org>\r\n" + b"RCPT TO:<nomes+%d@ref.example>\r\n" % 0)
    assert c.codes(3) == ["250", "250", "250"]
    c.send(
        b"".join(
            b"RCPT TO:<nomes+%d@ref.example>\r\n" % i
            for i in range(1, smtp_server.MAX_RECIPIENTS + 1)
        )
    )
    codes = c.codes(smtp_server.MAX_RECIPIENTS)
    assert codes[:-1] == ["250"] * (smtp_server.MAX_RECIPIENTS - 1) and codes[-1] == "452"


def test_an_idle_session_is_closed(referee, monkeypatch):
    monkeypatch.setattr(smtp_server, "IDLE_TIMEOUT", 0.3)
    with listening(referee) as port:
        c = Raw(port)
        c.send(b"EHLO x.org\r\n")
        assert c.reply().startswith("250")
        t = time.monotonic()
        assert c.reply().startswith("421") and c.reply() == "EOF"
        assert time.monotonic() - t >= 0.25


def test_too_many_sessions_are_told_to_come_back(referee, monkeypatch):
    monkeypatch.setattr(smtp_server, "MAX_SESSIONS", 2)
    with listener(referee) as lst:
        first, second = Raw(lst.port), Raw(lst.port)
        third = Raw(lst.port)
        assert first.greeting.startswith("220") and second.greeting.startswith("220")
        assert third.greeting.startswith("421")
        second.close()
        # The listener learns of the close when its loop next runs, not when close returns.
        assert wait_for(lambda: len(lst.sessions) == 1, 30), lst.sessions
        assert Raw(lst.port).greeting.startswith("220")


def test_shutdown_answers_the_mail_in_hand_and_tells_the_rest_421(referee):
    lst = Listener(referee, "127.0.0.1", port := free_port(), 200_000)
    lst.start()
    busy, idle = Raw(port), Raw(port)
    busy.send(b"EHLO x.org\r\nMAIL FROM:<a@x.org>\r\nRCPT TO:<" + G.encode() + b">\r\nDATA\r\n")
    assert busy.codes(4) == ["250", "250", "250", "354"]
    busy.send(b"Subject: [Help]\r\n\r\nhalf")
    stopper = threading.Thread(target=lst.stop)
    stopper.start()
    time.sleep(0.3)
    assert stopper.is_alive()  # waits for the message being sent
    busy.send(b" and the rest\r\n.\r\n")
    assert busy.reply().startswith("250")
    stopper.join(10)
    assert not stopper.is_alive()
    assert idle.reply().startswith("421") and busy.reply().startswith("421")
    assert raws(referee) == [b"Subject: [Help]\r\n\r\nhalf and the rest\r\n"]


def test_mail_arriving_together_is_committed_together_and_a_bad_one_fails_alone(
    referee, monkeypatch
):
    """While the store is locked, five sessions hand over a mail each; one of them the store
    refuses. The others are kept (one transaction), the bad one alone gets 451."""
    real = referee.keep
    groups = []

    def picky(mails, wait=True):
        if not wait:  # the listener's try on its own loop: the store is held, so it is Busy
            return real(mails, wait)
        groups.append(len(mails))
        if any(b"poison" in m[0] for m in mails):
            raise ValueError("this one cannot be kept")
        return real(mails)

    monkeypatch.setattr(referee, "keep", picky)
    with listener(referee) as lst:
        submit = [mail(f"p{i}@x.org", G, "[Help]", "poison" if i == 2 else "") for i in range(5)]
        results: dict[int, object] = {}

        def send(i: int) -> None:
            results[i] = answer_to(lst.port, f"p{i}@x.org", G, submit[i])

        holder = referee.store.engine.connect()
        holder.begin()  # SQLite: BEGIN IMMEDIATE, the write lock
        first = threading.Thread(target=send, args=(0,))
        first.start()
        assert wait_for(lambda: groups == [1], 30)  # its commit now waits for the lock...
        rest = [threading.Thread(target=send, args=(i,)) for i in range(1, 5)]
        for t in rest:
            t.start()
        assert lst.intake.committer is not None
        inbox = lst.intake.committer.inbox
        assert wait_for(lambda: inbox.qsize() == 4, 30)  # ...and the next four queue behind it
        holder.rollback()
        holder.close()
        for t in [first, *rest]:
            t.join(30)
    assert results == {0: 250, 1: 250, 2: 451, 3: 250, 4: 250}
    assert groups[:2] == [1, 4], groups  # the group of four failed, then each was tried alone
    assert sorted(raws(referee)) == sorted(m for i, m in enumerate(submit) if i != 2)


def test_a_free_store_is_written_on_the_sessions_loop_and_a_held_one_by_the_committer(
    referee, monkeypatch
):
    """SQLite: with nothing queued for the committer, a mail is committed on the sessions' own
    loop without waiting for the lock (no hand-over between threads); when another writer holds
    the store, that try is Busy at once and the committer waits for the lock instead, the 250
    only after its commit. A mail over INLINE_AT_MOST always goes to the committer."""
    if referee.store.engine.dialect.name != "sqlite":
        pytest.skip("only SQLite's lock can be tried without waiting")
    real, calls = referee.keep, []

    def where(mails, wait=True):
        try:
            out = real(mails, wait)
        except Exception as e:
            calls.append((threading.current_thread().name, wait, type(e).__name__))
            raise
        calls.append((threading.current_thread().name, wait, "kept"))
        return out

    monkeypatch.setattr(referee, "keep", where)
    with listening(referee, max_size=1_000_000) as port:
        assert answer_to(port, "a@x.org", G, mail("a@x.org", G, "[Help]")) == 250
        assert calls == [("smtp", False, "kept")]
        calls.clear()
        holder = referee.store.engine.connect()
        holder.begin()  # SQLite: BEGIN IMMEDIATE, the write lock
        result: dict = {}
        sender = threading.Thread(
            target=lambda: result.update(
                code=answer_to(port, "c@x.org", G, mail("c@x.org", G, "[Help]"))
            )
        )
        sender.start()
        sender.join(0.5)
        assert "code" not in result, "no 250 before the commit"
        holder.rollback()
        holder.close()
        sender.join(30)
        assert result == {"code": 250}
        assert calls == [("smtp", False, "Busy"), ("smtp-store", True, "kept")]
        calls.clear()
        body = "\r\n".join(["y" * 998] * 300)  # about 300 KB
        assert answer_to(port, "d@x.org", G, mail("d@x.org", G, "[Help]", body)) == 250
        assert calls == [("smtp-store", True, "kept")]
    assert len(raws(referee)) == 3
