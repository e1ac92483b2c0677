"""Orders and results only in an attachment are refused, and nothing is recorded."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, last_to, mail
from support.joining import confirm_waiting
from support.outside_smtp import ALICE, BOB, error_of, with_attachment

pytestmark = pytest.mark.spec("3.3")


@pytest.mark.parametrize(
    "text", ["", "Orders attached.", "Please see the attached file for this turn."]
)
def test_orders_and_results_only_in_an_attachment_are_refused_and_nothing_is_recorded(
    referee, smtp, text
):
    """As a proposal whose text is only an attachment: [Orders] with the orders in a .docx are not
    "no bold text found", and the GM's [Results] in a PDF never reach the players empty nor open
    the next turn; the sender is told the referee reads the mail's own text."""
    diplo, gm = "diplo@ref.example", "gm@ref.example"
    referee.create_game("diplo", "orders", diplo, gm=gm, parameters={"turn_length": "1d"})
    for who in (ALICE, BOB):
        smtp(mail(who, diplo, "[Join]", f"Name: {who.split('@')[0].title()}"), who, diplo)
        confirm_waiting(referee)
    assert referee.admin("diplo", {"type": "start"}, "gm").ok
    box = Outbox(referee)
    box.new()
    docx = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
    smtp(with_attachment(ALICE, diplo, "[Orders]", text, docx, "orders.docx"), ALICE, diplo)
    said = error_of(box)
    assert "your orders are in an attachment" in said and "nothing was recorded" in said, said
    assert referee.state("diplo")["orders"] == {}
    # Words of her own that are not bold, beside a signature's logo: the usual "no bold text".
    smtp(
        with_attachment(ALICE, diplo, "[Orders]", "Army Paris holds.", "image/png", "image001.png"),
        ALICE,
        diplo,
    )
    assert "I found no bold text" in error_of(box)

    smtp(mail(BOB, diplo, "[Orders]", "**Army Paris holds.**"), BOB, diplo)
    box.new()
    smtp(
        with_attachment(
            gm,
            diplo,
            "[Results] Turn 1",
            text,
            "application/pdf",
            "turn1.pdf",
            in_reply_to=last_to(referee, gm, diplo),
        ),
        gm,
        diplo,
    )
    said = error_of(box)  # the GM's answer, and nothing to the players
    assert (
        "your results are in an attachment" in said and "nothing was sent to the players" in said
    ), said
    state = referee.state("diplo")
    assert state["turn"]["number"] == 1 and state["history"] == []
    smtp(
        with_attachment(BOB, diplo, "[Results] Turn 1", text, "application/pdf", "mine.pdf"),
        BOB,
        diplo,
    )
    assert "only the GM posts results" in error_of(box)  # a player is told that first
    smtp(
        mail(ALICE, diplo, "[Orders]", "**Army Marseilles holds.**"), ALICE, diplo
    )  # the turn closes
    answered = last_to(referee, gm, diplo)
    smtp(mail(gm, diplo, "[Results] Turn 1", "Paris holds.", in_reply_to=answered), gm, diplo)
    assert sorted(m["To"] for m in box.new() if m["X-Mailref-Kind"] == "results") == [ALICE, BOB]
