"""A repealed rule that states a parameter stops applying (Sidekick rule 2: "Any rules that are
not on the rule list do not apply"), and the ruleset mail says so."""

from __future__ import annotations

import pytest

from support import imperial as emp
from support.helpers import Outbox, assert_replays
from support.play import PLAYERS, addr, nomes, send
from support.play_four import BLOG, blog, last

pytestmark = pytest.mark.spec("5.1")


def _last(outbox, kind: str, to: str) -> str:
    mails = [m for m in outbox.all() if m["X-Mailref-Kind"] == kind and m["To"] == to]
    return Outbox.body(mails[-1])


def test_after_rule_22_is_repealed_a_failed_proposal_scores_nothing(referee, outbox):
    """`Repeal rule 22.` passes; the next failure used to score -5 "(rules 21–22)", citing a
    rule no longer on the list. Now its author scores nothing, the result says why, and the
    ruleset mail says the referee no longer runs rule 22."""
    first = nomes(referee)
    send(referee, first, "[Proposal] No penalty", "Repeal rule 22.\n")
    for p in PLAYERS:
        if p.title() != first:
            send(referee, p, "[Vote] 1", "FOR")
    ruleset = _last(outbox, "ruleset", addr(first))
    assert "Rule 22 is repealed, so no longer: a failed proposal scores -5." in ruleset
    alerts = [Outbox.body(m) for m in outbox.all() if m["X-Mailref-Kind"] == "alert"]
    assert not any("fail_points" in a and "does not say" in a for a in alerts), alerts

    second = referee.state("nomes")["turn"]["player"]
    send(referee, second, "[Proposal] Bad idea", 'Enact rule 30 "Bad":\nNobody may vote.\n')
    for p in PLAYERS:
        if p.title() != second:
            send(referee, p, "[Vote] 2", "AGAINST")
    results = _last(outbox, "results", addr(first))
    assert f"{second} scores nothing: rule 22, which scored it, is repealed." in results
    assert "rules 21–22" not in results
    assert next(p for p in referee.state("nomes")["players"] if p["name"] == second)["score"] == 0
    assert_replays(referee)


def test_after_imperial_rule_12_is_repealed_no_proposal_is_replaced(imperial_game, outbox):
    """`Repeal rule 12` passes; a Senator's fourth undecided proposal used to replace her first
    still. Now all four stay undecided."""
    game = imperial_game
    emp.send(game, "Ann", "[Proposal] No limit", "Repeal rule 12.\n")
    for n in ("Ben", "Cat", "Dan"):
        emp.send(game, n, "Re: [Proposal 1] No limit", "YES")
    emp.at(game, days=4, seconds=1)
    emp.send(game, "Joe", "[Judge] 1", "ACCEPT")
    assert not any(r["number"] == "12" for r in game.state("empire")["rules"])
    assert "Rule 12 is repealed, so no longer: a Senator's fourth" in Outbox.body(
        emp.reply(game, "Ben")
    )
    for i in range(4):
        emp.send(game, "Ben", f"[Proposal] Idea {i}", f'Enact rule {40 + i} "Idea {i}":\nIdea.\n')
    statuses = [p["status"] for p in game.state("empire")["proposals"] if p["author"] == "Ben"]
    assert statuses == ["voting"] * 4


def test_after_dormancy_is_repealed_the_ruleset_mail_says_it_no_longer_applies(
    referee, outbox, clock
):
    """`Repeal rule 3.5` (Dormancy) was followed, but the ruleset mail and the GM's alert said
    the referee still ran it at fewer than 5 Wizards. Now both say it no longer applies, and with
    four Wizards left a proposal is taken."""
    blog(referee)
    send(referee, "alice", "[Proposal] No dormancy", "Repeal rule 3.5.\n", to=BLOG)
    for p in ("bob", "carol", "zoe"):
        send(referee, p, "[Vote] 1", "FOR", to=BLOG)
    clock.advance(hours=12, seconds=1)
    referee.tick()
    assert not any(r["number"] == "3.5" for r in referee.state("blog")["rules"])
    said = "Rule 3.5 is repealed, so no longer: BlogNomic is Dormant with fewer than 5 Wizards."
    assert said in Outbox.body(last(outbox, addr("bob"), "ruleset"))
    alerts = [Outbox.body(m) for m in outbox.to("gm@ref.example", kind="alert")]
    assert any(said in a for a in alerts) and not any("dormant_below =" in a for a in alerts)
    send(referee, "dan", "[Idle]", "", to=BLOG)
    send(referee, "bob", "[Proposal] Hats", 'Enact rule 2.9 "Hats":\nHats exist.\n', to=BLOG)
    assert referee.state("blog")["proposals"][-1]["title"] == "Hats"
    assert_replays(referee)
