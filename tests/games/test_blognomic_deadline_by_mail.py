"""BlogNomic has no vote deadline, but its players are told when an open matter may be
decided on the votes cast ("at the latest from ..."). The GM's `[Deadline] +2d` was answered
"nothing in this game has a deadline now"; it now moves that moment for every open matter."""

from __future__ import annotations

from datetime import timedelta

import pytest

from mailref.timeutil import parse_iso
from support.helpers import Outbox, assert_replays, send_mail
from support.play import addr, send
from support.play_four import BLOG, blog, last, propose_gold

pytestmark = pytest.mark.spec("2.5")

GM = "gm@ref.example"


def gm_sends(referee, subject: str, body: str) -> None:
    """The GM's mail as a Reply to the game's welcome: only the GM has its Message-ID."""
    (welcome,) = [m for m in Outbox(referee).to(GM) if "is open at" in str(m["Subject"])]
    send_mail(referee, GM, BLOG, subject, body, in_reply_to=welcome["Message-ID"])


def test_the_gms_deadline_gives_the_open_matters_two_more_days(referee, outbox, clock):
    blog(referee)
    propose_gold(referee)
    send(referee, "bob", "[Vote] 1", "FOR", to=BLOG)  # FOR 2 of quorum 3: Popular only at 48 h
    gm_sends(referee, "[Deadline] +2d", "The holidays.")
    ack = " ".join(Outbox.body(last(outbox, GM)).split())
    assert "nothing in this game has a deadline" not in ack, ack
    assert 'Proposal 1 "Gold" may be decided on the votes cast from' in ack, ack
    news = " ".join(Outbox.body(last(outbox, addr("carol"), "announcement", "Deadline")).split())
    assert "Proposal 1" in news and "Reason: The holidays." in news, news
    clock.advance(hours=48, seconds=1)
    referee.tick()
    assert referee.state("blog")["proposals"][0]["status"] == "pending"  # two more days
    clock.advance(hours=48)
    referee.tick()
    assert referee.state("blog")["proposals"][0]["status"] == "enacted"
    assert_replays(referee)


def test_a_pause_moves_the_time_the_gm_gave_by_as_long(referee, outbox, clock):
    """The time the GM's [Deadline] gave is a deadline like any: a pause moves it on."""
    blog(referee)
    propose_gold(referee)
    gm_sends(referee, "[Deadline] +2d", "")
    given = referee.state("blog")["proposals"][0]["decidable"]
    gm_sends(referee, "[Deadline] pause", "")
    clock.advance(days=1)
    gm_sends(referee, "[Deadline] resume", "")
    moved = referee.state("blog")["proposals"][0]["decidable"]
    assert parse_iso(moved) - parse_iso(given) == timedelta(days=1)
    assert_replays(referee)
