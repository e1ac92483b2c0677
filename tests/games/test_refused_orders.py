"""A refused order does not count as sent (SPEC §3.3): its author may send the missing orders
until the deadline even where orders are final (Eire), the turn waits for them, and the ack
and the GM's digest say which orders were refused. Through real SMTP sessions."""

from __future__ import annotations

import pytest

from support.helpers import EIRE_PLAYERS, Outbox, assert_replays, mail, player_addr
from support.joining import confirm_waiting
from support.listener import listening, submit
from support.paths import CORPUS
from support.snapshots import play_once

pytestmark = pytest.mark.spec("3.3")

EIRE = "eire@ref.example"
PLAYERS, addr = EIRE_PLAYERS, player_addr


@pytest.fixture
def eire(request, referee):
    with listening(referee) as port:

        def send(who: str, subject: str, body: str) -> None:
            submit(port, addr(who), [EIRE], mail(addr(who), EIRE, subject, body))

        def opening() -> None:
            referee.create_game(
                "eire", "eire", EIRE, gm="gm@ref.example", parameters={"start_grain": "20"}
            )
            for name, choices in PLAYERS.items():
                send(name, "[Join]", f"Name: {name}\n{choices}\n")
                confirm_waiting(referee)
            assert referee.admin("eire", {"type": "start"}, "gm").ok

        play_once(request, referee, opening)
        yield send
    assert_replays(referee)


def last_reply(outbox: Outbox, who: str) -> str:
    return Outbox.body(
        [
            m
            for m in outbox.all()
            if m["To"] == addr(who) and m["X-Mailref-Kind"] in ("ack", "error")
        ][-1]
    )


def test_a_typo_waits_for_the_correction_even_though_orders_are_final(referee, outbox, eire):
    send = eire
    send("Finn", "[Orders]", "**Invest 5 Grain in Llanc.** **Defend Llnac with 5 Grain**")
    ack = last_reply(outbox, "Finn")
    assert "OK   Invest 5 Grain in Llanc" in ack and "NOT  Defend Llnac with 5 Grain" in ack
    assert "did you mean Llanc?" in ack and "does not count as sent" in ack
    send("Maeve", "[Orders]", "**Defend Donal with 5 Grain**")
    state = referee.state("eire")
    assert state["turn"]["number"] == 1, "the turn waits for Finn's missing order"

    # the GM's digest names the refused order
    referee.admin("eire", {"type": "digest"}, "gm")
    digest = Outbox.body([m for m in outbox.all() if m["X-Mailref-Kind"] == "digest"][-1])
    assert (
        "Refused orders" in digest
        and "Finn: Defend Llnac with 5 Grain — there is no land" in digest
    )

    # orders are final in Eire, but the refused one was never sent: the correction is taken
    send("Finn", "[Orders]", "**Defend Llanc with 5 Grain**")
    ack = last_reply(outbox, "Finn")
    assert "OK   Defend Llanc with 5 Grain" in ack
    state = referee.state("eire")
    assert state["turn"]["number"] == 2, "every order is in: the turn resolves at once"
    turn1 = state["history"][-1]["orders"]["Finn"]["orders"]
    assert [o["text"] for o in turn1] == ["Invest 5 Grain in Llanc", "Defend Llanc with 5 Grain"]


def test_more_grain_than_held_is_refused_and_a_complete_player_may_not_send_again(
    referee, outbox, eire
):
    send = eire
    grain = referee.state("eire")["grain"]["Finn"]
    send(
        "Finn", "[Orders]", f"**Invest {grain - 5} Grain in Llanc** **Defend Llanc with 10 Grain**"
    )
    assert "NOT  Defend Llanc with 10 Grain — only 5 Grain left" in last_reply(outbox, "Finn")
    # the correction is counted against what the accepted orders already spend
    send("Finn", "[Orders]", "**Defend Llanc with 6 Grain**")
    assert "NOT  Defend Llanc with 6 Grain — only 5 Grain left" in last_reply(outbox, "Finn")
    send("Finn", "[Orders]", "**Defend Llanc with 5 Grain**")
    assert "OK   Defend Llanc with 5 Grain" in last_reply(outbox, "Finn")
    # now Finn's orders are complete, and final
    send("Finn", "[Orders]", "**Invest 1 Grain in Llanc**")
    assert "you cannot edit your orders" in last_reply(outbox, "Finn")
    assert [o["text"] for o in referee.state("eire")["orders"]["Finn"]["orders"]] == [
        f"Invest {grain - 5} Grain in Llanc",
        "Defend Llanc with 5 Grain",
    ]


def test_without_a_correction_the_turn_resolves_at_its_deadline(referee, outbox, clock, eire):
    send = eire
    send("Finn", "[Orders]", "**Attack Narnia with 5 Grain**")
    send("Maeve", "[Orders]", "**Defend Donal with 5 Grain**")
    assert referee.state("eire")["turn"]["number"] == 1
    clock.advance(hours=36, minutes=1)  # 12 hours before the deadline: Finn has not yet ordered
    referee.tick()
    reminded = [m["To"] for m in outbox.all() if m["X-Mailref-Kind"] == "reminder"]
    assert reminded == [addr("Finn")]
    clock.advance(days=1)
    referee.tick()
    state = referee.state("eire")
    assert state["turn"]["number"] == 2
    assert state["history"][-1]["orders"]["Finn"]["orders"] == []


def test_an_outlook_web_reply_in_an_orders_game_gives_only_the_players_bold_orders(referee, outbox):
    """The quoted header block's bold From:/Sent:/To: and the quoted example order are no orders."""

    game = "diplo@ref.example"
    referee.create_game("diplo", "orders", game, gm="gm@ref.example")
    with listening(referee) as port:
        submit(port, addr("Oisin"), [game], mail(addr("Oisin"), game, "[Join]", "Name: Oisin\n"))
        confirm_waiting(referee)
        assert referee.admin("diplo", {"type": "start"}, "gm").ok
        raw = (CORPUS / "owa_orders.eml").read_bytes()
        raw = raw.replace(b"oisin@outlook.example", addr("Oisin").encode()).replace(
            b"eire@ref.example", game.encode()
        )
        # The mail was sent in Eire's turn 3; orders naming a turn count for that turn only.
        raw = raw.replace(b"Subject: RE: [Orders] Turn 3", b"Subject: RE: [Orders] Turn 1")
        submit(port, addr("Oisin"), [game], raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))
    state = referee.state("diplo")
    sent = (
        state["orders"]["Oisin"]["orders"]
        if state["orders"]
        else state["history"][-1]["orders"]["Oisin"]["orders"]
    )
    assert [o["text"] for o in sent] == ["Attack Reudh with 12 Grain", "Defend Bain with 4 Grain"]
    assert_replays(referee)
