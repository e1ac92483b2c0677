"""The GM's [Column] and the GM's [Update] of a ledger are the officer's, as [Set] is: forged
From the GM they declare and write nothing (SPEC §2.2); only the GM's Reply to the game's mail
does. A GM who plays too, writing without that Reply, updates as the player."""

from __future__ import annotations

import pytest

from support.blognomic import G, addr, reply, send
from support.helpers import Outbox, assert_replays, mail

pytestmark = pytest.mark.spec("2.2")

GM = "gm@ref.example"
FORGER = "forger@evil.example"


def welcome(referee) -> str:
    """The Message-ID of the mail the GM got when the game was made: the GM's to answer."""
    (notice,) = [m for m in Outbox(referee).to(GM) if "is open at" in str(m["Subject"])]
    return str(notice["Message-ID"])


def coins(referee) -> dict[str, int]:
    return {n: v.get("coins") for n, v in referee.state("blog")["gamestate"]["values"].items()}


def test_a_forged_column_or_ledger_update_writes_nothing(blognomic_game, smtp):
    game = blognomic_game
    smtp(mail(GM, G, "[Column] Coins asset", "Default: 5"), FORGER, G)
    assert "coins" not in {c["slug"] for c in game.state("blog")["gamestate"]["columns"]}
    assert Outbox(game).to(GM)[-1]["X-Mailref-Refusal"] == "gm_needs_a_reply"
    smtp(mail(GM, G, "[Column] Coins asset", "Default: 5", in_reply_to=welcome(game)), GM, G)
    assert set(coins(game).values()) == {5}
    before = game.state("blog")
    smtp(mail(GM, G, "[Update] Coins of Ben +500"), FORGER, G)
    assert game.state("blog") == before
    assert Outbox(game).to(GM)[-1]["X-Mailref-Refusal"] == "update_needs_a_reply"
    smtp(mail(GM, G, "[Update] Coins of Ben +5", in_reply_to=welcome(game)), GM, G)
    assert coins(game)["Ben"] == 10
    assert_replays(game)


def test_a_gm_who_plays_updates_as_a_player_without_the_reply(blognomic_game, smtp):
    """Ann is the GM too: her [Update] of a ledger without the Reply is refused as any
    player's; as a Reply to the game's mail to her it is the GM's."""
    game = blognomic_game
    game.admin("blog", {"type": "set", "values": {"gm": addr("Ann")}}, "admin")
    game.admin(
        "blog",
        {"type": "column", "name": "Coins", "fields": {"kind": "asset", "default": 5}, "gm": True},
        "admin",
    )
    send(game, "Ann", "[Update] Coins of Ben +500")
    assert reply(game, "Ann")["X-Mailref-Refusal"] == "asset_by_transfer_only"
    assert set(coins(game).values()) == {5}
    answered = reply(game, "Ann")["Message-ID"]
    smtp(mail(addr("Ann"), G, "[Update] Coins of Ben +5", in_reply_to=answered), addr("Ann"), G)
    assert coins(game)["Ben"] == 10
    assert_replays(game)
