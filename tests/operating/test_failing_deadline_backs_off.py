"""A deadline that fails (not the database: a value the game cannot run by, a bug) is said once
to the log, with its traceback, and once to the GM, and tried again with a growing wait: it
failed every 2 s with a traceback and no alert. The other games' deadlines are not held up."""

from __future__ import annotations

import asyncio
import logging

import pytest

from mailref import daemon_timers
from mailref.daemon_timers import DeadlineTimers
from mailref.store import Game
from mailref.store.faults import FaultLog
from support import helpers
from support.helpers import Outbox

pytestmark = pytest.mark.spec("7")

G = "nomes@ref.example"


class Timers(DeadlineTimers):
    def __init__(self, referee):
        self.referee, self.failing = referee, {}
        self.stopping = asyncio.Event()
        self.faults = FaultLog(logging.getLogger("mailref"))

    def _locked(self, fn, *args):
        return fn(*args)

    def _failed(self, what, exc):
        raise AssertionError(f"{what}: {exc}")


def test_a_failing_deadline_is_said_once_and_tried_later_and_later(
    referee, clock, monkeypatch, caplog
):
    referee.create_game("nomes", "sidekick", G, gm="gm@ref.example")
    for name in ("Alice", "Bob"):
        a = f"{name.lower()}@example.org"
        referee.admin("nomes", {"type": "player_add", "name": name, "address": a, "more": []}, "x")
    # A game that stored a turn length before lengths were bounded: its next turn cannot open.
    with referee.store() as s, s.begin():
        g = s.query(Game).one()
        g.state = {**g.state, "parameters": {**g.state["parameters"], "turn_timeout": "999999w"}}
    helpers.REFEREES.remove(referee)  # its state is no longer its journal's, on purpose
    clock.advance(days=5, seconds=1)
    outbox = Outbox(referee)
    outbox.new()
    now = [1000.0]
    monkeypatch.setattr(daemon_timers.time, "monotonic", lambda: now[0])
    timers = Timers(referee)
    with caplog.at_level(logging.INFO, logger="mailref"):
        waits = []
        for _ in range(14):
            asyncio.run(timers.tick_each(["nomes"]))
            asyncio.run(timers.tick_each(["nomes"]))  # within the wait: not tried
            at, wait = timers.failing["nomes"]
            waits.append(wait)
            now[0] = at
        errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert len(errors) == 1 and errors[0].exc_info, [r.getMessage() for r in errors]
        assert waits[:3] == [2.0, 4.0, 8.0] and waits[-1] == daemon_timers.RETRY_MOST
        (alert,) = outbox.to("gm@ref.example", outbox.new())
        assert "cannot fire" in str(alert["Subject"]) and "turn_timeout" not in str(alert["To"])
        # The GM sets a length the game runs by: the deadline fires at its next try, said once.
        assert referee.admin("nomes", {"type": "set", "values": {"turn_timeout": "5d"}}, "gm").ok
        asyncio.run(timers.tick_each(["nomes"]))
        assert referee.state("nomes")["turn"]["number"] == 2 and not timers.failing
        assert any("fired again" in r.getMessage() for r in caplog.records)
    # A game failing is no cause to fire any other game's deadline late.
    assert referee.earliest_wakeup({"nomes"}) is None
