"""Late orders in an orders game are told the turn closed."""

from __future__ import annotations

import pytest

from support.helpers import Outbox
from support.joining import confirm_waiting
from support.play import addr, send

pytestmark = pytest.mark.spec("3.3")


def test_late_orders_in_an_orders_game_are_told_the_turn_closed(referee, outbox, clock):
    """The deadline of turn 1 passed and the GM is adjudicating; Ann's orders arrive then. The
    answer was "no turn is open for orders": now it says the turn closed when, and what to do."""
    dip = "dip@ref.example"
    referee.create_game("dip", "orders", dip, gm="gm@ref.example", parameters={"turn_length": "1d"})
    for n in ("ann", "ben"):
        send(referee, n, "[Join]", f"Name: {n.title()}", to=dip)
        confirm_waiting(referee)
    referee.admin("dip", {"type": "start"}, "gm")
    clock.advance(days=1, seconds=1)
    referee.tick()
    digest = next(m for m in outbox.all() if m["X-Mailref-Kind"] == "digest")
    assert "(a plain Reply to this mail will do)" in Outbox.body(digest)
    send(referee, "ann", "[Orders]", "**A Paris - Burgundy**", to=dip)
    said = " ".join(Outbox.body([m for m in outbox.all() if m["To"] == addr("ann")][-1]).split())
    assert "turn 1 closed Wed 2 Dec 2026 10:00 UTC, and the GM is adjudicating it" in said, said
    assert "Send them again when turn 2 opens (the GM's results open it)." in said, said
    send(referee, "ann", "[Status]", to=dip)
    status = Outbox.body([m for m in outbox.all() if m["To"] == addr("ann")][-1])
    assert "Turn 1: closed Wed 2 Dec 2026 10:00 UTC; the GM is adjudicating it" in status
    assert "nobody yet" not in status
