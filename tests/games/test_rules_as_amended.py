"""The rules as amended (SPEC §5): a passed change to a rule the referee runs by a parameter
changes what the referee does, by mail, in each Nomic variant."""

from __future__ import annotations

import pytest

from support import blognomic as bn
from support import imperial as imp
from support.helpers import Outbox
from support.play import PLAYERS, addr, nomes, send

VOTES_72 = 'In rule 1.6, replace "48 hours" with "72 hours".\n'


def _enact_in_blognomic(game, title: str, body: str, tag: str = "[Core]") -> int:
    """Ann proposes; Ben, Cat and Dan vote FOR (with Ann's, quorum 4); enacted after 12 hours."""
    bn.send(game, "Ann", f"[Proposal] {tag} {title}", body)
    number = max(m["number"] for m in game.state("blog")["proposals"])
    for n in ("Ben", "Cat", "Dan"):
        bn.send(game, n, f"Re: [Proposal {number}] {title}", "FOR")
    bn.at(game, hours=12, seconds=1)
    assert bn.matter(game, number)["status"] == "enacted"
    return number


@pytest.mark.spec("5.2")
def test_blognomic_votes_amended_to_72_hours_leaves_a_matter_open_60_hours_undecided(
    blognomic_game,
):
    """Rule 1.6 "Votes" amended from 48 to 72 hours: a proposal with FOR 2, AGAINST 1 (below
    Quorum 4) is neither Popular nor Unpopular by time at 60 hours, and is enacted at 72."""
    game = blognomic_game
    _enact_in_blognomic(game, "Longer votes", VOTES_72)
    state = game.state("blog")
    assert state["parameters"]["popular_after"] == "3d"
    ruleset = [
        m
        for m in Outbox(game).all()
        if m["X-Mailref-Kind"] == "ruleset" and m["To"] == bn.addr("Eve")
    ][-1]
    assert (
        "a matter open 3d is decided on the votes cast (popular_after: 48h -> 3d)"
        in Outbox.body(ruleset)
    )

    bn.send(game, "Ben", "[Proposal] Gold", bn.PROP)
    n = 2
    announcement = [
        m
        for m in Outbox(game).all()
        if m["X-Mailref-Kind"] == "announcement"
        and m["To"] == bn.addr("Cat")
        and "Gold" in str(m["Subject"])
    ][-1]
    assert "at the latest from" in Outbox.body(announcement)
    bn.send(game, "Cat", f"Re: [Proposal {n}] Gold", "FOR")
    bn.send(game, "Dan", f"Re: [Proposal {n}] Gold", "AGAINST")
    bn.at(game, hours=60)
    assert bn.matter(game, n)["status"] == "pending"  # 48 hours would have made it Popular
    bn.at(game, hours=12, seconds=1)
    assert bn.matter(game, n)["status"] == "enacted"
    result = [
        m
        for m in Outbox(game).all()
        if m["X-Mailref-Kind"] == "results" and m["To"] == bn.addr("Eve")
    ][-1]
    assert "Gold" in str(result["Subject"]) and "ENACTED" in str(result["Subject"])


@pytest.mark.spec("5.2")
def test_blognomic_proposal_limits_quorum_and_downtime_follow_their_rules(blognomic_game):
    """Rule 1.8's "2 Proposals pending", rule 4.1's Quorum and rule 3.4's dates follow their
    amended text; an amendment that says two different spans leaves the value and says so."""
    game = blognomic_game
    _enact_in_blognomic(
        game,
        "Busier",
        'In rule 1.8, replace "2 Proposals pending" with "4 Proposals pending".\n'
        'In rule 3.4, replace "December 27th" with "December 31st".\n',
    )
    p = game.state("blog")["parameters"]
    assert p["max_pending"] == 4 and p["max_per_day"] == 3 and p["downtime"] == "12-24..12-31"
    _enact_in_blognomic(
        game,
        "Smaller quorum",
        'In rule 4.1, replace "rounded down, plus one" with "rounded down".\n',
        tag="[Appendix]",
    )
    state = game.state("blog")
    assert state["parameters"]["quorum"] == "1/2 down +0"
    from mailref.engine.variants import get_variant

    assert get_variant("blognomic").quorum(state) == 3  # 7 Wizards: half, rounded down
    # Only one of rule 1.6's two "48 hours" is changed: the referee cannot tell which holds.
    _enact_in_blognomic(
        game,
        "Half a change",
        "Amend rule 1.6 to read:\nA Votable Matter is Popular if it has "
        "been open for voting for at least 72 hours. It is Unpopular if it has been open for "
        "voting "
        "for at least 96 hours and it is not Popular.\n",
    )
    assert game.state("blog")["parameters"]["popular_after"] == "48h"  # the value stays
    ruleset = [
        m
        for m in Outbox(game).all()
        if m["X-Mailref-Kind"] == "ruleset" and m["To"] == bn.addr("Eve")
    ][-1]
    assert (
        "the referee still runs it as a matter open 48h is decided on the votes cast"
        in Outbox.body(ruleset)
    )
    alerts = [Outbox.body(m) for m in Outbox(game).all() if m["X-Mailref-Kind"] == "alert"]
    assert any("which the referee runs as popular_after = 48h" in a for a in alerts), alerts


@pytest.mark.spec("5.3")
def test_imperial_rule_6_amended_to_2_days_applies_from_its_own_proposal_on(imperial_game):
    """Rule 6 amended from 4 days to 2 and accepted: proposals numbered at or above the amending
    one get 2 days from their posting (rule 17), the earlier one keeps its 4."""
    game = imperial_game
    imp.send(game, "Dan", "[Proposal] Roads", 'Enact rule 28 "Roads":\nRoads exist.\n')
    imp.at(game, hours=1)
    imp.send(game, "Ann", "[Proposal] Faster votes", 'In rule 6, replace "4 days" with "2 days".\n')
    for n in ("Ben", "Cat", "Dan"):
        imp.send(game, n, "Re: [Proposal 2] Faster votes", "YES")
    imp.at(game, days=3)
    imp.send(game, "Cat", "[Proposal] Bridges", 'Enact rule 29 "Bridges":\nBridges exist.\n')
    imp.at(game, days=1, seconds=1)
    assert imp.prop(game, 2)["status"] == "awaiting-judgement"
    imp.send(game, "Joe", "[Judge] 2", "ACCEPT")
    state = game.state("empire")
    assert state["parameters"]["vote_period"] == "2d"
    assert imp.prop(game, 1)["vote_period"] == "4d" and imp.prop(game, 1)["status"] != "voting"
    third = imp.prop(game, 3)
    assert third["vote_period"] == "2d"
    retimed = [
        m
        for m in Outbox(game).all()
        if "New voting deadlines" in str(m["Subject"]) and m["To"] == imp.addr("Ben")
    ]
    assert retimed and 'Proposal 3 "Bridges": votes are now due' in Outbox.body(retimed[0])
    # The ruleset mail sent with the change lists proposal 3's new deadline, not its old one.
    ruleset = [
        m
        for m in Outbox(game).all()
        if m["X-Mailref-Kind"] == "ruleset" and m["To"] == imp.addr("Ben")
    ][-1]
    due = next(line for line in Outbox.body(retimed[0]).splitlines() if "Bridges" in line)
    assert due.split("votes are now due ")[1].rstrip(".") in Outbox.body(ruleset)
    imp.send(game, "Ben", "[Proposal] Walls", 'Enact rule 30 "Walls":\nWalls exist.\n')
    fourth = imp.prop(game, 4)
    assert fourth["vote_period"] == "2d"
    ack = Outbox.body(imp.reply(game, "Ben"))
    assert "in 2 days" in ack or "2 days" in ack, ack
    imp.at(game, days=2, seconds=1)
    assert imp.prop(game, 4)["status"] != "voting"


@pytest.mark.spec("5.1")
def test_sidekick_rule_23_lowered_to_10_ends_the_game_with_its_author_the_one_winner(
    referee, outbox
):
    """Rule 23 amended to 10 points passes; its author now has 10 and wins at once (rules 20
    and 23 as they now read), alone; nobody else is at 10."""
    first = nomes(referee)
    send(
        referee,
        first,
        "[Proposal] Short game",
        "Amend rule 23 to read:\nThe first player to reach or exceed 10 points wins.\n",
    )
    for p in PLAYERS:
        if p.title() != first:
            send(referee, p, "[Vote] 1", "FOR")
    state = referee.state("nomes")
    assert state["parameters"]["win_score"] == 10
    assert state["status"] == "ended" and state["winners"] == [first]
    won = [
        m
        for m in outbox.all()
        if m["X-Mailref-Kind"] == "results"
        and "is won" in str(m["Subject"])
        and m["To"] == addr(PLAYERS[0])
    ]
    assert won and f"{first} reaches 10 points and wins (rule 23)!" in Outbox.body(won[0])


@pytest.mark.spec("5.1")
def test_sidekick_the_first_in_time_to_reach_a_lowered_target_wins_alone(referee, outbox):
    """The first mover passes a proposal (10 points); the second lowers rule 23 to 10 and passes
    (10 points too): the first reached 10 first and wins alone (rule 20), no tie."""
    first = nomes(referee)
    send(referee, first, "[Proposal] Dice", 'Enact rule 24 "Dice":\nEach player may roll a die.\n')
    for p in PLAYERS:
        if p.title() != first:
            send(referee, p, "[Vote] 1", "FOR")
    second = referee.state("nomes")["turn"]["player"]
    send(
        referee,
        second,
        "[Proposal] Short game",
        'In rule 23, replace "100 points" with "10 points".\n',
    )
    for p in PLAYERS:
        if p.title() != second:
            send(referee, p, "[Vote] 2", "FOR")
    state = referee.state("nomes")
    assert state["status"] == "ended" and state["winners"] == [first]
    won = [m for m in outbox.all() if "is won" in str(m["Subject"]) and m["To"] == addr(PLAYERS[0])]
    assert f"{first} reached 10 points first and wins (rules 20 and 23)!" in Outbox.body(won[0])


@pytest.mark.spec("5.1")
def test_a_ruleset_mail_past_100_rules_carries_the_changes_not_the_list(referee, outbox):
    """Rule 7: "an email to the group describing all of the updates". Past 100 rules the
    ruleset mail has the changes and the standing and points to [Rules], which has them all."""
    nomes(referee)
    changes = [
        {"kind": "enact", "number": str(100 + i), "title": f"Idea {i}", "text": f"Hum {i} times."}
        for i in range(80)
    ]
    referee.admin("nomes", {"type": "rule", "changes": changes}, "gm")
    ruleset = [
        m for m in outbox.all() if m["X-Mailref-Kind"] == "ruleset" and m["To"] == addr("bob")
    ][-1]
    body = Outbox.body(ruleset)
    assert "+ Rule 179" in body and "Players in turn order:" in body
    assert "The rule list now has 103 rules; send [Rules] for all of them." in body
    assert "The full rule list now reads" not in body and "reach or exceed 100 points" not in body
    send(referee, "bob", "[Rules]")
    rules = [
        m for m in outbox.all() if m["X-Mailref-Kind"] == "ruleset" and m["To"] == addr("bob")
    ][-1]
    assert "reach or exceed 100 points" in Outbox.body(rules) and "Hum 79 times." in Outbox.body(
        rules
    )


@pytest.mark.spec("5.3")
def test_imperial_rules_12_and_15_amended_by_proclamation_change_the_limit_and_the_a_rules(
    imperial_game,
):
    """Rule 12's "three undecided proposals" becomes two and rule 15's A rules run to 25: a
    Senator's third proposal replaces the oldest, and rule 21 is shown as an "A" rule."""
    game = imperial_game
    imp.send(
        game,
        "Joe",
        "[Proclamation] Tighter",
        'In rule 12, replace "three" with "two".\n'
        'In rule 15, replace "1 through 20 inclusive" with "1 through 25 inclusive".\n'
        'In rule 15, replace "numbered 21 or higher" with "numbered 26 or higher".\n',
    )
    p = game.state("empire")["parameters"]
    assert p["max_undecided"] == 2 and p["first_b_rule"] == 26
    for title in ("One", "Two", "Three"):
        imp.send(game, "Ann", f"[Proposal] {title}", f'Enact rule 40 "{title}":\n{title} exists.\n')
    assert imp.prop(game, 1)["status"] == "replaced" and imp.prop(game, 2)["status"] == "voting"
    imp.send(game, "Ben", "[Rules]")
    rules = Outbox.body(imp.reply(game, "Ben"))
    assert "21. The World" in rules and "21. The World [inactive" not in rules
