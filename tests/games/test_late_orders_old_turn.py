"""Late orders naming an old turn are not taken for the next."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, assert_replays, last_to, mail
from support.joining import confirm_waiting
from support.play import addr, send  # the same players' addresses, mail sent the same way
from support.play_four import last

pytestmark = pytest.mark.spec("3.3")


def test_late_orders_naming_an_old_turn_are_not_taken_for_the_next(referee, outbox, clock):
    """Zoë's "[Orders] turn 11" and Carol's Reply to "[Turn 11] Orders are due …" arrived after
    turn 11 was over: both were recorded as turn 12's orders without a word (in Eire, orders once
    sent cannot be changed). Orders that name a turn now count for that turn only."""
    dip = "dip@ref.example"
    referee.create_game("dip", "orders", dip, gm="gm@ref.example", parameters={"turn_length": "1d"})
    for n in ("ann", "ben"):
        send(referee, n, "[Join]", f"Name: {n.title()}", to=dip)
        confirm_waiting(referee)
    referee.admin("dip", {"type": "start"}, "gm")
    turn1 = last(outbox, addr("ann"), "turn", "[Turn 1]")
    send(referee, "ann", "[Orders]", "**A Paris - Burgundy**", to=dip)
    send(referee, "ben", "[Orders]", "**A Munich - Ruhr**", to=dip)
    referee.accept(
        mail(
            "gm@ref.example",
            dip,
            "[Results] Spring 1901",
            "All moves succeed.",
            in_reply_to=last_to(referee, "gm@ref.example", dip),
        ),
        "smtp",
    )
    assert referee.state("dip")["turn"]["number"] == 2
    referee.accept(
        mail(
            addr("ann"),
            dip,
            "Re: " + str(turn1["Subject"]),
            "**A Burgundy - Munich**",
            in_reply_to=turn1["Message-ID"],
        ),
        "smtp",
    )
    error = last(outbox, addr("ann"), "error")
    assert error["X-Mailref-Refusal"] == "orders_for_past_turn"
    answer = Outbox.body(error)
    assert (
        "your orders are for turn 1, which is over; turn 2 is open now, and nothing was recorded "
        "for it" in answer
    )
    send(referee, "ben", "[Orders] turn 3", "**A Ruhr - Holland**", to=dip)
    error = last(outbox, addr("ben"), "error")
    assert error["X-Mailref-Refusal"] == "orders_for_future_turn"
    assert "your orders are for turn 3, which has not opened yet" in Outbox.body(error)
    assert not referee.state("dip")["orders"]
    send(referee, "ben", "[Orders] turn 2", "**A Ruhr - Holland**", to=dip)
    assert referee.state("dip")["orders"]["Ben"]
    assert_replays(referee)
