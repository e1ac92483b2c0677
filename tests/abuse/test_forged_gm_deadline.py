"""A forged [Deadline] From the GM moves, pauses or grants nothing (SPEC §2.2): the GM's
[Deadline] counts as the GM's only as a Reply to the game's mail, as [Set] does."""

from __future__ import annotations

import pytest

from support import hostile_smtp
from support.helpers import Outbox, assert_replays, mail
from support.hostile_smtp import G

pytestmark = pytest.mark.spec("2.2")

GM = "gm@ref.example"
FORGER = "forger@evil.example"
game = hostile_smtp.game  # the Sidekick game of Alice and Bob, played through SMTP


def welcome(outbox: Outbox) -> str:
    (notice,) = [m for m in outbox.to(GM) if "is open at" in str(m["Subject"])]
    return str(notice["Message-ID"])


def test_a_forged_deadline_from_the_gm_moves_nothing(game, smtp, outbox):
    before = game.state("nomes")
    for words in ("pause", "+30d", "ok"):
        smtp(mail(GM, G, f"[Deadline] {words}"), FORGER)
        assert game.state("nomes") == before, words
        assert outbox.to(GM)[-1]["X-Mailref-Refusal"] == "gm_needs_a_reply"
    smtp(mail(GM, G, "[Deadline] pause", in_reply_to=welcome(outbox)), GM)
    assert game.state("nomes")["status"] == "paused"
    assert_replays(game)
