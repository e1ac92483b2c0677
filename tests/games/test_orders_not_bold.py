"""Only bold text is an order (SPEC §3.3): the ack names a line that looks like an order but is not
bold, and the turn mail says how to write bold in a plain-text mail."""

from __future__ import annotations

import pytest

from support.helpers import EIRE_PLAYERS, Outbox, mail, player_addr
from support.joining import confirm
from support.play import addr, send
from support.snapshots import play_once

pytestmark = pytest.mark.spec("3.3", "5.5", "2.6")

DIP = "dip@ref.example"
EIRE = "eire@ref.example"


@pytest.fixture
def dip(request, referee):
    def opening() -> None:
        referee.create_game(
            "dip", "orders", DIP, gm="gm@ref.example", parameters={"turn_length": "1d"}
        )
        for n in ("ann", "ben"):
            send(referee, n, "[Join]", f"Name: {n.title()}", to=DIP)
            confirm(referee, addr(n))
        assert referee.admin("dip", {"type": "start"}, "gm").ok

    play_once(request, referee, opening)
    return referee


def last_to(outbox: Outbox, address: str) -> str:
    return Outbox.body(outbox.to(address)[-1]).replace("\r\n", "\n")


def test_the_turn_mail_says_how_to_write_bold_in_plain_text(dip, outbox):
    (turn,) = outbox.to(addr("ann"), kind="turn")
    body = " ".join(Outbox.body(turn).split())
    assert "Only bold text is read as orders" in body, body
    assert "write bold with two stars on each side, **Your order, in bold.**" in body, body


def test_an_order_like_line_without_bold_is_named_in_the_ack(dip, outbox):
    """Ann bolds one unit order and forgets the second: the ack records the first and names the
    second as not read; her greeting is not mentioned."""
    send(
        dip,
        "ann",
        "[Orders]",
        "Hello all,\n\n**A Paris - Burgundy**\nF Brest - English Channel\n\nSee you, Ann\n",
        to=DIP,
    )
    ack = last_to(outbox, addr("ann"))
    assert "OK   A Paris - Burgundy" in ack, ack
    assert (
        'Not bold, so not read as an order: "F Brest - English Channel" '
        "(in bold: **F Brest - English Channel**)" in ack
    ), ack
    assert "Hello all" not in ack and "See you" not in ack, ack
    orders = dip.state("dip")["orders"]["Ann"]["orders"]
    assert [o["text"] for o in orders] == ["A Paris - Burgundy"]


def test_a_line_like_a_bold_order_of_the_same_mail_is_named(dip, outbox):
    """A game's own notation: a line beginning as a bold order of the same mail does."""
    send(dip, "ben", "[Orders]", "**Build fleet in London**\nBuild army in Liverpool\n", to=DIP)
    ack = last_to(outbox, addr("ben"))
    assert 'not read as an order: "Build army in Liverpool"' in ack, ack


def test_a_mail_with_no_bold_names_the_line_that_looks_like_an_order(dip, outbox):
    send(dip, "ann", "[Orders]", "A Paris - Burgundy\n", to=DIP)
    error = last_to(outbox, addr("ann"))
    assert "I found no bold text" in error, error
    assert '"A Paris - Burgundy" looks like one, but is not in bold' in error, error


def test_an_eire_order_without_bold_is_named_in_the_ack(referee, outbox):
    referee.create_game("eire", "eire", EIRE, gm="gm@ref.example")
    for name, choices in EIRE_PLAYERS.items():
        referee.accept(mail(player_addr(name), EIRE, "[Join]", f"Name: {name}\n{choices}"), "smtp")
        confirm(referee, player_addr(name))
    assert referee.admin("eire", {"type": "start"}, "gm").ok
    turn = " ".join(Outbox.body(outbox.to(player_addr("Finn"), kind="turn")[-1]).split())
    assert "**Defend Donal with 5 Grain.**" in turn, turn
    referee.accept(
        mail(
            player_addr("Finn"),
            EIRE,
            "[Orders]",
            "**Invest 5 Grain in Llanc**\nDefend Llanc with 5 Grain\nGood luck everyone.\n",
        ),
        "smtp",
    )
    ack = last_to(outbox, player_addr("Finn"))
    assert "OK   Invest 5 Grain in Llanc" in ack, ack
    assert 'not read as an order: "Defend Llanc with 5 Grain"' in ack, ack
    assert "Good luck" not in ack, ack
