"""A newcomer during a turn gets the turn mail."""

from __future__ import annotations

import pytest

from support.helpers import Outbox
from support.joining import confirm_waiting
from support.long_games import EIRE, eire
from support.play import addr, send  # the same players' addresses, mail sent the same way

pytestmark = pytest.mark.spec("2.5")


def test_a_newcomer_during_a_turn_gets_the_turn_mail(referee, outbox, clock):
    """Oisin joined Eire while turn 1 was open: his answer said "Oisin of the Merfolk, Gold,
    rises in Reudh" and nothing of the turn the others were ordering in, though it waited for
    his orders. He now gets the turn's mail (folded into his answer: one mail). So does a
    player the admin adds, beside the welcome."""
    eire(
        referee,
        Finn="Color: Green\nTribe: Plainsmen\nOrigin: Llanc",
        Maeve="Color: Red\nTribe: Plainsmen\nOrigin: Donal",
    )
    outbox.new()
    send(
        referee,
        "oisin",
        "[Join]",
        "Name: Oisin\nColor: Gold\nTribe: Merfolk\nOrigin: Reudh\n",
        to=EIRE,
    )
    confirm_waiting(referee)
    mine = [
        m for m in outbox.new() if m["To"] == addr("oisin") and m["X-Mailref-Kind"] != "confirm"
    ]
    assert sorted(m["X-Mailref-Kind"] for m in mine) == ["ack", "announcement"]  # his join
    text = Outbox.body(next(m for m in mine if m["X-Mailref-Kind"] == "ack"))
    assert 'Also for you alone ("[Eire] [Turn 1] Orders are due Thu 3 Dec 2026 10:00 UTC")' in text
    assert (
        "Send your orders in a mail with the subject [Orders] before Thu 3 Dec 2026 10:00 UTC"
        in text
    )
    referee.admin(
        "eire",
        {
            "type": "player_add",
            "name": "Niamh",
            "address": addr("niamh"),
            "more": [],
            "choices": {"color": "Teal", "tribe": "Plainsmen", "origin": "Bain"},
        },
        "gm@ref.example",
    )
    mine = [m for m in outbox.new() if m["To"] == addr("niamh")]
    assert sorted(m["X-Mailref-Kind"] for m in mine) == ["announcement", "turn"]
    welcome = next(m for m in mine if m["X-Mailref-Kind"] == "announcement")
    assert "Niamh of the Plainsmen, Teal, rises in Bain." in Outbox.body(welcome)
