"""Eire results say whose orders were all refused, and a correction shows the whole set."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, assert_replays
from support.joining import confirm_waiting
from support.play import addr, send

pytestmark = pytest.mark.spec("5.4")


def test_eire_results_say_whose_orders_were_all_refused_and_a_correction_shows_the_whole_set(
    referee, outbox, clock
):
    """Alice's only orders were refused and she never corrected them: the results used to say
    "none: nobody sent orders". Bob corrects a refused order: his ack now shows the set that
    stands."""
    eire = "eire@ref.example"
    referee.create_game(
        "eire",
        "eire",
        eire,
        gm="gm@ref.example",
        parameters={"turn_length": "1d", "start_grain": "20"},
    )
    for name, origin in (("alice", "Donal"), ("bob", "Llanc")):
        send(
            referee,
            name,
            "[Join]",
            f"Name: {name.title()}\nColor: {'Red' if name == 'alice' else 'Gold'}\n"
            f"Tribe: Plainsmen\nOrigin: {origin}",
            to=eire,
        )
        confirm_waiting(referee)
    referee.admin("eire", {"type": "start"}, "gm")
    send(referee, "alice", "[Orders]", "**Attack Tara with 5 Grain**", to=eire)
    send(
        referee,
        "bob",
        "[Orders]",
        "**Invest 5 Grain in Llanc**\n**Atack Bain with 5 Grain**",
        to=eire,
    )
    send(referee, "bob", "[Orders]", "**Defend Llanc with 5 Grain**", to=eire)
    ack = Outbox.body([m for m in outbox.all() if m["To"] == addr("bob")][-1]).replace("\r\n", "\n")
    assert (
        "Your orders for turn 1 now: Invest 5 Grain in Llanc; Defend Llanc with 5 Grain." in ack
    ), ack
    clock.advance(days=1, seconds=1)
    referee.tick()
    results = Outbox.body([m for m in outbox.all() if m["X-Mailref-Kind"] == "results"][0]).replace(
        "\r\n", "\n"
    )
    assert "  Alice: no valid orders (1 refused)\n" in results, results
    assert "Tara" not in results.split("Combats:")[0]  # what was refused stays private
    assert_replays(referee)
