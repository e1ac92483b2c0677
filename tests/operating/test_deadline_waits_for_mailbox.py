"""The daemon's deadlines wait for a pass over the IMAP mailbox that began after them (SPEC
§2.1), for a while at most: a server that cannot be read holds no game for good."""

from __future__ import annotations

import logging
from datetime import timedelta

import pytest

from mailref import daemon_timers
from mailref.daemon_timers import DeadlineTimers
from mailref.mail.imap import Poller
from mailref.timeutil import utcnow
from support.imap import imap_cfg

pytestmark = pytest.mark.spec("2.1")


class Timers(DeadlineTimers):
    def __init__(self, referee):
        self.referee = referee


class Server:
    port = 1  # never connected to


def test_a_deadline_waits_for_the_mailbox_then_fires_said_once(referee, monkeypatch, caplog):
    """Before a pass that began after the deadline the mailbox counts as read up to before it
    (the deadline waits, and a pass is asked for); one that began after it lets it fire; with no
    such pass within IMAP_PATIENCE it fires anyway, and that is said once."""
    poller = Poller(imap_cfg(Server(), "INBOX"), referee)
    Timers(referee).wait_for_mailbox(poller)
    read = referee.mailbox_read
    due = utcnow() - timedelta(seconds=5)
    assert read(due) < due and poller.wake.is_set()
    poller.read_through = due + timedelta(seconds=1)
    assert read(due) == poller.read_through
    later = utcnow() - timedelta(seconds=1)
    monkeypatch.setattr(daemon_timers, "IMAP_PATIENCE", timedelta(0))
    with caplog.at_level(logging.WARNING, logger="mailref"):
        assert read(later) >= later
        assert read(later) >= later
    said = [r for r in caplog.records if "without the mailbox read up to it" in r.getMessage()]
    assert len(said) == 1
