"""The GM's results titled by the turn are not named twice."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, last_to, mail
from support.joining import confirm_waiting

pytestmark = pytest.mark.spec("2.6")


def test_the_gms_results_titled_by_the_turn_are_not_named_twice(referee):
    """SPEC §5.5: the GM's [Results] mail goes to all players; "[Results] Turn 1" (the turn is its
    title) reached them as "[Results] Turn 1: Turn 1"; a title of its own is kept."""
    game = "diplo@ref.example"
    referee.create_game("diplo", "orders", game, name="Diplo", gm="gm@x.org")
    for n in ("ann", "ben"):
        referee.accept(mail(f"{n}@x.org", game, "[Join]", f"Name: {n.title()}"), "smtp")
        confirm_waiting(referee)
    assert referee.admin("diplo", {"type": "start"}, "gm").ok
    box = Outbox(referee)

    def gm_says(subject: str, body: str) -> None:  # a Reply: only the GM has its Message-ID
        sent = mail("gm@x.org", game, subject, body, in_reply_to=last_to(referee, "gm@x.org", game))
        referee.accept(sent, "smtp")

    def everybody_orders() -> None:  # results are taken for a closed turn only
        for n in ("ann", "ben"):
            referee.accept(mail(f"{n}@x.org", game, "[Orders]", "**Hold.**"), "smtp")
        box.new()

    everybody_orders()
    gm_says("[Results] Turn 1", "Paris holds.")
    assert {str(m["Subject"]) for m in box.to("ann@x.org", box.new(), "results")} == {
        "[Diplo] [Results] Turn 1"
    }
    everybody_orders()
    gm_says("[Results] Spring 1901", "Brest holds.")
    assert {str(m["Subject"]) for m in box.to("ann@x.org", box.new(), "results")} == {
        "[Diplo] [Results] Turn 2: Spring 1901"
    }
