"""What the players read when the turn order changes: a newcomer's place in it, and whose turn it is
once a turn is skipped (SPEC §5.1, rule 6)."""

from __future__ import annotations

import pytest

from support.helpers import Outbox
from support.joining import confirm
from support.sidekick import PLAYERS, addr, mover, send

pytestmark = pytest.mark.spec("5.1", "2.6")


def announcements(outbox: Outbox, who: str, subject_part: str) -> list:
    return [
        m
        for m in outbox.all()
        if m["To"] == addr(who)
        and m["X-Mailref-Kind"] == "announcement"
        and subject_part in str(m["Subject"])
    ]


def test_the_players_are_told_the_new_turn_order_when_someone_joins(sidekick_game, outbox):
    """Dave joins a game under way: Alice, Bob, Carol and Dave each read the whole new order in
    the join's announcement, and Dave's place in it."""
    send(sidekick_game, "dave", "[Join]", "Name: Dave\n")
    confirm(sidekick_game, addr("dave"))
    order = sidekick_game.state("nomes")["order"]
    assert len(order) == 4
    place = order.index("Dave") + 1
    for who in PLAYERS + ["dave"]:
        (news,) = announcements(outbox, who, "Dave joins the game")
        body = Outbox.body(news).replace("\r\n", "\n")
        assert f"Dave is at place {place} of the turn order (rule 6)" in body, body
        assert "\n".join(f"{i}. {n}" for i, n in enumerate(order, 1)) in body, body
    ack = Outbox.body([m for m in outbox.all() if m["To"] == addr("dave")][-1])
    assert "you included" in ack and "Dave joins the game" in ack, ack


def test_a_skip_announcement_says_whose_turn_it_is_now(sidekick_game, outbox):
    """The mover forfeits: everyone reads that the turn is skipped and who moves next."""
    first = mover(sidekick_game)
    send(sidekick_game, first.lower(), "[Forfeit]", "")
    nxt = mover(sidekick_game)
    assert nxt != first
    for who in PLAYERS:
        (news,) = announcements(outbox, who, "Turn 1 skipped")
        body = Outbox.body(news).replace("\r\n", "\n")
        assert f"{first}'s turn is skipped: forfeited (rule 8)." in body, body
        assert f"It is now {nxt}'s turn (turn 2)." in body, body


def test_a_skip_for_absence_says_whose_turn_it_is_now(sidekick_game, outbox):
    """The mover says they are away (rule 15): the skip names the next mover."""
    first = mover(sidekick_game)
    send(sidekick_game, first.lower(), f"{first} is away", "")
    nxt = mover(sidekick_game)
    news = announcements(outbox, [p for p in PLAYERS if p.title() != first][0], "Turn 1 skipped")
    assert news, [m["Subject"] for m in outbox.all()]
    assert f"It is now {nxt}'s turn (turn 2)." in Outbox.body(news[0])
