"""Fair time (SPEC §2.1): a mail counts at its receipt by the listener, not when it is
processed. A stranger's backlog of large mails neither makes a player's on-time orders late
nor holds the player's mail up behind it, and a mail received after a deadline is late however
long that deadline waited for the backlog."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from mailref.referee import BATCH_BYTES
from mailref.store import InboxMessage
from mailref.store.keep import Incoming
from support.fair_time import DIPLO, addr, answer, gm_orders, orders, orders_game, turn_open
from support.helpers import Outbox, mail, process_all
from support.listener import storing, submit

pytestmark = pytest.mark.spec("2.1")

STRANGER = "flood@stranger.example"
BACKLOG = 30


def large(n: int, sender: str = STRANGER) -> bytes:
    """A stranger's mail of about 300 KB with no command."""
    return mail(sender, DIPLO, f"Read this {n}", ("all work and no play " * 4 + "\n") * 3600)


def inbox_id(referee, sender: str) -> int:
    """The last mail stored from SENDER."""
    with referee.store() as s:
        return s.scalar(
            select(InboxMessage.id)
            .where(InboxMessage.sender == sender)
            .order_by(InboxMessage.id.desc())
        )


def test_orders_received_before_the_deadline_behind_a_backlog_count_in_time(referee, clock, outbox):
    """Bob's orders, given 250 by the listener 8 s before the deadline behind thirty large
    mails of a stranger, count for turn 1 though they are processed after it."""
    deadline = orders_game(referee, clock)
    clock.now = deadline - timedelta(seconds=40)
    with storing(referee) as port:
        for n in range(BACKLOG):
            submit(port, STRANGER, [DIPLO], large(n))
        clock.now = deadline - timedelta(seconds=8)
        submit(port, addr("Bob"), [DIPLO], orders("Bob", "Army Paris holds."))
    clock.now = deadline + timedelta(seconds=19)  # processing is that far behind
    assert referee.tick() == []  # the deadline waits for the mail received before it
    assert turn_open(referee)
    assert process_all(referee) == BACKLOG + 1
    assert referee.tick() == ["diplo"]
    ack = answer(outbox, "Bob")
    assert "Orders for turn 1 recorded" in ack and "too late" not in ack
    assert "Army Paris holds" in gm_orders(outbox)


def test_orders_received_after_the_deadline_are_late_while_it_waits_for_a_backlog(
    referee, clock, outbox
):
    """Carol's orders, received 5 s after the deadline while it still waits for the backlog
    received before it, are late: the turn closes without them, and she is told."""
    deadline = orders_game(referee, clock)
    clock.now = deadline - timedelta(seconds=40)
    with storing(referee) as port:
        for n in range(BACKLOG):
            submit(port, STRANGER, [DIPLO], large(n))
        clock.now = deadline - timedelta(seconds=8)
        submit(port, addr("Bob"), [DIPLO], orders("Bob", "Army Paris holds."))
        clock.now = deadline + timedelta(seconds=5)
        submit(port, addr("Carol"), [DIPLO], orders("Carol", "Fleet Brest holds."))
    clock.now = deadline + timedelta(seconds=19)
    assert process_all(referee) == BACKLOG + 2
    late = answer(outbox, "Carol")
    assert "turn 1 closed" in late and "too late" in late
    digest = gm_orders(outbox)
    assert "Army Paris holds" in digest and "Fleet Brest holds" not in digest


@pytest.mark.parametrize("senders", [1, BACKLOG], ids=["one stranger", "thirty addresses"])
def test_a_players_mail_is_answered_in_the_first_batch_before_a_strangers_backlog(
    referee, clock, outbox, senders
):
    """Thirty large mails stored before Bob's orders (from one stranger, or from thirty
    addresses) do not hold them up: they are taken up in the first batch and answered while
    most of the backlog still waits."""
    orders_game(referee, clock)
    with storing(referee) as port:
        for n in range(BACKLOG):
            sender = STRANGER if senders == 1 else f"flood{n}@stranger.example"
            submit(port, sender, [DIPLO], large(n, sender))
        submit(port, addr("Bob"), [DIPLO], orders("Bob", "Army Paris holds."))
    bob = inbox_id(referee, addr("Bob"))
    first = list(referee.process())  # the first batch, in the order taken up
    assert first[0] == bob
    assert len(first) < BACKLOG  # a batch holds at most BATCH_BYTES of mail
    assert len(first) * 300_000 <= BATCH_BYTES + 300_000
    assert "Orders for turn 1 recorded" in answer(outbox, "Bob")
    with referee.store() as s:
        waiting = s.query(InboxMessage).filter(InboxMessage.status == "new").count()
    assert waiting >= BACKLOG - len(first)


def test_a_deadline_fires_once_the_mail_received_before_it_is_processed(referee, clock, outbox):
    """Mail stored before the deadline and not yet processed holds the deadline; once it is
    processed the deadline fires, and mail after it waits for that and then goes on."""
    deadline = orders_game(referee, clock)
    clock.now = deadline - timedelta(seconds=1)
    (early,) = referee.keep([Incoming(orders("Ann", "Army Munich holds."), "smtp")])
    clock.now = deadline + timedelta(seconds=1)
    (after,) = referee.keep([Incoming(orders("Bob", "Army Paris holds."), "smtp")])
    assert referee.tick() == []
    # Bob's mail is taken up first: it waits for the deadline, which waits for Ann's mail.
    assert referee.process([after.id]) == {after.id: "new"}
    assert referee.process([early.id, after.id]) == {
        early.id: "processed",
        after.id: "processed",
    }
    assert "Orders for turn 1 recorded" in answer(outbox, "Ann")
    assert "too late" in answer(outbox, "Bob")
    assert "Army Munich holds" in gm_orders(outbox)


def test_a_deadline_that_fails_holds_up_no_mail_after_it(referee, clock, outbox, monkeypatch):
    """A game whose deadline cannot fire (a fault in its rules) does not keep the mail
    received after it waiting for good: that mail is answered, and the deadline stays due."""
    from mailref.engine.variants.turns import OrdersGame

    deadline = orders_game(referee, clock)

    def broken(self, state, ctx):
        raise RuntimeError("a fault in the rules")

    monkeypatch.setattr(OrdersGame, "fire_deadlines", broken)
    clock.now = deadline + timedelta(seconds=5)
    (stored,) = referee.keep([Incoming(mail(addr("Bob"), DIPLO, "[Status]"), "smtp")])
    assert referee.process([stored.id]) == {stored.id: "processed"}
    status = outbox.to(addr("Bob"))[-1]
    assert "Status" in status["Subject"] and "Turn 1" in Outbox.body(status)
    assert referee.due_games() == ["diplo"]
    monkeypatch.undo()  # the journal replays with the rules as they are
