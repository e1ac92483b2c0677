"""A forger cannot silence a player (SPEC §2.2): a player's reply to a mail the game sent
that player is answered whatever forged mail in the player's name spent that day."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, mail

pytestmark = pytest.mark.spec("2.2")

G = "nomes@ref.example"
CAROL = "carol@x.example"


def _game(referee) -> None:
    referee.create_game("nomes", "sidekick", G, gm="gm@ref.example")
    for n in ("Alice", "Bob", "Carol"):
        referee.admin(
            "nomes",
            {"type": "player_add", "name": n, "address": f"{n.lower()}@x.example", "more": []},
            "admin",
        )


def test_a_players_own_reply_is_answered_after_25_forged_status_mails(referee, outbox):
    """25 forged [Status] From Carol used up her 20 replies of the day and her own mail then
    got no answer. Her Reply to a mail the game sent her names its Message-ID, which a forger
    does not have: it is answered."""
    _game(referee)
    outbox.new()
    for _ in range(25):
        referee.accept(mail(CAROL, G, "[Status]"), "smtp", "forger@evil.example", [G])
    to_carol = outbox.to(CAROL, outbox.new())
    assert [m["X-Mailref-Kind"] for m in to_carol] == ["status"] * 20 + ["error"]
    # A forged mail more stays unanswered.
    referee.accept(mail(CAROL, G, "[Status]"), "smtp", "forger@evil.example", [G])
    assert outbox.to(CAROL, outbox.new()) == []
    # Carol's own Reply to the game's answer she got is answered.
    got = to_carol[3]
    referee.accept(
        mail(
            CAROL, G, f"Re: {got['Subject']}", "Where do we stand?", in_reply_to=got["Message-ID"]
        ),
        "smtp",
        CAROL,
        [G],
    )
    (answer,) = outbox.to(CAROL, outbox.new())
    assert answer["X-Mailref-Kind"] == "status" and answer["In-Reply-To"]
    assert "Carol" in Outbox.body(answer)


def test_a_forged_reply_naming_another_players_mail_is_not_answered_past_the_allowance(
    referee, outbox
):
    """The Message-ID must be of a mail the game sent to the sender's own address: Bob's copy
    of a mail, named in mail forged From Carol, buys nothing."""
    _game(referee)
    for _ in range(21):
        referee.accept(mail(CAROL, G, "[Status]"), "smtp", "forger@evil.example", [G])
    referee.accept(mail("bob@x.example", G, "[Status]"), "smtp", "bob@x.example", [G])
    (bobs,) = outbox.to("bob@x.example", outbox.new(), kind="status")
    referee.accept(
        mail(CAROL, G, f"Re: {bobs['Subject']}", in_reply_to=bobs["Message-ID"]),
        "smtp",
        "forger@evil.example",
        [G],
    )
    assert outbox.to(CAROL, outbox.new()) == []


def test_the_gms_reply_to_the_games_mail_is_answered_past_the_days_allowance(referee, outbox):
    """An evening of [Help], [History] and forged mail spends the GM's 20 answers; the GM
    steers by Reply to the game's mail, and that Reply is answered as a player's is."""
    _game(referee)
    gm = "gm@ref.example"
    (welcome,) = [m for m in outbox.to(gm, outbox.new()) if "is open at" in str(m["Subject"])]
    for _ in range(22):
        referee.accept(mail(gm, G, "[History]"), "smtp", gm, [G])
    assert len(outbox.to(gm, outbox.new())) == 21  # 20 answers and the notice
    referee.accept(
        mail(gm, G, "Re: [Set]", "win_score=150", in_reply_to=welcome["Message-ID"]),
        "smtp",
        gm,
        [G],
    )
    assert referee.state("nomes")["parameters"]["win_score"] == 150
    (answer,) = outbox.to(gm, outbox.new())
    assert "win_score" in Outbox.body(answer), Outbox.body(answer)
