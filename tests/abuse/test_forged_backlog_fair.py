"""A backlog forged From a player does not put her own mail last (SPEC §2.1): the fair queue
takes the From and the envelope's sender together, so thirty large mails From Bob sent by
another envelope are a queue of their own. Keyed on From alone, Bob's real orders waited
behind all of them (17.6 s instead of 0.7 s)."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from mailref.store import InboxMessage
from support.fair_time import DIPLO, addr, answer, orders, orders_game
from support.helpers import mail
from support.listener import storing, submit

pytestmark = pytest.mark.spec("2.1")

BACKLOG = 30


def large(n: int, sender: str) -> bytes:
    """A mail of about 300 KB with no command, From SENDER."""
    return mail(sender, DIPLO, f"Read this {n}", ("all work and no play " * 4 + "\n") * 3600)


def test_a_backlog_forged_from_bob_does_not_hold_up_bobs_orders(referee, clock, outbox):
    orders_game(referee, clock)
    with storing(referee) as port:
        for n in range(BACKLOG):
            submit(port, "forger@evil.example", [DIPLO], large(n, addr("Bob")))
        submit(port, addr("Bob"), [DIPLO], orders("Bob", "Army Paris holds."))
    with referee.store() as s:
        bob = s.scalar(
            select(func.max(InboxMessage.id)).where(InboxMessage.mail_from == addr("Bob"))
        )
    first = list(referee.process())  # the first batch, in the order taken up
    assert bob in first[:2]
    assert "Orders for turn 1 recorded" in answer(outbox, "Bob")
