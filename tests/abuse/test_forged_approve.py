"""A forged [Approve] From the GM's address admits nobody (SPEC §2.3, §2.7): where the game
holds each join for the GM, [Approve] counts as a Reply to the alert that asked for it, whose
Message-ID only the GM has (or verified mail, where require_auth is on); the GM's plain From
admitted a player."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, mail
from support.joining import confirm_waiting

pytestmark = pytest.mark.spec("2.3")

G = "nomes@ref.example"
GM = "gm@ref.example"
BOB = "bob@x.org"


def test_the_gms_plain_from_admits_nobody(referee, smtp, outbox):
    referee.create_game("nomes", "sidekick", G, gm=GM, parameters={"join_approval": "gm"})
    smtp(mail(BOB, G, "[Join]", "Name: Bob"), BOB)
    confirm_waiting(referee)
    (alert,) = [m for m in outbox.to(GM, outbox.new()) if "[Approve] Bob" in Outbox.body(m)]
    for forged in (
        mail(GM, G, "[Approve] Bob"),
        mail(GM, G, "[Approve] Bob", in_reply_to="<guessed.1@ref.example>"),
    ):
        smtp(forged, "forger@evil.example")
    assert referee.state("nomes")["players"] == []
    said = " ".join(Outbox.body(outbox.to(GM, outbox.new(), kind="error")[0]).split())
    assert "only as a Reply to the alert" in said
    smtp(mail(GM, G, "Re: [Approve] Bob", in_reply_to=alert["Message-ID"]), GM)
    assert [p["name"] for p in referee.state("nomes")["players"]] == ["Bob"]
