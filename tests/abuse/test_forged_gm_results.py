"""A forged [Results] From the GM's own address publishes nothing and opens no turn (SPEC §2.2,
§5.4): the GM's results count only as a Reply to mail the game sent the GM (the "[Turn N] Orders
of all players" mail that asks for them), as [Set] does."""

from __future__ import annotations

import pytest

from support.helpers import assert_replays, last_to, mail
from support.joining import confirm_waiting

pytestmark = pytest.mark.spec("2.2", "5.4")

D = "diplo@ref.example"
GM = "gm@ref.example"


def test_forged_results_from_the_gms_address_open_no_turn(referee, smtp, outbox):
    referee.create_game("diplo", "orders", D, gm=GM)
    for n in ("ann", "ben"):
        smtp(mail(f"{n}@x.org", D, "[Join]", f"Name: {n.title()}"), f"{n}@x.org", D)
        confirm_waiting(referee)
    referee.admin("diplo", {"type": "start"}, "gm")
    for n in ("ann", "ben"):
        smtp(mail(f"{n}@x.org", D, "[Orders]", "**A Par - Bur**"), f"{n}@x.org", D)
    outbox.new()
    smtp(mail(GM, D, "[Results] Spring", "Everybody lost."), "forger@evil.example", D)
    smtp(mail(GM, D, "[Publish]"), "forger@evil.example", D)
    assert referee.state("diplo")["turn"]["number"] == 1
    sent = outbox.new()
    assert not [m for m in sent if m["X-Mailref-Kind"] == "results"]
    assert [m["X-Mailref-Refusal"] for m in outbox.to(GM, sent)] == ["results_need_a_reply"] * 2
    smtp(mail(GM, D, "[Results] Spring", "All hold.", in_reply_to=last_to(referee, GM, D)), GM, D)
    assert referee.state("diplo")["turn"]["number"] == 2
    assert_replays(referee)
