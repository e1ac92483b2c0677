"""What Imperial's announcements tell the players: who votes on a proposal, and who the referee made
Emperor (SPEC §5.3)."""

from __future__ import annotations

import pytest

from support.helpers import Outbox
from support.imperial import PROP, G, addr, send
from support.joining import confirm

pytestmark = pytest.mark.spec("5.3", "2.6")


def test_a_proposal_announcement_asks_only_senators_to_vote(imperial_game, outbox):
    """Eve, a player but no Senator, reads that Senators other than the author vote and how one
    becomes a Senator, not an invitation to reply YES or NO."""
    send(imperial_game, "Eve", "[Join]", "Name: Eve")
    confirm(imperial_game, addr("Eve"))
    send(imperial_game, "Ann", "[Proposal] Dragons", PROP)
    (ann,) = [
        m for m in outbox.to(addr("Eve"), kind="announcement") if "[Proposal 1]" in m["Subject"]
    ]
    body = Outbox.body(ann)
    assert "Senators other than Ann: to vote, reply to this mail with YES, NO" in body, body
    assert "\nTo vote, reply" not in body, body
    assert "Voters: Ben, Cat, Dan." in body, body
    assert "Players who are not Senators do not vote" in body, body


def test_the_player_the_referee_makes_emperor_is_told(referee, outbox):
    """The first to join takes the empty throne and reads so, with what the Emperor does; when
    the Emperor has left, the next to join takes it, and every player reads it in the join's
    announcement, the new Emperor too."""
    referee.create_game("empire", "imperial", G)
    send(referee, "Joe", "[Join]", "Name: Joe")
    confirm(referee, addr("Joe"))
    alone = Outbox.body(outbox.to(addr("Joe"))[-1])  # the only player: the ack carries the news
    assert "the referee made Joe the Imperial Emperor" in alone and "[Judge] N" in alone, alone
    send(referee, "Ann", "[Join]", "Name: Ann")
    confirm(referee, addr("Ann"))
    ann = Outbox.body(outbox.to(addr("Ann"), kind="announcement")[-1])
    assert "Ann has joined" in ann and "Emperor" not in ann, ann
    send(referee, "Joe", "[Quit]", "")
    send(referee, "Bob", "[Join]", "Name: Bob")
    confirm(referee, addr("Bob"))
    for who in ("Ann", "Bob"):
        news = outbox.to(addr(who), kind="announcement")[-1]
        assert "Bob joins the game" in str(news["Subject"])
        assert "the referee made Bob the Imperial Emperor" in Outbox.body(news), Outbox.body(news)
    assert (
        "emperor"
        in next(p for p in referee.state("empire")["players"] if p["name"] == "Bob")["offices"]
    )


def test_an_emperor_added_by_the_admin_is_told_in_the_welcome(referee, outbox):
    """`mailref player add` answers the admin; the player it makes Emperor reads it in the
    welcome mail."""
    referee.create_game("empire", "imperial", G)
    done = referee.admin(
        "empire", {"type": "player_add", "name": "Joe", "address": addr("Joe")}, "gm"
    )
    assert done.ok
    (welcome,) = outbox.to(addr("Joe"))
    assert "the referee made Joe the Imperial Emperor" in Outbox.body(welcome), Outbox.body(welcome)
    assert "emperor" in referee.state("empire")["players"][0]["offices"]
