"""BlogNomic by mail (SPEC §5.2; seed 002). Each test cites the rule sentence it proves."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from mailref.engine.variants import get_variant
from support.blognomic import (
    NAMES,
    PROP,
    G,
    addr,
    at,
    matter,
    play_a_dynasty_change,
    reply,
    send,
    status,
)
from support.helpers import Clock, Outbox, assert_replays, make_referee
from support.joining import confirm_waiting

pytestmark = pytest.mark.spec("5.2")


@pytest.fixture
def game(blognomic_game):
    """This module's game: the blognomic game of tests/conftest.py."""
    return blognomic_game


def test_enacted_at_quorum_but_not_before_12_hours(game):
    """ "It has a number of FOR Votes that exceed or equal Quorum" and "It has been open for voting
    for at least 12 hours"."""
    send(game, "Ann", "[Proposal] Gold", PROP)
    for n in ("Ben", "Cat", "Dan"):
        send(game, n, "Re: [Proposal 1] Gold", "FOR")
    assert matter(game, 1)["status"] == "pending"  # quorum 4 reached, but only just opened
    at(game, hours=12)
    m = matter(game, 1)
    assert (m["status"], m["reason"]) == ("enacted", "popular")
    assert any(
        r["title"] == "Gold" and r["number"].startswith("2.") for r in game.state("blog")["rules"]
    )
    results = [x for x in Outbox(game).all() if x["X-Mailref-Kind"] == "results"]
    assert "Tally: FOR 4, AGAINST 0, quorum 4" in Outbox.body(results[0])


def test_plain_majority_after_48_hours(game):
    """ "It has been open for voting for at least 48 hours, it has more than 1 valid Vote cast on
    it, and more valid Votes cast on it are FOR than are AGAINST"."""
    send(game, "Ann", "[Proposal] Gold", PROP)
    send(game, "Ben", "[Vote] 1", "FOR")
    send(game, "Cat", "[Vote] 1", "AGAINST")
    at(game, hours=47)
    assert matter(game, 1)["status"] == "pending"
    at(game, hours=1)
    assert matter(game, 1)["status"] == "enacted"


def test_unpopular_when_too_many_against(game):
    """ "The number of Wizards who are not voting AGAINST it is less than Quorum"."""
    send(game, "Ann", "[Proposal] Gold", PROP)
    for n in ("Ben", "Cat", "Dan"):
        send(game, n, "[Vote] 1", "AGAINST")
    assert matter(game, 1)["status"] == "pending"  # 4 not against = quorum
    send(game, "Eve", "[Vote] 1", "AGAINST")
    assert (matter(game, 1)["status"], matter(game, 1)["reason"]) == ("failed", "unpopular")


def test_self_kill(game):
    """ "When a Wizard casts a vote AGAINST their own Proposal ... this renders the Proposal
    Self-Killed, even if the author later changes their Vote"."""
    send(game, "Ann", "[Proposal] Gold", PROP)
    send(game, "Ann", "[Vote] 1", "AGAINST")
    assert (matter(game, 1)["status"], matter(game, 1)["reason"]) == ("failed", "self-killed")


def test_author_def_is_not_a_self_kill(game):
    game.admin("blog", {"type": "office", "office": "historian", "holder": "Gus"}, "gm")
    send(game, "Gus", "[Proposal] Gold", PROP)
    send(game, "Ann", "[Proposal] Silver", PROP.replace("Gold", "Silver"))
    send(game, "Ann", "[Vote] 2", "DEF")
    assert matter(game, 2)["self_killed"] is False


def test_veto_by_the_historian_only(game):
    """ "when the Historian casts a vote of VETO on a Proposal, this renders the Proposal
    Vetoed"."""
    game.admin("blog", {"type": "office", "office": "historian", "holder": "Gus"}, "gm")
    send(game, "Ann", "[Proposal] Gold", PROP)
    send(game, "Ben", "[Vote] 1", "VETO")
    assert "only the Historian" in Outbox.body(reply(game, "Ben"))
    for n in ("Ben", "Cat", "Dan", "Eve"):
        send(game, n, "[Vote] 1", "DEF")
    send(game, "Gus", "[Vote] 1", "VETO")
    m = matter(game, 1)
    assert (m["status"], m["reason"]) == ("failed", "vetoed")
    assert m["tally"]["FOR"] == 1  # DEF does not follow a VETO


def test_def_follows_the_historians_for_and_against(game):
    """ "When the Historian has a valid Vote other than VETO ... all votes of DEFERENTIAL ... the
    same as the Historian's Vote"."""
    game.admin("blog", {"type": "office", "office": "historian", "holder": "Gus"}, "gm")
    send(game, "Ann", "[Proposal] Gold", PROP)
    send(game, "Ben", "[Vote] 1", "DEF")
    send(game, "Cat", "[Vote] 1", "DEF")
    send(game, "Gus", "[Vote] 1", "FOR")
    at(game, hours=12)
    assert matter(game, 1)["status"] == "enacted"  # Ann, Gus, Ben(DEF), Cat(DEF) = 4
    send(game, "Ann", "[Proposal] Silver", PROP.replace("Gold", "Silver"))
    for n in ("Ben", "Cat", "Dan"):
        send(game, n, "[Vote] 2", "DEF")
    assert matter(game, 2)["status"] == "pending"
    send(game, "Gus", "[Vote] 2", "AGAINST")
    assert (matter(game, 2)["status"], matter(game, 2)["reason"]) == ("failed", "unpopular")


def test_stale_proposal_is_skipped_and_failed(game):
    """ "If a proposal somehow ends up being pending for more than 7 days, it is ignored ... and can
    be failed by any Admin"."""
    game.admin("blog", {"type": "set", "values": {"popular_after": "30d"}}, "gm")
    send(game, "Ann", "[Proposal] Gold", PROP)
    at(game, days=1)
    send(game, "Ben", "[Proposal] Silver", PROP.replace("Gold", "Silver"))
    at(game, days=6, seconds=2)
    assert (matter(game, 1)["status"], matter(game, 1)["reason"]) == ("failed", "stale")
    for n in ("Cat", "Dan", "Eve"):
        send(game, n, "[Vote] 2", "FOR")
    assert matter(game, 2)["status"] == "enacted"  # now the oldest pending


def test_two_pending_and_three_a_day(game):
    """ "unless the Wizard already has 2 Proposals pending, or has already made 3 Proposals that
    day"."""
    send(game, "Ann", "[Proposal] One", PROP)
    send(game, "Ann", "[Proposal] Two", PROP)
    send(game, "Ann", "[Proposal] Three", PROP)
    assert "2 proposals pending" in Outbox.body(reply(game, "Ann"))
    send(game, "Ann", "[Withdraw] 1")
    send(game, "Ann", "[Proposal] Three", PROP)
    send(game, "Ann", "[Withdraw] 2")
    send(game, "Ann", "[Proposal] Four", PROP)
    assert "3 proposals today" in Outbox.body(reply(game, "Ann"))
    assert matter(game, 1)["reason"] == "withdrawn"


def test_idling_changes_quorum_mid_vote(game):
    """Idle Wizards "are not counted as Wizards": quorum follows at once."""
    send(game, "Ann", "[Proposal] Gold", PROP)
    send(game, "Ben", "[Vote] 1", "FOR")
    send(game, "Cat", "[Vote] 1", "FOR")
    at(game, hours=13)
    assert matter(game, 1)["status"] == "pending"  # 3 FOR < quorum 4
    send(game, "Fay", "[Idle]")
    send(game, "Gus", "[Idle]")
    assert game.state("blog")["players"][-1]["status"] == "idle"
    assert matter(game, 1)["status"] == "enacted"  # 5 Wizards: quorum 3


def test_dormancy(tmp_path):
    """ "If there are fewer than five Wizards, then BlogNomic is Dormant ... proposals may not be
    submitted"."""
    r = make_referee(tmp_path, Clock())
    r.create_game("blog", "blognomic", G)
    for n in NAMES[:4]:
        send(r, n, "[Join]", f"Name: {n}")
        confirm_waiting(r)
    send(r, "Ann", "[Proposal] Gold", PROP)
    assert "Dormant" in Outbox.body(reply(r, "Ann"))


def test_seasonal_downtime_across_the_year(tmp_path):
    """ "Blognomic goes into hiatus every year on December 24th, and remains in hiatus until
    December 27th"."""
    clock = Clock(datetime(2026, 12, 23, 12, 0, tzinfo=UTC))
    r = make_referee(tmp_path, clock)
    r.create_game("blog", "blognomic", G)
    for n in NAMES:
        send(r, n, "[Join]", f"Name: {n}")
        confirm_waiting(r)
    send(r, "Ann", "[Proposal] Gold", PROP)
    for n in ("Ben", "Cat", "Dan"):
        send(r, n, "[Vote] 1", "FOR")
    clock.advance(hours=13)  # 24 December, 01:00
    r.tick()
    assert matter(r, 1)["status"] == "pending"
    send(r, "Ben", "[Proposal] Silver", PROP)
    assert "Seasonal Downtime" in Outbox.body(reply(r, "Ben"))
    clock.now = datetime(2026, 12, 27, 0, 0, 1, tzinfo=UTC)
    r.tick()
    assert matter(r, 1)["status"] == "enacted"
    clock.now = datetime(2027, 1, 1, 0, 30, tzinfo=UTC)
    send(r, "Ben", "[Proposal] Silver", PROP.replace("Gold", "Silver"))
    assert matter(r, 2)["status"] == "pending"


def test_dov_hiatus_enactment_ascension_and_a_new_dynasty(game):
    """DoV: Hiatus while pending; enacted when Popular and 12h with no AGAINST; the author becomes
    Historian; other DoVs fail; the Ascension Address repeals the dynastic rules not kept."""
    play_a_dynasty_change(game)


def test_failed_dov_with_against_cools_down_120_hours(game):
    """ "if it had at least one AGAINST vote, the Wizard who posted it cannot make another DoV until
    after 120 hours"."""
    send(game, "Ann", "[DoV] Mine", "")
    for n in ("Ben", "Cat", "Dan", "Eve"):
        send(game, n, "[Vote] 1", "AGAINST")
    at(game, hours=12)
    assert matter(game, 1)["status"] == "failed"
    send(game, "Ann", "[DoV] Mine again", "")
    assert "120 hours" in Outbox.body(reply(game, "Ann"))
    at(game, hours=120)
    send(game, "Ann", "[DoV] Mine again", "")
    assert matter(game, 2)["status"] == "pending"


def test_cfj_decided_by_vote_and_roll(game):
    """CfJ: "A Pending CfJ may be Enacted by any Admin if ... It is Popular"; [Roll] is journaled
    and announced."""
    send(
        game,
        "Ann",
        "[CfJ] [Core] Gold is miscounted",
        'In rule "Votes", replace "FOR, AGAINST" with "FOR, AGAINST".\n',
    )
    for n in ("Ben", "Cat", "Dan"):
        send(game, n, "Re: [CfJ 1] Gold is miscounted", "FOR")
    assert matter(game, 1)["status"] == "enacted"
    send(game, "Eve", "[Roll] DICE6")
    roll = game.state("blog")["rolls"][-1]
    assert roll["player"] == "Eve" and 1 <= roll["values"][0] <= 6
    assert any("rolled 1d6" in m["Subject"] for m in Outbox(game).all())


def test_dov_with_an_against_vote_waits_for_24_hours(game):
    """ "It is Popular, and it has been open for at least 24 hours" — an AGAINST vote without the
    Historian's FOR waits."""
    send(game, "Ann", "[DoV] Mine", "")
    for n in ("Ben", "Cat", "Dan"):
        send(game, n, "[Vote] 1", "FOR")
    send(game, "Eve", "[Vote] 1", "AGAINST")
    at(game, hours=12)
    assert matter(game, 1)["status"] == "pending"
    at(game, hours=12)
    assert matter(game, 1)["status"] == "enacted"
    assert game.state("blog")["historian"] == "Ann"


# ---- every rule as the seed writes it ---------------------------------------------


def test_idle_wizards_are_not_counted_as_wizards(game):
    """Rule "Idle Wizards": "For the purposes of all Gamestate and the Ruleset, excluding Rules
    “Ruleset and Gamestate”, “Wizards”, “Dynasties”, “Fair Play” and any of those Rules’ subrules,
    Idle Wizards are not counted as Wizards." So no Proposal, CfJ or DoV from them, and no
    Hiatus."""
    send(game, "Gus", "[Idle]")
    for subject in ("[Proposal] Gold", "[CfJ] Is this fair?", "[DoV] I win"):
        send(game, "Gus", subject, PROP)
        assert "Idle Wizards are not counted as Wizards" in Outbox.body(reply(game, "Gus"))
    st = game.state("blog")
    assert st["proposals"] == [] and st["judgements"] == [] and status(game) == "active"


def test_inactive_special_case_rules_mean_nothing(tmp_path):
    """Rule "Special Case": "The text of Special Case Rules that are inactive shall be interpreted,
    for the purpose of play, to mean nothing." Dormancy and Seasonal Downtime follow the rule's
    state."""
    clock = Clock(datetime(2026, 12, 25, 12, 0, tzinfo=UTC))
    r = make_referee(tmp_path, clock)
    r.create_game("blog", "blognomic", G)
    for n in NAMES[:4]:
        send(r, n, "[Join]", f"Name: {n}")
        confirm_waiting(r)
    send(r, "Ann", "[Proposal] Gold", PROP)
    assert "Seasonal Downtime" in Outbox.body(reply(r, "Ann"))
    r.admin(
        "blog",
        {
            "type": "rule",
            "changes": [
                {"kind": "retitle", "number": "3.4", "title": "Seasonal Downtime [Inactive]"}
            ],
        },
        "gm",
    )
    assert status(r) == "active"
    send(r, "Ann", "[Proposal] Gold", PROP)
    assert "Dormant" in Outbox.body(reply(r, "Ann"))  # four Wizards
    r.admin(
        "blog",
        {
            "type": "rule",
            "changes": [{"kind": "retitle", "number": "3.5", "title": "Dormancy [Inactive]"}],
        },
        "gm",
    )
    send(r, "Ann", "[Proposal] Gold", PROP)
    assert matter(r, 1)["status"] == "pending"
    r.admin("blog", {"type": "rule", "changes": [{"kind": "repeal", "number": "3.4"}]}, "gm")
    assert status(r) == "active"  # a repealed Special Case rule means nothing either
    assert_replays(r)


def test_two_pending_dovs_no_false_end_of_hiatus(game):
    """ "When a DoV fails and there are no pending DoVs, Hiatus ends." — but "The Hiatus continues
    until the new Historian makes an Ascension Address": the DoV failed by the enacted one ends
    nothing."""
    send(game, "Ben", "[DoV] I have won", "")
    send(game, "Cat", "[DoV] No, I have", "")
    for n in ("Dan", "Eve", "Fay"):
        send(game, n, "[Vote] 1", "FOR")
    at(game, hours=12)
    assert matter(game, 1)["status"] == "enacted" and matter(game, 2)["status"] == "failed"
    subjects = [m["Subject"] for m in Outbox(game).all()]
    assert not any("Hiatus ends" in s for s in subjects)
    assert status(game) == "hiatus"


@pytest.mark.parametrize(
    "command,check",
    [
        ("DICE54321", lambda v: 1 <= v <= 54321),
        ("DICE1", lambda v: v == 1),
        ("DICE123456789012345678901", lambda v: 1 <= v <= 123456789012345678901),
        ("FRUIT", lambda v: v in ("Lemon", "Orange", "Kiwi", "Grape", "Cherry", "Tangelo")),
        (
            "COLOUR",
            lambda v: v
            in (
                "White",
                "Red",
                "Green",
                "Silver",
                "Yellow",
                "Turquoise",
                "Magenta",
                "Orange",
                "Purple",
                "Black",
            ),
        ),
        (
            "COLOR",
            lambda v: v
            in (
                "White",
                "Red",
                "Green",
                "Silver",
                "Yellow",
                "Turquoise",
                "Magenta",
                "Orange",
                "Purple",
                "Black",
            ),
        ),
    ],
)
def test_random_generators(game, command, check):
    """Rule "Random Generators": "The DICEN command can be used to generate a random number between
    1 and N." "The FRUIT command ..." "The COLOUR (or COLOR) command will return a random result
    ..."."""
    send(game, "Eve", f"[Roll] {command}")
    roll = game.state("blog")["rolls"][-1]
    assert roll["player"] == "Eve" and check(roll["values"][0]), roll
    assert reply(game, "Eve")["X-Mailref-Kind"] == "ack"


def test_dice_of_22_digits_cannot_be_rolled(game):
    """Rule "Clarifications": "DICEN cannot be rolled in the GNDT if N is 22 or more digits
    long."."""
    send(game, "Eve", "[Roll] DICE" + "1" * 22)
    assert reply(game, "Eve")["X-Mailref-Kind"] == "error" and game.state("blog")["rolls"] == []


def test_generators_follow_the_rule_text(game):
    """ "Any changes to the potential outcomes of the GNDT’s random result commands must be made by
    proposal"."""
    game.admin(
        "blog",
        {
            "type": "rule",
            "changes": [
                {
                    "kind": "replace",
                    "number": "4.3",
                    "old": "Kiwi, Grape, Cherry, Tangelo",
                    "new": "Kiwi",
                }
            ],
        },
        "gm",
    )
    for _ in range(5):
        send(game, "Eve", "[Roll] FRUIT")
    assert {r["values"][0] for r in game.state("blog")["rolls"]} <= {"Lemon", "Orange", "Kiwi"}


def test_no_rejoining_within_two_weeks(game):
    """Rule "Wizards": "A human who has ceased to be a Wizard in this way may not become a Wizard
    again within the following two weeks."."""
    send(game, "Gus", "[Quit]")
    send(game, "Gus", "[Join]", "Name: Gus")
    confirm_waiting(game)
    assert "two weeks" in Outbox.body(reply(game, "Gus"))
    send(game, "Gus", "[Join]", "Name: Gustav")  # another name, the same human (address)
    confirm_waiting(game)
    assert "two weeks" in Outbox.body(reply(game, "Gus"))
    at(game, days=14)
    send(game, "Gus", "[Join]", "Name: Gus")
    confirm_waiting(game)
    assert (
        next(p for p in game.state("blog")["players"] if p["name"] == "Gus")["status"] == "active"
    )


def test_no_unidle_within_four_days_of_idling(game):
    """Rule "Idle Wizards": "... unless the Wizard who would be Unidled asked to become (or rendered
    themselves) Idle within the previous four days, and within the current dynasty."."""
    send(game, "Gus", "[Idle]")
    at(game, days=3)
    send(game, "Gus", "[Unidle]")
    assert "four days" in Outbox.body(reply(game, "Gus"))
    send(game, "Gus", "[Back]")
    assert "four days" in Outbox.body(reply(game, "Gus"))
    at(game, days=1)
    send(game, "Gus", "[Unidle]")
    assert (
        next(p for p in game.state("blog")["players"] if p["name"] == "Gus")["status"] == "active"
    )


def test_core_and_appendix_changes_need_their_tags(game):
    """Rule "Tags": "Votable Matters require the [Core] tag in order to make changes to the Core
    Rules, and the [Appendix] tag in order to make changes to the Appendix Rules."."""
    amend = 'In rule 1.8, replace "3 Proposals" with "4 Proposals".\n'
    send(game, "Ann", "[Proposal] More proposals", amend)
    assert "needs the [Core] tag" in Outbox.body(reply(game, "Ann"))
    send(game, "Ann", "[Proposal] Time", 'In rule "Clarifications", replace "UTC" with "GMT".\n')
    assert "needs the [Appendix] tag" in Outbox.body(reply(game, "Ann"))
    assert game.state("blog")["proposals"] == []
    send(game, "Ann", "[Proposal] [Core] More proposals", amend)
    for n in ("Ben", "Cat", "Dan"):
        send(game, n, "[Vote] 1", "FOR")
    at(game, hours=12)
    assert (
        "4 Proposals"
        in next(r for r in game.state("blog")["rules"] if r["number"] == "1.8")["text"]
    )
    game.admin(
        "blog",
        {
            "type": "rule",
            "changes": [{"kind": "retitle", "number": "3.2", "title": "Tags [Inactive]"}],
        },
        "gm",
    )
    send(
        game,
        "Ben",
        "[Proposal] Fewer proposals",
        'In rule 1.8, replace "4 Proposals" with "3 Proposals".\n',
    )
    assert matter(game, 2)["status"] == "pending"  # an inactive rule "Tags" means nothing


def test_the_new_historian_passes_the_role_by_mail(game):
    """Rule "Victory and Ascension": "That Wizard may pass this role to another Wizard at this point
    by making a post to that effect, if they wish."."""
    send(game, "Ben", "[DoV] I have won", "")
    for n in ("Dan", "Eve", "Fay"):
        send(game, n, "[Vote] 1", "FOR")
    at(game, hours=12)
    send(game, "Cat", "[Historian] Dan")
    assert "only the new Historian" in Outbox.body(reply(game, "Cat"))
    send(game, "Ben", "[Historian] Dan")
    st = game.state("blog")
    assert (
        st["historian"] == "Dan"
        and "historian" in next(p for p in st["players"] if p["name"] == "Dan")["offices"]
    )
    assert "historian" not in next(p for p in st["players"] if p["name"] == "Ben")["offices"]
    send(game, "Ben", "[Ascension] Pirates", "")
    assert "only the new Historian" in Outbox.body(reply(game, "Ben"))
    send(game, "Dan", "[Ascension] Pirates", "Keep: 2.1")
    assert not game.state("blog")["ascension_pending"] and status(game) == "active"
    send(game, "Dan", "[Historian] Ann")
    assert reply(game, "Dan")["X-Mailref-Kind"] == "error"  # "at this point" only
    send(game, "Ann", "[Help]")
    helptext = Outbox.body([m for m in Outbox(game).all() if m["To"] == addr("Ann")][-1])
    assert "[Historian] Name" in helptext


def test_status_is_hiatus_while_proposals_are_not_accepted(tmp_path):
    """SPEC §1.5 "hiatus: proposals are not accepted now" — a pending DoV ("the game immediately
    goes into Hiatus"), the awaited Ascension ("The Hiatus continues until the new Historian makes
    an Ascension Address"), and Seasonal Downtime ("Blognomic goes into hiatus every year on
    December 24th")."""
    clock = Clock(datetime(2026, 12, 1, 9, 0, tzinfo=UTC))
    r = make_referee(tmp_path, clock)
    r.clock_ = clock
    r.create_game("blog", "blognomic", G)
    for n in NAMES:
        send(r, n, "[Join]", f"Name: {n}")
        confirm_waiting(r)
    assert status(r) == "active"
    send(r, "Ben", "[DoV] I have won", "")
    assert status(r) == "hiatus"
    for n in ("Dan", "Eve", "Fay"):
        send(r, n, "[Vote] 1", "FOR")
    at(r, hours=12)
    assert status(r) == "hiatus" and r.state("blog")["ascension_pending"]
    send(r, "Ben", "[Ascension] Pirates", "Keep: 2.1")
    assert status(r) == "active"
    clock.now = datetime(2026, 12, 24, 0, 0, tzinfo=UTC)
    r.tick()
    assert status(r) == "hiatus"
    clock.now = datetime(2026, 12, 27, 0, 0, tzinfo=UTC)
    r.tick()
    assert status(r) == "active"
    assert_replays(r)


def test_dov_and_ascension_wait_for_the_end_of_seasonal_downtime(tmp_path):
    """Decision (docs/games/blognomic.md): "During this time no game actions may be taken except
    those described in the rules entitled “Votable Matters,” “Gamestate Tracking” and “Call for
    Judgement”": votes on a DoV are taken, but enacting it and the Ascension Address are "Victory
    and Ascension" and wait."""
    clock = Clock(datetime(2026, 12, 23, 12, 0, tzinfo=UTC))
    r = make_referee(tmp_path, clock)
    r.clock_ = clock
    r.create_game("blog", "blognomic", G)
    for n in NAMES:
        send(r, n, "[Join]", f"Name: {n}")
        confirm_waiting(r)
    send(r, "Ben", "[DoV] I have won", "")
    for n in ("Dan", "Eve", "Fay"):
        send(r, n, "[Vote] 1", "FOR")
    at(r, hours=13)  # 24 December, 01:00: the DoV is Popular and 13 hours old
    assert matter(r, 1)["status"] == "pending"
    send(r, "Gus", "[Vote] 1", "FOR")  # votes are "Votable Matters": taken
    assert matter(r, 1)["votes"]["Gus"] == "FOR"
    clock.now = datetime(2026, 12, 27, 0, 0, tzinfo=UTC)
    r.tick()
    assert matter(r, 1)["status"] == "enacted"
    clock.now = datetime(2027, 12, 24, 10, 0, tzinfo=UTC)  # the Historian waited a year
    send(r, "Ben", "[Ascension] Pirates", "Keep: 2.1")
    assert "Seasonal Downtime" in Outbox.body(reply(r, "Ben"))
    clock.now = datetime(2027, 12, 27, 10, 0, tzinfo=UTC)
    send(r, "Ben", "[Ascension] Pirates", "Keep: 2.1")
    assert not r.state("blog")["ascension_pending"]
    assert_replays(r)


def test_for_then_def_without_a_historian_vote_stays_for(game):
    """Decision (docs/games/blognomic.md): "A Wizard’s Vote on a Votable Matter is the last valid
    voting icon that they have used"; DEFERENTIAL is valid only "When the Historian has a valid Vote
    other than VETO"."""
    game.admin("blog", {"type": "office", "office": "historian", "holder": "Gus"}, "gm")
    send(game, "Ann", "[Proposal] Gold", PROP)
    for n in ("Ben", "Cat", "Dan"):
        send(game, n, "[Vote] 1", "FOR")
    send(game, "Dan", "[Vote] 1", "DEF")  # the Historian has not voted: Dan's FOR stands
    at(game, hours=12)
    m = matter(game, 1)
    assert m["status"] == "enacted" and m["tally"]["FOR"] == 4
    send(game, "Ann", "[Proposal] Silver", PROP.replace("Gold", "Silver"))
    for n in ("Ben", "Cat", "Dan"):
        send(game, n, "[Vote] 2", "FOR")
    send(game, "Dan", "[Vote] 2", "DEF")
    send(game, "Gus", "[Vote] 2", "AGAINST")  # now Dan's DEF is valid and follows the Historian
    _, _, counts = get_variant("blognomic").wizards.opinion(
        game.state("blog"), matter(game, 2), game.clock_.now
    )
    assert (counts["FOR"], counts["AGAINST"]) == (
        3,
        2,
    )  # Ann, Ben, Cat FOR; Gus and Dan (DEF) AGAINST
