"""BlogNomic: the wizards are told when dormancy begins and ends."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, assert_replays
from support.joining import confirm_waiting
from support.play import addr, send  # the same players' addresses, mail sent the same way
from support.play_four import BLOG, PLAYERS, last, propose_gold

pytestmark = pytest.mark.spec("5.2")


def test_the_wizards_are_told_when_dormancy_begins_and_ends(referee, outbox):
    """Dan goes Idle and four Wizards are left: BlogNomic is Dormant and proposals are refused,
    but nobody was told until a proposal bounced. The game's fifth join and an Idle now say so."""
    referee.create_game("blog", "blognomic", BLOG, gm="gm@ref.example")
    for p in PLAYERS:
        send(referee, p, "[Join]", f"Name: {p.title()}\n", to=BLOG)
        confirm_waiting(referee)
    assert not [
        m for m in outbox.all() if "Dormant" in str(m["Subject"])
    ]  # dormant from the start: no news
    send(referee, "dan", "[Join]", "Name: Dan\n", to=BLOG)
    confirm_waiting(referee)
    new = outbox.new()
    news = [m for m in new if "No longer Dormant" in str(m["Subject"])]
    assert sorted(m["To"] for m in news) == sorted(addr(p) for p in [*PLAYERS, "dan"])
    ack = next(m for m in new if m["To"] == addr("dan") and m["X-Mailref-Kind"] == "ack")
    assert "No longer Dormant" in Outbox.body(ack)  # the ack names what Dan's join set off
    mine = next(m for m in news if m["To"] == addr("dan"))
    assert "BlogNomic is no longer Dormant: proposals may be submitted again." in Outbox.body(mine)
    send(referee, "dan", "[Idle]", "", to=BLOG)
    told = last(outbox, addr("alice"), "announcement", "Dormant")
    assert (
        "BlogNomic is Dormant: there are fewer than 5 Wizards, so proposals may not be submitted"
        in Outbox.body(told)
    )
    assert_replays(referee)


def test_a_new_game_short_of_wizards_says_it_is_dormant_and_what_wakes_it(referee, outbox):
    """A BlogNomic game with fewer than five Wizards is Dormant from creation: its first
    [Proposal] was refused with no hint of what to do, and [Status] never said "Dormant"."""
    referee.create_game("blog", "blognomic", BLOG, gm="gm@ref.example")
    for p in PLAYERS:
        send(referee, p, "[Join]", f"Name: {p.title()}\n", to=BLOG)
        confirm_waiting(referee)
    send(referee, "alice", "[Status]", to=BLOG)
    said = " ".join(Outbox.body(last(outbox, addr("alice"), "status")).split())
    assert "Dormant: fewer than 5 Wizards, so proposals may not be submitted until 5 play" in said
    propose_gold(referee)
    refused = " ".join(Outbox.body(last(outbox, addr("alice"), "error")).split())
    assert "Dormant" in refused and "more players may send [Join]" in refused
    assert_replays(referee)


def test_the_gms_fix_is_told_in_words_and_a_later_idle_is_announced(referee, outbox):
    """The GM's `game set dormant_below=3` was announced as "dormant_below is now 3"; and
    since the game still counted itself Dormant, the [Idle] that made it Dormant again under
    the new bound was announced to nobody."""
    referee.create_game("blog", "blognomic", BLOG, gm="gm@ref.example")
    for p in PLAYERS:
        send(referee, p, "[Join]", f"Name: {p.title()}\n", to=BLOG)
        confirm_waiting(referee)
    assert referee.admin("blog", {"type": "set", "values": {"dormant_below": "3"}}, "gm").ok
    told = " ".join(
        Outbox.body(last(outbox, addr("alice"), "announcement", "parameters changed")).split()
    )
    assert (
        "The game now needs 3 Wizards to leave Dormancy, and has 4: it is not Dormant, so "
        "proposals may be submitted." in told
    ), told
    assert "dormant_below is now" not in told
    propose_gold(referee)
    assert last(outbox, addr("alice"))["X-Mailref-Kind"] != "error"
    send(referee, "bob", "[Idle]", "", to=BLOG)  # three Wizards: enough
    assert not [m for m in outbox.new() if str(m["Subject"]).endswith("Dormant")]
    send(referee, "carol", "[Idle]", "", to=BLOG)  # two
    told = Outbox.body(last(outbox, addr("alice"), "announcement", "Dormant"))
    assert "BlogNomic is Dormant: there are fewer than 3 Wizards" in told, told
    assert_replays(referee)
