"""A CfJ's asker is never its judge, and a ruling gives no more than the rules do (SPEC §4.4):
the player before the mover asked, was named judge, ruled `Score Alice +100` and won. Now the
next present player judges, and a score line past rule 4's penalty (10 points) waits for the
GM, who applies it with `mailref score` if it stands."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, assert_replays, mail
from support.hostile_smtp import ALICE, BOB, G, mover

pytestmark = pytest.mark.spec("4.4")

GM = "gm@ref.example"


def names(referee) -> tuple[str, str, str, str]:
    """The mover and the player before the mover (rule 17's judge), by name and address."""
    m, m_addr = mover(referee)
    other, o_addr = ("Bob", BOB) if m == "Alice" else ("Alice", ALICE)
    return m, m_addr, other, o_addr


def test_the_player_before_the_mover_asks_and_the_next_present_player_judges(game, smtp, outbox):
    m, m_addr, asker, a_addr = names(game)
    smtp(mail(a_addr, G, "[CfJ] Was the last vote valid?", "Please rule."), a_addr)
    (j,) = game.state("nomes")["judgements"]
    assert j["by"] == asker and j["judge"] == m
    assert outbox.to(m_addr, outbox.new(), kind="judge")
    # The asker cannot rule on it.
    smtp(mail(a_addr, G, "[Ruling] 1", "Yes.\nScore " + asker + " +100\n"), a_addr)
    state = game.state("nomes")
    assert state["judgements"][0]["status"] == "open"
    assert {p["name"]: p["score"] for p in state["players"]}[asker] == 0
    assert_replays(game)


def test_a_ruling_scoring_past_the_penalty_waits_for_the_gm(game, smtp, outbox):
    m, m_addr, asker, a_addr = names(game)
    smtp(mail(a_addr, G, "[CfJ] Did I break rule 9?", "Please rule."), a_addr)
    outbox.new()
    ruling = f"Yes, and I win.\nScore {m} +100\nScore {asker} -10\n"
    smtp(mail(m_addr, G, "[Ruling] 1", ruling), m_addr)
    state = game.state("nomes")
    scores = {p["name"]: p["score"] for p in state["players"]}
    assert scores == {m: 0, asker: -10} and state["status"] != "ended"
    assert state["judgements"][0]["held"] == [f"Score {m} +100"]
    new = outbox.new()
    (alert,) = [x for x in outbox.to(GM, new) if x["X-Mailref-Kind"] == "alert"]
    said = " ".join(Outbox.body(alert).split())
    assert f"mailref score nomes {m} +100" in said and "rule 4's penalty of 10" in said
    news = [x for x in outbox.to(a_addr, new) if "Ruling by" in str(x["Subject"])]
    assert news and "Held for the GM" in " ".join(Outbox.body(news[0]).split())
    assert_replays(game)
