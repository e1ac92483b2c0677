"""Eire: declaring High King says what is lacking when it is sent."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, assert_replays
from support.joining import confirm_waiting
from support.play import addr, send

pytestmark = pytest.mark.spec("5.4")


def test_declare_high_king_says_what_is_lacking_when_it_is_sent(referee, outbox, clock):
    """Alice orders **Declare High King** holding one land and 20 Grain: the ack said "OK" and she
    learnt from the results that it failed. The ack now says it is decided at resolution and what
    she lacks as things stand."""
    eire = "eire@ref.example"
    referee.create_game(
        "eire",
        "eire",
        eire,
        gm="gm@ref.example",
        parameters={"turn_length": "1d", "start_grain": "20"},
    )
    for name, origin, color in (("alice", "Donal", "Red"), ("bob", "Llanc", "Gold")):
        send(
            referee,
            name,
            "[Join]",
            f"Name: {name.title()}\nColor: {color}\nTribe: Plainsmen\nOrigin: {origin}",
            to=eire,
        )
        confirm_waiting(referee)
    referee.admin("eire", {"type": "start"}, "gm")
    send(referee, "alice", "[Orders]", "**Declare High King**", to=eire)
    ack = " ".join(Outbox.body([m for m in outbox.all() if m["To"] == addr("alice")][-1]).split())
    assert "OK Declare High King — decided at resolution; as things stand you lack" in ack, ack
    assert "50 Grain (you have" in ack and "the Origin Lands of two other players" in ack
    assert "your Origin Land Donal" not in ack  # she holds it
    assert_replays(referee)
