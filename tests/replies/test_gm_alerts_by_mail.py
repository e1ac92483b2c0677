"""The GM is a mail user: an alert that asks the GM to act says first what to send by mail,
the host command after it ("or on the host: …"), and the GM's [Score] NAME +N does by mail
what `mailref score` does, taken only from the GM and only as a Reply to the game's mail."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, assert_replays, mail
from support.hostile_smtp import ALICE, BOB, G, mover

pytestmark = pytest.mark.spec("4.4")

GM = "gm@ref.example"


def test_the_gm_applies_a_held_score_by_replying_to_its_alert(game, smtp, outbox):
    m, m_addr = mover(game)
    asker, a_addr = ("Bob", BOB) if m == "Alice" else ("Alice", ALICE)
    smtp(mail(a_addr, G, "[CfJ] Did I break rule 9?", "Please rule."), a_addr)
    outbox.new()
    smtp(mail(m_addr, G, "[Ruling] 1", f"Yes.\nScore {m} +20\n"), m_addr)
    (alert,) = [x for x in outbox.to(GM, outbox.new()) if x["X-Mailref-Kind"] == "alert"]
    said = " ".join(Outbox.body(alert).split())
    by_mail, host = (
        said.find(f"[Score] {m} +20"),
        said.find(f"or on the host: `mailref score nomes {m} +20`"),
    )
    assert 0 <= by_mail < host, said
    # A player's [Score] is refused, and so is the GM's that answers no mail of the game.
    smtp(mail(a_addr, G, f"[Score] {asker} +5"), a_addr)
    assert "only the GM changes a score by mail" in " ".join(
        Outbox.body(outbox.to(a_addr, outbox.new())[-1]).split()
    )
    smtp(mail(GM, G, f"[Score] {m} +20"), GM)
    assert "only as a Reply to mail the game sent you" in " ".join(
        Outbox.body(outbox.to(GM, outbox.new())[-1]).split()
    )
    assert {p["name"]: p["score"] for p in game.state("nomes")["players"]}[m] == 0
    reply = mail(
        GM,
        G,
        f"[Score] {m} +20 because the ruling stands",
        "",
        in_reply_to=alert["Message-ID"],
    )
    smtp(reply, GM)
    assert {p["name"]: p["score"] for p in game.state("nomes")["players"]}[m] == 20
    told = " ".join(Outbox.body(outbox.to(a_addr, outbox.new())[-1]).split())
    assert f"{m}'s score: 0 -> 20 (the ruling stands)" in told
    assert_replays(game)
