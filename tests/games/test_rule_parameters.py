"""Rules the referee runs by parameters: an amendment changes what a failed proposal scores; two
changed at once make one alert."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, assert_replays
from support.play import PLAYERS, addr, nomes, send

pytestmark = pytest.mark.spec("5.1")


def test_a_passed_amendment_of_rule_22_changes_what_a_failed_proposal_scores(referee, outbox):
    """Proposal 1 replaces "-5 points" with "-3 points" in rule 22 and passes; proposal 2 fails.
    The referee used to score it -5 "(rules 21–22)", citing the rule it had just contradicted,
    and only alerted the GM. Now it runs rule 22 as it reads, says so, and the GM is told."""
    first = nomes(referee)
    send(
        referee,
        first,
        "[Proposal] Gentler failure",
        'In rule 22, replace "-5 points" with "-3 points".\n\nCheers,\n' + first,
    )
    for p in PLAYERS:
        if p.title() != first:
            send(referee, p, "[Vote] 1", "FOR")
    state = referee.state("nomes")
    assert state["parameters"]["fail_points"] == -3
    ruleset = [
        m for m in outbox.all() if m["X-Mailref-Kind"] == "ruleset" and m["To"] == addr(first)
    ][-1]
    assert "a failed proposal scores -3 (fail_points: -5 -> -3)" in Outbox.body(ruleset)
    alerts = [Outbox.body(m) for m in outbox.all() if m["X-Mailref-Kind"] == "alert"]
    assert any(
        "fail_points: -5 -> -3" in a and "mailref game set nomes fail_points=" in a for a in alerts
    ), alerts

    second = state["turn"]["player"]
    send(referee, second, "[Proposal] Bad idea", 'Enact rule 30 "Bad":\nNobody may vote.\n')
    for p in PLAYERS:
        if p.title() != second:
            send(referee, p, "[Vote] 2", "AGAINST")
    results = [
        m for m in outbox.all() if m["X-Mailref-Kind"] == "results" and m["To"] == addr(first)
    ][-1]
    assert f"{second} scores -3 (rules 21–22) and now has -3." in Outbox.body(results)
    assert next(p for p in referee.state("nomes")["players"] if p["name"] == second)["score"] == -3
    assert_replays(referee)


def test_two_rules_run_by_parameters_changed_at_once_make_one_alert_in_rule_order(referee, outbox):
    """Rules 8 and 21 amended by one proposal: the GM got two alerts, and the ruleset mail said
    rule 21 before rule 8. One alert, rule 8 first; "within two days" is read as 2d."""
    first = nomes(referee, turn_timeout="1d")
    send(
        referee,
        first.lower(),
        "[Proposal] Brisk",
        "Amend rule 8 to read:\nIf a player does not move within two days, the turn is skipped.\n\n"
        'In rule 21, replace "10 points" with "twelve points".\n',
    )
    for p in PLAYERS:
        if p.title() != first:
            send(referee, p, "[Vote] 1", "FOR")
    assert referee.state("nomes")["parameters"]["turn_timeout"] == "2d"
    assert referee.state("nomes")["parameters"]["pass_points"] == 12
    alerts = [Outbox.body(m) for m in outbox.all() if m["X-Mailref-Kind"] == "alert"]
    assert len(alerts) == 1 and "turn_timeout=... pass_points=..." in alerts[0], alerts
    ruleset = Outbox.body([m for m in outbox.all() if m["X-Mailref-Kind"] == "ruleset"][0])
    assert ruleset.index("runs rule 8 as") < ruleset.index("runs rule 21 as")
