"""A mail polled from IMAP counts at the server's INTERNALDATE (SPEC §2.1): a deadline waits
for a pass over the mailbox that began after it, and a mail the server received before the
deadline counts for the turn that was open, though it is fetched after the deadline."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from mailref.mail.imap import Poller
from support.fair_time import answer, gm_orders, orders, orders_game, turn_open
from support.helpers import Outbox
from support.imap import imap_cfg

pytestmark = [pytest.mark.dovecot, pytest.mark.spec("2.1")]


@pytest.fixture
def box(dovecot, request):
    """A fresh folder of its own, so the test never sees another's mail."""
    name = "f" + str(abs(hash(request.node.name)) % 10**8)
    c = dovecot.client()
    for f in (name, f"{name}-done", f"{name}-rejected"):
        if c.folder_exists(f):
            c.delete_folder(f)
    c.create_folder(name)
    yield name, c
    c.logout()


def test_a_mail_the_server_received_before_the_deadline_counts_though_fetched_after_it(
    referee, clock, dovecot, box
):
    """Ann's orders reached the mailbox 40 s before the deadline and are fetched 20 s after
    it: the deadline waited for that pass, and they count; Carol's, received after it, are
    late."""
    folder, c = box
    deadline = orders_game(referee, clock)
    poller = Poller(imap_cfg(dovecot, folder), referee)
    referee.mailbox_read = poller.read_up_to  # as the daemon has it (daemon_timers.py)
    pc = poller.connect()
    assert poller.drain(pc) == 0  # read through an hour before the deadline
    clock.now = deadline + timedelta(seconds=20)
    assert referee.tick() == []  # no pass over the mailbox has begun since the deadline
    assert turn_open(referee)
    now = datetime.now(UTC)
    c.append(folder, orders("Ann", "Army Munich holds."), msg_time=now - timedelta(seconds=60))
    c.append(folder, orders("Carol", "Fleet Brest holds."), msg_time=now)
    assert poller.drain(pc) == 2
    pc.logout()
    outbox = Outbox(referee)
    ack = answer(outbox, "Ann")
    assert "Orders for turn 1 recorded" in ack and "too late" not in ack
    assert "too late" in answer(outbox, "Carol")
    digest = gm_orders(outbox)
    assert "Army Munich holds" in digest and "Fleet Brest holds" not in digest
    assert not turn_open(referee)
