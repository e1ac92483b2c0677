"""Imperial Nomic by mail (SPEC §5.3; seed 000): the Senate votes, the Emperor judges."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, assert_replays
from support.imperial import (
    PROP,
    G,
    addr,
    at,
    play_a_proclamation,
    play_an_accepted_proposal,
    prop,
    reply,
    send,
)
from support.joining import confirm_waiting

pytestmark = pytest.mark.spec("5.3")


@pytest.fixture
def game(imperial_game):
    """This module's game: the imperial game of tests/conftest.py."""
    return imperial_game


def test_senate_majority_goes_to_the_emperor_who_accepts(game, outbox):
    """Rule 6: after the deadline, a majority of Senators voting YES passes it to the Emperor; rule
    7: accept."""
    play_an_accepted_proposal(game, outbox)


def test_minority_is_rejected(game):
    send(game, "Ann", "[Proposal] Dragons", PROP)
    send(game, "Ben", "[Vote] 1", "YES")
    send(game, "Cat", "[Vote] 1", "NO")
    at(game, days=4, seconds=1)
    assert prop(game, 1)["status"] == "rejected"


def test_veto_and_ignore_needs_a_reason(game):
    """Rule 7: "To ignore a proposal, the condition by which it is ignored must be explicit
    elsewhere in the ruleset"."""
    for title in ("One", "Two"):
        send(
            game, "Ann", f"[Proposal] {title}", PROP.replace("27", "28" if title == "Two" else "27")
        )
    for n in ("Ben", "Cat", "Dan"):
        send(game, n, "[Vote]", "1 YES\n2 YES")
    at(game, days=4, seconds=1)
    send(game, "Joe", "[Judge] 1", "VETO")
    assert prop(game, 1)["status"] == "vetoed"
    send(game, "Joe", "[Judge] 2", "IGNORE")
    assert "must be explicit" in Outbox.body(reply(game, "Joe"))
    send(game, "Joe", "[Judge] 2 IGNORE under rule 12")  # rule 12 says nothing of ignoring
    assert "provides no condition" in Outbox.body(reply(game, "Joe"))
    send(
        game, "Joe", "[Judge] 2 IGNORE under rule 7"
    )  # the rule that asks for the condition is not it
    assert "must be explicit elsewhere" in Outbox.body(reply(game, "Joe"))
    send(game, "Joe", "[Judge] 2 IGNORE under rule 26.6")  # a B rule outside a playtest
    assert "not in force" in Outbox.body(reply(game, "Joe"))
    assert prop(game, 2)["status"] == "awaiting-judgement"
    send(
        game,
        "Joe",
        "[Proclamation] Quiet days",
        'Enact rule 20 "Quiet days":\nThe Emperor may ignore any proposal that adds a B rule.\n',
    )
    send(game, "Joe", "[Judge] 2 IGNORE under rule 20")
    assert (prop(game, 2)["status"], prop(game, 2)["reason"]) == ("ignored", "under rule 20")


def test_fourth_undecided_proposal_replaces_the_oldest(game):
    """ "If an Imperial Senator has submitted three undecided proposals and then submits a new
    proposal, the new proposal will replace the oldest"."""
    for i in range(4):
        send(game, "Ann", f"[Proposal] P{i}", f'Enact rule {30 + i} "R{i}":\nText.\n')
    statuses = [p["status"] for p in game.state("empire")["proposals"]]
    assert statuses == ["replaced", "voting", "voting", "voting"]


def test_proclamation_amends_a_sub_rule_at_once(game):
    """Rule 8: the Emperor may at any time modify any rule by Proclamation."""
    play_a_proclamation(game)


def test_playtest_toggles_b_rules(game):
    """ "'B' rules are only active when IE deems that a new playtest of the sub-game ... should then
    begin"."""
    send(game, "Ann", "[Rules]")
    body = Outbox.body(reply(game, "Ann"))
    assert (
        "21. The World [inactive outside a playtest]" in body and "1. Offices [inactive" not in body
    )
    game.admin("empire", {"type": "set", "values": {"playtest": "on"}}, "gm")
    send(game, "Ann", "[Rules]")
    body = Outbox.body(reply(game, "Ann"))
    assert "21. The World\r\n" in body
    numbers = [r["number"] for r in game.state("empire")["rules"]]
    assert numbers.index("21.3.2") < numbers.index("22") and numbers.index("21.3") < numbers.index(
        "21.3.1"
    )


def test_non_senators_cannot_vote_and_points_of_order_are_ruled(game):
    send(game, "Zed", "[Join]", "Name: Zed")
    confirm_waiting(game)
    send(game, "Ann", "[Proposal] Dragons", PROP)
    send(game, "Zed", "[Vote] 1", "YES")
    assert "only Imperial Senators" in Outbox.body(reply(game, "Zed"))
    send(game, "Ann", "[Vote] 1", "YES")
    assert "yours" in Outbox.body(reply(game, "Ann"))
    send(game, "Ben", "[Ruling] 1", "No.")
    assert "Emperor answers" in Outbox.body(reply(game, "Ben"))
    send(game, "Joe", "[Ruling] 1", "Welcome, Senator.")
    assert game.state("empire")["judgements"][0]["ruling"] == "Welcome, Senator."


def test_emperor_is_reminded_while_a_judgement_waits(game):
    send(game, "Ann", "[Proposal] Dragons", PROP)
    for n in ("Ben", "Cat", "Dan"):
        send(game, n, "[Vote] 1", "FOR")  # FOR means YES here
    at(game, days=4, seconds=1)
    at(game, days=1, seconds=1)
    reminders = [m for m in Outbox(game).all() if m["X-Mailref-Kind"] == "reminder"]
    assert reminders and reminders[0]["To"] == addr("Joe")


def test_two_senators_can_pass_a_proposal(referee, clock):
    """§5.3 / seed: "other Imperial Senators may send in a vote" and "there is a majority of
    Imperial Senators who have sent in a vote of YES": the majority is of the Senators entitled to
    vote."""
    referee.clock_ = clock
    referee.create_game("empire", "imperial", G)
    for n in ("Joe", "Ann", "Ben"):
        send(referee, n, "[Join]", f"Name: {n}")
        confirm_waiting(referee)
    send(referee, "Ben", "[Point of Order] Hello", "I am a Senator now.")
    send(referee, "Ann", "[Proposal] Dragons", PROP)
    send(referee, "Ben", "[Vote] 1", "YES")
    at(referee, days=4, seconds=1)
    p = prop(referee, 1)
    assert p["status"] == "awaiting-judgement" and p["tally"] == {"YES": 1, "NO": 0, "senators": 1}
    assert_replays(referee)


def test_a_tie_among_the_entitled_senators_is_no_majority(game):
    """ "there is a majority of Imperial Senators who have sent in a vote of YES": 1 of the 3 others
    is not."""
    send(game, "Ann", "[Proposal] Dragons", PROP)
    send(game, "Ben", "[Vote] 1", "YES")
    send(game, "Cat", "[Vote] 1", "YES")
    at(game, days=4, seconds=1)
    assert prop(game, 1)["status"] == "awaiting-judgement"  # 2 of 3 entitled (the author is not)
    send(game, "Ben", "[Proposal] Giants", 'Enact rule 29 "Giants":\nGiants exist.\n')
    send(game, "Cat", "[Vote] 2", "YES")
    at(game, days=4, seconds=1)
    assert prop(game, 2)["status"] == "rejected"  # 1 of 3: no majority


def test_the_emperor_starts_and_ends_a_playtest_by_mail(game):
    """Rule 15: ""A" rules are always active while "B" rules are only active when IE deems that a
    new playtest of the sub-game (represented by the "B" rules) should then begin."""
    send(game, "Ann", "[Playtest] start")
    assert "only the Emperor" in Outbox.body(reply(game, "Ann"))
    assert game.state("empire")["parameters"]["playtest"] is False
    send(game, "Joe", "[Playtest] start", "Let the wargame begin.")
    assert game.state("empire")["parameters"]["playtest"] is True
    rulesets = [
        m for m in Outbox(game).all() if m["X-Mailref-Kind"] == "ruleset" and m["To"] == addr("Ann")
    ]
    assert rulesets and "21. The World\r\n" in Outbox.body(rulesets[-1])
    send(game, "Joe", "[Playtest] end")
    assert game.state("empire")["parameters"]["playtest"] is False
    send(game, "Ann", "[Rules]")
    assert "21. The World [inactive outside a playtest]" in Outbox.body(reply(game, "Ann"))
    send(game, "Ann", "[Help]")
    assert "[Playtest] start" in Outbox.body(
        [m for m in Outbox(game).all() if m["To"] == addr("Ann")][-1]
    )


def test_brace_comments_are_shown_to_voters_and_kept_out_of_the_ruleset(game, outbox):
    """Rule 5: "{ } Text included within these marks are considered to be comments. They will be
    removed before THS includes the new proposal into the ruleset."
    """
    send(game, "Ann", "[Proposal] Dragons", PROP)
    announcement = next(
        m
        for m in outbox.all()
        if m["Subject"].endswith("[Proposal 1] Dragons") or m["Subject"] == "[Proposal 1] Dragons"
    )
    assert "{I like dragons}" in Outbox.body(announcement)
    assert "{I like dragons}" in prop(game, 1)["text"]
    for n in ("Ben", "Cat", "Dan"):
        send(game, n, "[Vote] 1", "YES")
    at(game, days=4, seconds=1)
    send(game, "Joe", "[Judge] 1", "ACCEPT")
    dragons = next(r for r in game.state("empire")["rules"] if r["number"] == "27")
    assert "I like dragons" not in dragons["text"] and "{" not in dragons["text"] + dragons["title"]
    assert "[Scribe: placeholder]" in dragons["text"]


def test_sub_rules_are_kept_by_the_shared_rule_change_code(game):
    """Rule 16: "Sub-rules of rule X would be numbered X.1, X.2, and so on." (sidekick refuses 24.5;
    imperial keeps it)."""
    send(game, "Joe", "[Proclamation] Sub", 'Enact rule 26.7 "Dragons":\nDragons fly.\n')
    numbers = [r["number"] for r in game.state("empire")["rules"]]
    assert numbers[numbers.index("26.6") + 1] == "26.7"
    send(game, "Joe", "[Proclamation] Again", 'Enact rule 26.07 "Wyrms":\nWyrms crawl.\n')
    assert "already exists as rule 26.7" in Outbox.body(reply(game, "Joe"))
