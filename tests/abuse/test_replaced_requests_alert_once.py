"""A request for more time that is replaced alerts the GM once a day, not once a mail (SPEC
§2.2): 60 forged `[Deadline] +1d` in 8 s gave the GM 60 alerts. The GM's `ok` grants the
request waiting, the latest, and says what it moved."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, assert_replays, mail
from support.hostile_smtp import ALICE, G

pytestmark = pytest.mark.spec("2.2")

GM = "gm@ref.example"


def test_sixty_forged_requests_alert_the_gm_once(game, smtp, outbox):
    outbox.new()
    for n in range(60):
        smtp(mail(ALICE, G, f"[Deadline] +{1 + n % 2}d"), "forger@evil.example")
    alerts = [m for m in outbox.to(GM, outbox.new()) if "asks for" in str(m["Subject"])]
    assert len(alerts) == 1
    before = game.state("nomes")["turn"]["deadline"]
    smtp(mail(GM, G, "[Deadline] ok", in_reply_to=alerts[0]["Message-ID"]), GM)
    (ack,) = outbox.to(GM, outbox.new())
    assert "moved from" in " ".join(Outbox.body(ack).split())
    assert game.state("nomes")["turn"]["deadline"] > before
    assert_replays(game)
