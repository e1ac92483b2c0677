"""A reply without a vote is not told an open point of order is closed."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, mail
from support.joining import confirm_waiting
from support.outside_smtp import ALICE, BOB, CAROL, EMPIRE, error_of

pytestmark = pytest.mark.spec("2.6")


def test_a_reply_without_a_vote_is_not_told_an_open_point_of_order_is_closed(referee, smtp):
    """SPEC §2: Imperial numbers Points of Order apart from proposals. With
    proposal 1 voting and Point of Order 1 open, a reply to proposal 1 whose YES was only in the
    quoted mail was answered "judgement 1 (open) is closed; votes are no longer taken". It is
    told no vote was found, and how to write one; a closed proposal is still said to be closed."""
    referee.create_game("empire", "imperial", EMPIRE, name="Empire")
    for who in (ALICE, BOB, CAROL):
        smtp(mail(who, EMPIRE, "[Join]", f"Name: {who.split('@')[0].title()}"), who, EMPIRE)
        confirm_waiting(referee)
    smtp(mail(BOB, EMPIRE, "[Proposal] Hats", "Everyone wears a hat."), BOB, EMPIRE)
    smtp(mail(CAROL, EMPIRE, "[Point of Order] Hats?", "Are hats clothes?"), CAROL, EMPIRE)
    box = Outbox(referee)
    box.new()
    quoted = "Thanks!\n\nAm 1. Dez. 2026 um 10:00 schrieb Empire <empire@ref.example>:\n> YES\n"
    smtp(mail(CAROL, EMPIRE, "Re: [Empire] [Proposal 1] Hats", quoted), CAROL, EMPIRE)
    said = error_of(box)
    assert "No vote found for proposal 1" in said and "closed" not in said, said
    smtp(mail(CAROL, EMPIRE, "Re: [Empire] [Proposal 1] Hats", "YES"), CAROL, EMPIRE)
    assert referee.state("empire")["proposals"][0]["votes"] == {"Carol": "YES"}
