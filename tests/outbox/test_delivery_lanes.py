"""A batch of outgoing mail goes over several relay connections at once (mail/outbox.py,
docs/decisions/outbox.md): each recipient's mail on one connection and in order;
a relay that takes fewer connections gets everything all the same; and of all connections,
at most one row is ever accepted by the relay and not yet marked sent (SPEC §6)."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest
from aiosmtpd.controller import Controller
from sqlalchemy import select

from mailref.config import SmtpOut
from mailref.mail.relay_lanes import FEWER_FOR, RELAY_SESSIONS
from mailref.store import OutboxMessage
from mailref.store.keep import Incoming
from support.delivery import Deliverer
from support.dovecot import free_port
from support.helpers import mail, process_all

pytestmark = pytest.mark.spec("4.3")

G = "nomes@ref.example"


class LaneSink:
    """A relay that notes how many sessions it holds at once and, at the end of each mail's data,
    what the store says of the mails it accepted before (ON_DATA)."""

    def __init__(self, most: int | None = None, on_data=None):
        self.most, self.on_data = most, on_data
        self.together: int | None = (
            None  # when set, each mail waits (a while) until that many sessions were open at once
        )
        self.mails: list[tuple[str, bytes]] = []
        self.open = self.peak = self.refused = 0
        self.lock = threading.Lock()
        self.controller = Controller(self, hostname="127.0.0.1", port=free_port())
        self.port = self.controller.port

    async def handle_EHLO(self, server, session, envelope, hostname, responses):
        with self.lock:
            if self.most is not None and self.open >= self.most:
                self.refused += 1
                server.transport.close()  # as a relay at its connection limit does
                return ["421 4.7.0 too many connections"]
            self.open += 1
            self.peak = max(self.peak, self.open)
            session.counted = True
        await asyncio.sleep(
            0.05
        )  # every connection is open at once before any finishes its first mail
        session.host_name = hostname
        return responses

    async def handle_QUIT(self, server, session, envelope):
        self._closed(session)
        return "221 Bye"

    def _closed(self, session) -> None:
        with self.lock:
            if getattr(session, "counted", False):
                session.counted = False
                self.open -= 1

    async def handle_DATA(self, server, session, envelope):
        for _ in range(
            100
        ):  # at its limit, the first mail waits until another connection was tried
            if self.most is None or self.refused:
                break
            await asyncio.sleep(0.05)
        for _ in range(
            200
        ):  # a busy machine may open the last connection after the first finished its rows
            if self.together is None or self.peak >= self.together:
                break
            await asyncio.sleep(0.025)
        if self.on_data:
            self.on_data(self)
        with self.lock:
            self.mails.append((envelope.rcpt_tos[0], envelope.content))
        return "250 OK"

    def __enter__(self) -> LaneSink:
        self.controller.start()
        return self

    def __exit__(self, *exc) -> None:
        self.controller.stop()


def queue_replies(referee, senders: list[str]) -> None:
    referee.create_game("nomes", "sidekick", G)
    for n, who in enumerate(senders):
        referee.keep([Incoming(mail(who, G, f"[Help] {n}"), "smtp", who, [G])])
    process_all(referee)


def deliverer(referee, sink) -> Deliverer:
    return Deliverer(
        referee.store,
        "referee@ref.example",
        SmtpOut(host="127.0.0.1", port=sink.port),
        "-",
        "gm@ref.example",
    )


def sent_subjects(sink, to: str) -> list[str]:
    import email

    return [email.message_from_bytes(raw)["Subject"] for rcpt, raw in sink.mails if rcpt == to]


def test_a_batch_goes_over_several_connections_and_each_recipient_in_order(referee, clock):
    senders = [f"p{i % 6}@players.example" for i in range(18)]
    queue_replies(referee, senders)
    with LaneSink() as sink:
        # A loaded machine may start the last lane after the first finished its rows (the
        # suite beside other work did); the relay holds each mail a while for it.
        sink.together = RELAY_SESSIONS
        d = deliverer(referee, sink)
        assert d.deliver(clock()) == (18, 0)
    assert sink.peak == RELAY_SESSIONS > 1, "the batch's connections were open at once"
    for who in set(senders):
        numbers = [int(s.split("[Help] ")[1]) for s in sent_subjects(sink, who)]
        assert numbers == sorted(numbers) and len(numbers) == 3, (who, numbers)


def test_a_relay_taking_one_connection_at_a_time_still_gets_every_row_once(referee, clock):
    queue_replies(referee, [f"p{i}@players.example" for i in range(12)])
    with LaneSink(most=1) as sink:
        d = deliverer(referee, sink)
        sent = rounds = 0
        while sent < 12 and rounds < 10:  # the rows a refused connection held go in the next rounds
            sent, rounds = sent + d.deliver(clock())[0], rounds + 1
        assert sent == 12 and len(sink.mails) == 12 and sink.refused >= 1
        assert d.sessions < RELAY_SESSIONS, "fewer connections once the relay refused one"
        # An hour on, the relay (no longer busy) is offered all the connections again.
        sink.most, sink.peak, d.fewer_since = None, 0, d.fewer_since - FEWER_FOR - 1
        sink.together = RELAY_SESSIONS
        for n in range(6):
            referee.keep([Incoming(mail(f"q{n}@players.example", G, "[Help]"), "smtp", "q@x", [G])])
        process_all(referee)
        assert (
            d.deliver(clock()) == (6, 0)
            and d.sessions == RELAY_SESSIONS
            and sink.peak == RELAY_SESSIONS
        )
    with referee.store() as s:
        rows = list(s.scalars(select(OutboxMessage)))
    assert {r.status for r in rows} == {"sent"} and {r.attempts for r in rows} == {
        1
    }, "a row whose connection was refused is no failed attempt"


def test_at_most_one_row_is_ever_accepted_by_the_relay_and_not_marked(referee, clock):
    """What a crash could send twice: every mail the relay accepted before this one is marked
    sent when this one's data ends, whichever connection carried it."""
    queue_replies(referee, [f"p{i}@players.example" for i in range(30)])
    unmarked_seen: list[int] = []

    def check(sink: LaneSink) -> None:
        import email

        with sink.lock:
            accepted = {email.message_from_bytes(raw)["Message-ID"] for _, raw in sink.mails}
        with referee.store() as s:
            status = dict(
                s.execute(select(OutboxMessage.message_id, OutboxMessage.status)).tuples().all()
            )
        unmarked_seen.append(sum(1 for m in accepted if status[m] != "sent"))

    with LaneSink(on_data=check) as sink:
        d = deliverer(referee, sink)
        mark = d._sent_now

        def slow_mark(row) -> None:  # a slow disk: the window between the relay's 250 and our mark
            time.sleep(0.02)
            mark(row)

        d._sent_now = slow_mark
        assert d.deliver(clock()) == (30, 0)
        assert sink.peak > 1
    assert len(unmarked_seen) == 30 and max(unmarked_seen) == 0, unmarked_seen


def test_a_round_on_a_slow_relay_ends_after_its_time_and_the_rest_go_next_round(
    referee, clock, monkeypatch
):
    """A relay answering each command in seconds held the daemon's work lock for the whole batch
    of 50, and every mail that arrived meanwhile waited. Past ROUND_BUDGET each
    connection stops after its row in hand; the rest stay queued, no attempt counted, and go
    with the next rounds, each exactly once."""
    import mailref.mail.relay_lanes as lanes

    monkeypatch.setattr(lanes, "ROUND_BUDGET", 0.0)  # as if every row took the round's time
    queue_replies(referee, [f"p{i}@players.example" for i in range(10)])
    with LaneSink() as sink:
        d = deliverer(referee, sink)
        first = d.deliver(clock())
        assert (
            first == (RELAY_SESSIONS, 0) and d.cut_short
        ), "one row a connection, then the round ended"
        with referee.store() as s:
            waiting = list(s.scalars(select(OutboxMessage).where(OutboxMessage.status != "sent")))
        assert len(waiting) == 10 - RELAY_SESSIONS
        assert {(r.status, r.attempts, r.claimed_by) for r in waiting} == {("queued", 0, None)}
        sent, rounds = first[0], 1
        while sent < 10 and rounds < 10:
            sent, rounds = sent + d.deliver(clock())[0], rounds + 1
        assert sent == 10 and rounds == 4 and not d.cut_short
        # A round cut short, then one with nothing left to claim: not cut short (the daemon
        # goes on delivering at once only after a round that was).
        d.cut_short = True
        assert d.deliver(clock()) == (0, 0) and not d.cut_short
    assert sorted(to for to, _ in sink.mails) == sorted(f"p{i}@players.example" for i in range(10))
    with referee.store() as s:
        assert {(r.status, r.attempts) for r in s.scalars(select(OutboxMessage))} == {("sent", 1)}


class CappedSink:
    """A relay that takes a few mails on one connection, then answers the next MAIL with 421 and
    closes, as Exim does past smtp_accept_max_per_connection and providers do past theirs."""

    def __init__(self, per_connection: int):
        self.per_connection = per_connection
        self.mails: list[tuple[str, bytes]] = []
        self.capped = 0
        self.controller = Controller(self, hostname="127.0.0.1", port=free_port())
        self.port = self.controller.port

    async def handle_MAIL(self, server, session, envelope, address, mail_options):
        if getattr(session, "taken", 0) >= self.per_connection:
            self.capped += 1
            await server.push("421 4.7.0 too many messages on this connection")
            server.transport.close()
            return "421 4.7.0 closing"  # pushed to a closed connection: never read
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        session.taken = getattr(session, "taken", 0) + 1
        self.mails.append((envelope.rcpt_tos[0], envelope.content))
        return "250 OK"

    def __enter__(self) -> CappedSink:
        self.controller.start()
        return self

    def __exit__(self, *exc) -> None:
        self.controller.stop()


def test_a_relay_capping_mails_per_connection_gets_the_rest_on_a_new_connection_at_once(
    referee, clock, caplog
):
    """A 421 at MAIL after some mails on the connection is the relay's limit per connection,
    not trouble with the row: the row goes at once on a new connection, no attempt counted,
    no warning (it was a retry with back-off and a warning for every row that met the cap)."""
    queue_replies(referee, [f"p{i}@players.example" for i in range(12)])
    with CappedSink(per_connection=2) as sink, caplog.at_level("INFO", logger="mailref.outbox"):
        assert deliverer(referee, sink).deliver(clock()) == (12, 0)
    assert len(sink.mails) == 12 and sink.capped >= 3
    with referee.store() as s:
        rows = list(s.scalars(select(OutboxMessage)))
    assert {r.status for r in rows} == {"sent"} and {r.attempts for r in rows} == {1}
    assert not [r for r in caplog.records if r.levelname in ("WARNING", "ERROR")], caplog.text


def test_a_relay_answering_421_at_once_on_a_new_connection_is_trouble_as_before(referee, clock):
    """The new connection is tried once: a relay that refuses its first mail too is a relay in
    trouble, and the row waits with back-off as any 4xx."""
    queue_replies(referee, ["p0@players.example"])
    with CappedSink(per_connection=0) as sink:
        assert deliverer(referee, sink).deliver(clock()) == (0, 1)
    with referee.store() as s:
        (row,) = list(s.scalars(select(OutboxMessage)))
    assert row.status == "queued" and row.attempts == 1 and "421" in row.last_error
