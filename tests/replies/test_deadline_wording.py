"""Deadlines as people read them (SPEC §2.6): `[Status]` says how far off each deadline is, and a
deadline change that goes out after it was made never says "now"."""

from __future__ import annotations

import pytest

from mailref.timeutil import iso
from support import imperial
from support.helpers import Outbox
from support.joining import confirm
from support.play import addr, nomes, send

pytestmark = pytest.mark.spec("2.6")


def status(outbox: Outbox, who: str, address=addr) -> str:
    return Outbox.body(outbox.to(address(who), kind="status")[-1])


def test_a_sidekick_status_says_in_how_many_days_the_turn_ends(referee, outbox, clock):
    nomes(referee)
    clock.advance(days=1)
    send(referee, "bob", "[Status]")
    body = status(outbox, "bob")
    assert "deadline Sun 6 Dec 2026 10:00 UTC, in 4 days" in body, body


def test_an_imperial_status_says_in_how_many_days_the_votes_are_due(imperial_game, outbox):
    imperial.send(imperial_game, "Ann", "[Proposal] Dragons", imperial.PROP)
    imperial.at(imperial_game, days=1)
    imperial.send(imperial_game, "Ben", "[Status]")
    body = status(outbox, "Ben", imperial.addr)
    assert "(votes due Sat 5 Dec 2026 10:00 UTC, in 3 days)" in body, body


def test_an_orders_status_says_in_how_many_hours_the_orders_are_due(referee, outbox, clock):
    dip = "dip@ref.example"
    referee.create_game("dip", "orders", dip, gm="gm@ref.example", parameters={"turn_length": "1d"})
    for n in ("ann", "ben"):
        send(referee, n, "[Join]", f"Name: {n.title()}", to=dip)
        confirm(referee, addr(n))
    referee.admin("dip", {"type": "start"}, "gm")
    clock.advance(hours=6)
    send(referee, "ann", "[Status]", to=dip)
    body = status(outbox, "ann")
    assert "orders are due Wed 2 Dec 2026 10:00 UTC, in 18 hours" in body, body


def test_a_deadline_change_queued_while_the_daemon_is_down_does_not_say_now(referee, outbox, clock):
    """The daemon is down past the turn's deadline; the GM sets the deadline to the present with
    `mailref deadline`; the daemon starts two hours later. The players read that the deadline was
    due at once when it was set, and the turn then skipped, never "now" for a time gone."""
    first = nomes(referee)
    clock.advance(days=6)  # no tick: nothing runs the deadlines
    assert referee.admin("nomes", {"type": "deadline", "when": iso(clock.now)}, "gm").ok
    clock.advance(hours=2)
    referee.tick()
    (changed,) = [m for m in outbox.to(addr("bob")) if "Deadline changed" in str(m["Subject"])]
    body = Outbox.body(changed)
    assert "to Mon 7 Dec 2026 10:00 UTC (due at once when it was set)." in body, body
    assert ", now" not in body, body
    assert referee.state("nomes")["turn"]["player"] != first  # and the deadline then fired


def test_a_deadline_set_in_the_past_says_it_was_already_past(referee, outbox, clock):
    nomes(referee)
    when = clock.now
    clock.advance(hours=3)
    assert referee.admin("nomes", {"type": "deadline", "when": iso(when)}, "gm").ok
    (changed,) = [m for m in outbox.to(addr("bob")) if "Deadline changed" in str(m["Subject"])]
    body = Outbox.body(changed)
    assert "to Tue 1 Dec 2026 10:00 UTC (already past when it was set)." in body, body
    assert " ago" not in body, body
