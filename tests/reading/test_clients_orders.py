"""Orders as real clients write them: Outlook's several bold runs, a reply to the results."""

from __future__ import annotations

import pytest

from support import clients
from support.client_play import last, play
from support.helpers import Outbox
from support.joining import confirm_waiting
from support.play import addr

pytestmark = pytest.mark.spec("3.3")


def test_an_outlook_order_in_several_bold_runs_is_one_order(referee, outbox):
    """Outlook (Word's HTML) writes one bold line in several runs after a spell check or a
    language change: <b>Attack Donal with </b><b>10 Grain</b><b>.</b>. Each run was read as an
    order of its own ("Attack Donal with", "10 Grain"), all refused as unreadable. Bold runs
    side by side on a line are one bold span, as the reader sees them."""
    referee.create_game(
        "eire", "eire", "eire@ref.example", gm="gm@ref.example", parameters={"turn_length": "2d"}
    )
    for name, choices in {
        "Maeve": "Color: Red\nTribe: Plainsmen\nOrigin: Donal",
        "Oisin": "Color: Gold\nTribe: Merfolk\nOrigin: Reudh",
    }.items():
        play(
            referee,
            clients.fresh(
                addr(name), name, "eire@ref.example", "[Join]", f"Name: {name}\n{choices}\n"
            ),
        )
        confirm_waiting(referee)
    referee.admin("eire", {"type": "start"}, "gm@ref.example")
    turn = last(outbox, "Oisin", "turn", "[Turn 1]")
    play(
        referee,
        clients.outlook(
            turn,
            addr("Oisin"),
            "Oisin",
            "**Attack Donal with ****10 Grain****.**\n**Defend ****Reudh**** with 3 Grain**",
        ),
    )
    ack = Outbox.body(last(outbox, "Oisin", "ack"))
    assert "OK   Attack Donal with 10 Grain" in ack and "OK   Defend Reudh with 3 Grain" in ack, ack
    assert [o["text"] for o in referee.state("eire")["orders"]["Oisin"]["orders"]] == [
        "Attack Donal with 10 Grain",
        "Defend Reudh with 3 Grain",
    ]


def test_a_players_reply_to_the_results_is_chatter_or_the_next_turns_orders(referee, outbox, clock):
    """Players answered Eire's "[Results] Turn 1" by Reply: "Well fought!" got "[Results] is not
    a command of Eire", and their orders for turn 2 were refused the same way (in an orders game:
    "only the GM posts results"). A player's Reply to the results is now words for the others, or,
    with bold text, the orders for the turn now open."""
    referee.create_game(
        "eire", "eire", "eire@ref.example", gm="gm@ref.example", parameters={"turn_length": "2d"}
    )
    for name, choices in {
        "Maeve": "Color: Red\nTribe: Plainsmen\nOrigin: Donal",
        "Oisin": "Color: Gold\nTribe: Merfolk\nOrigin: Reudh",
    }.items():
        play(
            referee,
            clients.fresh(
                addr(name), name, "eire@ref.example", "[Join]", f"Name: {name}\n{choices}\n"
            ),
        )
        confirm_waiting(referee)
    referee.admin("eire", {"type": "start"}, "gm@ref.example")
    clock.advance(days=2, seconds=1)
    referee.tick()
    results = last(outbox, "Oisin", "results", "[Results] Turn 1")
    play(referee, clients.gmail(results, addr("Oisin"), "Oisin", "Well fought!"))
    text = Outbox.body(last(outbox, "Oisin", "error"))
    assert "I found no command in your reply" in text and "not a command of Eire" not in text
    play(referee, clients.outlook(results, addr("Oisin"), "Oisin", "**Defend Reudh with 3 Grain**"))
    assert "OK   Defend Reudh with 3 Grain" in Outbox.body(last(outbox, "Oisin", "ack"))
    assert (
        referee.state("eire")["orders"]["Oisin"]["orders"][0]["text"] == "Defend Reudh with 3 Grain"
    )
    assert referee.state("eire")["turn"]["number"] == 2
