"""The SMTP listener in real SMTP sessions (smtplib and swaks)."""

from __future__ import annotations

import shutil
import smtplib
import socket
import subprocess
import time

import pytest

from mailref.store import InboxMessage
from support.helpers import Outbox, mail
from support.joining import confirm
from support.listener import listener_of_game

pytestmark = pytest.mark.spec("2.1")

G = "nomes@ref.example"


listener = pytest.fixture(listener_of_game)


def rows(referee):
    with referee.store() as s:
        return s.query(InboxMessage).order_by(InboxMessage.id).all()


def test_help_is_answered_after_the_message_is_stored(referee, listener):
    with smtplib.SMTP("127.0.0.1", listener) as c:
        code, msg = c.sendmail("alice@x.org", [G], mail("alice@x.org", G, "[Help]")) or (250, b"")
    (row,) = rows(referee)
    assert (
        row.status == "processed"
        and row.raw.startswith(b"Content-Type")
        or b"Subject: [Help]" in row.raw
    )
    (reply,) = Outbox(referee).all()
    assert reply["X-Mailref-Kind"] == "help" and reply["Auto-Submitted"] == "auto-replied"
    assert reply["In-Reply-To"] and reply["X-Mailref-Game"] == "nomes"


def test_multiple_rcpt_with_one_unknown(referee, listener):
    with smtplib.SMTP("127.0.0.1", listener) as c:
        refused = c.sendmail(
            "alice@x.org",
            [G, "nobody@ref.example", "NOMES+tag@REF.example"],
            mail("alice@x.org", G, "[Help]"),
        )
    assert list(refused) == ["nobody@ref.example"] and refused["nobody@ref.example"][0] == 550
    assert len(rows(referee)) == 1


def test_oversize_is_refused_with_552(referee, listener):
    big = mail("alice@x.org", G, "[Help]", "x" * 300_000)
    with smtplib.SMTP("127.0.0.1", listener) as c, pytest.raises(smtplib.SMTPSenderRefused) as e:
        c.sendmail("alice@x.org", [G], big)  # declared with SIZE: refused at MAIL FROM
    assert e.value.smtp_code == 552
    with smtplib.SMTP("127.0.0.1", listener) as c, pytest.raises(smtplib.SMTPDataError) as e:
        c.ehlo()
        c.esmtp_features.pop("size")  # undeclared: refused after DATA
        c.sendmail("alice@x.org", [G], big)
    assert e.value.smtp_code == 552
    assert rows(referee) == []


def test_client_disconnect_mid_data_stores_nothing(referee, listener):
    s = socket.create_connection(("127.0.0.1", listener))
    f = s.makefile("rb")
    f.readline()
    for cmd in (
        b"EHLO x\r\n",
        b"MAIL FROM:<a@x.org>\r\n",
        f"RCPT TO:<{G}>\r\n".encode(),
        b"DATA\r\n",
    ):
        s.sendall(cmd)
        line = f.readline()
        while line[3:4] == b"-":
            line = f.readline()
    s.sendall(b"Subject: [Help]\r\n\r\nhalf a messa")
    s.close()
    time.sleep(0.3)
    assert rows(referee) == []


def test_store_failure_answers_451_and_a_retry_succeeds(referee, listener, monkeypatch):
    real = referee.keep

    def broken(*a, **kw):
        raise OSError("disk full")

    monkeypatch.setattr(referee, "keep", broken)
    raw = mail("alice@x.org", G, "[Help]")
    with smtplib.SMTP("127.0.0.1", listener) as c, pytest.raises(smtplib.SMTPDataError) as e:
        c.sendmail("alice@x.org", [G], raw)
    assert e.value.smtp_code == 451
    monkeypatch.setattr(referee, "keep", real)
    with smtplib.SMTP("127.0.0.1", listener) as c:
        c.sendmail("alice@x.org", [G], raw)
        c.sendmail("alice@x.org", [G], raw)  # a re-delivery of the same bytes
    assert len(rows(referee)) == 1
    assert len(Outbox(referee).all()) == 1


@pytest.mark.skipif(shutil.which("swaks") is None, reason="swaks not installed")
def test_swaks_join(referee, listener):
    out = subprocess.run(
        [
            "swaks",
            "--server",
            f"127.0.0.1:{listener}",
            "--from",
            "zed@x.org",
            "--to",
            G,
            "--header",
            "Subject: [Join]",
            "--body",
            "Name: Zed",
        ],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    confirm(referee, "zed@x.org")
    assert [p["name"] for p in referee.state("nomes")["players"]] == ["Zed"]


def test_the_greeting_names_the_referees_domain_and_no_software_version(referee, listener):
    with smtplib.SMTP("127.0.0.1", listener) as c:
        code, ehlo = c.ehlo("players.example")
    assert code == 250 and ehlo.split(b"\n")[0].startswith(b"ref.example")
    with socket.create_connection(("127.0.0.1", listener)) as s:
        banner = s.recv(200)
    assert (
        banner.startswith(b"220 ref.example") and b"Python" not in banner and b"1.4" not in banner
    )
