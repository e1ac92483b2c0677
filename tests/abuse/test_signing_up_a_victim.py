"""Joining needs the address's consent (SPEC §2.3): a stranger cannot sign a victim up."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, mail
from support.joining import confirm, confirmation

pytestmark = pytest.mark.spec("2.3")

G = "nomes@ref.example"
VICTIM = "victim@third.example"


def test_a_stranger_cannot_sign_a_victim_up(referee, outbox, clock):
    """A [Join] From a victim's address, with the stranger's Reply-To, made the victim a player
    who then got every announcement. Now the confirmation goes to the victim's address only,
    nobody plays until a reply to it comes back, and the stranger cannot make that reply: not
    by [Confirm], not by a guessed code, not by naming another mail."""
    referee.create_game("nomes", "sidekick", G, gm="gm@ref.example")
    referee.admin(
        "nomes", {"type": "player_add", "name": "Alice", "address": "alice@x.example"}, "admin"
    )
    outbox.new()
    evil = "evil@stranger.example"
    referee.accept(
        mail(VICTIM, G, "[Join]", "Name: Victim", headers={"Reply-To": evil}), "smtp", evil, [G]
    )
    sent = outbox.new()
    assert [(m["To"], m["X-Mailref-Kind"]) for m in sent] == [(VICTIM, "confirm")]
    body = Outbox.body(sent[0])
    assert "Not you? Then ignore this mail: nothing happens unless you reply" in body
    assert [p["name"] for p in referee.state("nomes")["players"]] == ["Alice"]
    # The stranger's tries, each From the victim: none makes a player, none reaches the stranger.
    tries = [
        mail(VICTIM, G, "[Confirm]", headers={"Reply-To": evil}),
        mail(VICTIM, G, "[Confirm]", "Code: " + "0" * 32),
        mail(VICTIM, G, "Re: [Confirm]", in_reply_to=f"<join.{'1' * 32}@ref.example>"),
        mail(VICTIM, G, "Re: [Confirm]", in_reply_to=sent[0]["In-Reply-To"]),  # the [Join] itself
    ]
    for raw in tries:
        referee.accept(raw, "smtp", evil, [G])
    assert [p["name"] for p in referee.state("nomes")["players"]] == ["Alice"]
    assert [m["To"] for m in outbox.new() if m["To"] == evil] == []
    alices = outbox.to("alice@x.example", outbox.all())
    assert alices == alices[:1]  # Alice heard of no newcomer: her welcome is all she got
    # Unanswered, the confirmation lapses after 7 days: a late Reply makes nobody a player.
    clock.advance(days=7, minutes=1)
    confirm(referee, VICTIM)
    (late,) = outbox.to(VICTIM, outbox.new())
    assert late["X-Mailref-Kind"] == "error" and "7 days" in Outbox.body(late)
    assert [p["name"] for p in referee.state("nomes")["players"]] == ["Alice"]


def test_the_owner_of_the_address_joins_by_replying(referee, outbox):
    """The owner's plain Reply to the confirmation makes the player; a newer [Join] replaces
    the older confirmation, so only the latest one counts."""
    referee.create_game("nomes", "sidekick", G, gm="gm@ref.example")
    for _ in range(2):
        referee.accept(mail(VICTIM, G, "[Join]", "Name: Vic"), "smtp", VICTIM, [G])
    first, second = outbox.to(VICTIM, outbox.new())
    assert confirmation(referee, VICTIM)["Message-ID"] == second["Message-ID"]
    referee.accept(
        mail(VICTIM, G, f"Re: {first['Subject']}", in_reply_to=first["Message-ID"]),
        "smtp",
        VICTIM,
        [G],
    )
    (stale,) = outbox.to(VICTIM, outbox.new())
    assert "answers no confirmation" in Outbox.body(stale)
    confirm(referee, VICTIM)
    assert [p["name"] for p in referee.state("nomes")["players"]] == ["Vic"]
