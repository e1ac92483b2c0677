"""A GM's alert says in its subject what it is about (SPEC §2.6), so that a GM with several alerts
can tell them apart without opening each."""

from __future__ import annotations

import pytest

from mailref.engine.context import alert_about
from support import imperial
from support.helpers import Outbox
from support.play import nomes, send

pytestmark = pytest.mark.spec("2.6")


def alerts(outbox: Outbox) -> list:
    return [m for m in outbox.all() if m["X-Mailref-Kind"] == "alert"]


def test_a_ruling_to_apply_is_an_alert_that_names_its_judgement(referee, outbox):
    nomes(referee)
    asker = referee.state("nomes")["order"][1]
    send(referee, asker.lower(), "[CfJ] Can tea be coffee?", "Rule 24 is unclear.")
    judge = referee.state("nomes")["judgements"][0]["judge"]
    send(referee, judge.lower(), "[Ruling] 1", "FALSE. Tea is tea.")
    (alert,) = alerts(outbox)
    assert alert["To"] == "gm@ref.example"
    assert str(alert["Subject"]) == (
        "[Nomic Sidekick Nomic] Alert: apply the ruling of judgement 1"
    ), alert["Subject"]
    assert "apply its effects" in Outbox.body(alert)


def test_a_proposal_without_an_emperor_is_an_alert_that_says_so(imperial_game, outbox):
    """The Emperor has left when the Senate passes a proposal: the GM's alert says which
    proposal waits and why."""
    imperial.send(imperial_game, "Joe", "[Quit]")
    imperial.send(imperial_game, "Ann", "[Proposal] Dragons", imperial.PROP)
    for n in ("Ben", "Cat", "Dan"):
        imperial.send(imperial_game, n, "Re: [Proposal 1] Dragons", "YES")
    imperial.at(imperial_game, days=4, seconds=1)
    subjects = [str(m["Subject"]) for m in alerts(outbox)]
    assert "[Imperial Nomic] Alert: proposal 1 awaits judgement and there is no Emperor" in (
        subjects
    ), subjects


def test_an_alert_without_a_subject_of_its_own_takes_its_first_words():
    assert alert_about("Judgement 3: its judge left. Decide it.") == "Judgement 3"
    long = "word " * 30
    assert len(alert_about(long)) <= 61 and alert_about(long).endswith("…")
