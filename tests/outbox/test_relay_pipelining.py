"""To a relay offering PIPELINING (RFC 2920), a row's MAIL, RCPT and DATA go in one write and
their answers are read in order; a refused recipient inside a pipeline fails its row alone and
the connection goes on (mail/relay.py `Relay.send_row`). The relay here is mailref's own SMTP
session, which offers PIPELINING, with a desk that keeps what it is given."""

from __future__ import annotations

import asyncio
import threading

import pytest
from sqlalchemy import select

from mailref.config import SmtpOut
from mailref.mail.smtp_server import Room, Server
from mailref.store import OutboxMessage
from mailref.store.keep import Incoming
from support.delivery import Deliverer
from support.dovecot import free_port
from support.helpers import mail, process_all

pytestmark = pytest.mark.spec("4.3")

G = "nomes@ref.example"


class Desk:
    """The relay's handler (aiosmtpd's hooks): refuses the addresses in REFUSE, keeps the rest."""

    def __init__(self, refuse: set[str]):
        self.refuse, self.mails, self.reads = (
            refuse,
            list[tuple[str, list[str], bytes]](),
            list[bytes](),
        )

    async def handle_RCPT(self, server, session, envelope, address: str, options: list[str]) -> str:
        if address in self.refuse:
            return "550 5.1.1 no such user here"
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 OK"

    async def handle_DATA(self, server, session, envelope) -> str:
        self.mails.append((envelope.mail_from, envelope.rcpt_tos, envelope.original_content))
        return "250 2.0.0 OK"


class Recording(Server):
    def data_received(self, data: bytes) -> None:
        self.event_handler.reads.append(data)
        super().data_received(data)


@pytest.fixture
def pipelining_relay():
    """A PIPELINING relay on a loop of its own; yields (desk, port)."""
    desk, port, loop = (
        Desk(refuse={"nobody@players.example"}),
        free_port(),
        asyncio.new_event_loop(),
    )
    room = Room()
    server = loop.run_until_complete(
        loop.create_server(
            lambda: Recording(desk, room, "relay.example", 10_000_000, loop=loop), "127.0.0.1", port
        )
    )
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    yield desk, port
    loop.call_soon_threadsafe(server.close)
    loop.call_soon_threadsafe(loop.stop)
    thread.join(5)


def test_mail_rcpt_and_data_go_in_one_write_to_a_pipelining_relay(referee, clock, pipelining_relay):
    desk, port = pipelining_relay
    referee.create_game("nomes", "sidekick", G)
    for n in range(4):
        referee.keep([Incoming(mail(f"p{n}@players.example", G, "[Help]"), "smtp", "p@x", [G])])
    process_all(referee)
    d = Deliverer(
        referee.store,
        "referee@ref.example",
        SmtpOut(host="127.0.0.1", port=port),
        "-",
        "gm@ref.example",
    )
    assert d.deliver(clock()) == (4, 0)
    assert sorted(rcpt[0] for _, rcpt, _ in desk.mails) == [
        f"p{n}@players.example" for n in range(4)
    ]
    pipelined = [r for r in desk.reads if b"MAIL FROM:<referee@ref.example>" in r]
    assert len(pipelined) == 4 and all(
        b"\r\nRCPT TO:<" in r and r.endswith(b"\r\nDATA\r\n") for r in pipelined
    )


def test_a_refused_recipient_in_a_pipeline_fails_its_row_alone(referee, clock, pipelining_relay):
    desk, port = pipelining_relay
    referee.create_game("nomes", "sidekick", G)
    for who in ("alice@players.example", "nobody@players.example", "bob@players.example"):
        referee.keep([Incoming(mail(who, G, "[Help]"), "smtp", who, [G])])
    process_all(referee)
    d = Deliverer(
        referee.store,
        "referee@ref.example",
        SmtpOut(host="127.0.0.1", port=port),
        "-",
        "gm@ref.example",
    )
    d.sessions = 1  # all three on one connection: the one after the refusal must still go
    assert d.deliver(clock()) == (2, 1)
    assert sorted(rcpt[0] for _, rcpt, _ in desk.mails) == [
        "alice@players.example",
        "bob@players.example",
    ]
    with referee.store() as s:
        failed = s.scalars(select(OutboxMessage).where(OutboxMessage.status == "failed")).one()
    assert failed.recipients == ["nobody@players.example"] and "550" in failed.last_error
