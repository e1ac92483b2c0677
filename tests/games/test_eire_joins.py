"""Eire by real SMTP: joins read colour and say what is wrong with a choice; orders one per line;
results when nobody ordered."""

from __future__ import annotations

import pytest

from support.table import text
from support.table_play import EIRE, eire

pytestmark = pytest.mark.spec("5.4")


def test_an_eire_join_reads_colour_and_says_what_is_wrong_with_a_choice(table):
    """Item 20: `Colour:` is read; a color the game lacks, a taken one and a missing origin are
    each answered as what they are, with a free color in the hint."""
    eire(table)
    got = table.join(
        "finn@x.org", EIRE, "Name: Finn\nColour: Gold\nTribe: Plainsmen\nOrigin: Llanc"
    )
    table.one(got, "finn@x.org")
    assert table.referee.state("eire")["players"][0]["color"] == "Gold"
    cases = [
        (
            "Colour: Blue\nTribe: Plainsmen\nOrigin: Donal",
            "Blue is not a color of this game; the free colors: Red, Green",
        ),
        (
            "Color: Gold\nTribe: Plainsmen\nOrigin: Donal",
            "Gold is taken; the free colors: Red, Green",
        ),
        (
            "Color: Red\nTribe: Plainsmen",
            "choose an Origin Land (you gave none); free for Plainsmen:",
        ),
    ]
    for body, want in cases:
        err = table.one(
            table.send("maeve@x.org", EIRE, "[Join]", f"Name: Maeve\n{body}"),
            "maeve@x.org",
            kind="error",
        )
        said = " ".join(text(err).split())
        assert want in said, said
        assert (
            "Gold, Green" not in said and "`Color: Gold`" not in said
        )  # a free one is offered, never a taken one


def test_eire_orders_one_per_line_and_results_when_nobody_ordered(table):
    """Item 20: two orders in one sentence are told to go one a line; a turn resolved with
    no orders at all says so under "Orders:"."""
    eire(table)
    for name, color, origin in (("Finn", "Green", "Llanc"), ("Maeve", "Red", "Donal")):
        table.join(
            f"{name.lower()}@x.org",
            EIRE,
            f"Name: {name}\nColor: {color}\nTribe: Plainsmen\nOrigin: {origin}",
        )
    assert table.referee.admin("eire", {"type": "start"}, "gm").ok
    table.deliver()
    got = table.send(
        "finn@x.org",
        EIRE,
        "[Orders]",
        "**Attack Bain with 10 Grain and Tara with 5 Grain**\n"
        "**Atack Bain with 6 Grain**\n**Attack Bain with ten Grain**",
    )
    said = " ".join(text(table.one(got, "finn@x.org")).split())  # an ack marking each refused order
    assert (
        "one order per line" in said
        and "did you mean Attack?" in said
        and "10 Grain, not ten Grain" in said
    )
    table.referee.clock.advance(days=2, seconds=1)  # turn_length 2d
    table.referee.tick()
    got = table.deliver()
    results = next(m for m in got["finn@x.org"] if m["X-Mailref-Kind"] == "results")
    body = text(results).replace("\r\n", "\n")
    # Nobody's orders stood; whose were all refused is said, not what they were.
    assert (
        "Orders:\n  Finn: no valid orders (3 refused)\n  Maeve: no orders\n" in body
        and "Late" not in body
    )
