"""Consent to join comes only from a reply whose own words say yes or carry the code (SPEC
§2.3): a ticket system's automatic answer to the confirmation names it too, and made the
address a player."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, mail
from support.joining import confirmation

pytestmark = pytest.mark.spec("2.3")

G = "nomes@ref.example"
DESK = "help@desk.example"


def test_a_ticket_systems_answer_to_the_confirmation_joins_nobody(referee, smtp, outbox):
    referee.create_game("nomes", "sidekick", G)
    smtp(mail(DESK, G, "[Join]", "Name: Desk"), "forger@evil.example")
    conf = confirmation(referee, DESK)
    outbox.new()
    auto = mail(
        DESK,
        G,
        f"Re: {conf['Subject']}",
        "Thank you for contacting us. Ticket #4821 has been opened and an agent will reply "
        "within 2 business days.",
        in_reply_to=conf["Message-ID"],
    )
    smtp(auto, DESK)
    assert referee.state("nomes")["players"] == []
    (answer,) = outbox.to(DESK, outbox.new())
    assert "does not say yes" in " ".join(Outbox.body(answer).split())
    smtp(mail(DESK, G, f"Re: {conf['Subject']}", "Yes", in_reply_to=conf["Message-ID"]), DESK)
    assert [p["name"] for p in referee.state("nomes")["players"]] == ["Desk"]
