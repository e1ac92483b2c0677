"""Enacting a passed proposal: changes that cannot apply are said at once and at enactment; the GM
learns which passed rules are theirs to apply."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, assert_replays, mail, send_mail
from support.joining import confirm_waiting
from support.play import addr, send  # the same players' addresses, mail sent the same way
from support.play_four import BLOG, EMP, PLAYERS, blog, last, nomes

pytestmark = pytest.mark.spec("3.1")


def test_a_blognomic_proposal_whose_changes_cannot_apply_is_said_at_once_and_at_enactment(
    referee, outbox, clock
):
    """Alice proposes `In rule 1.8, replace "two" with "three"` (rule 1.8 says "2 Proposals").
    It used to be accepted without a word, then "ENACTED (popular)" went to everybody while
    nothing changed, and only the GM heard why. Now her ack and the voters' announcement say the
    changes cannot apply as the ruleset reads, and the result says none of them was applied."""
    blog(referee)
    outbox.new()
    body = (
        "Amend rule 1.3 to read:\nA Wizard may become Idle by posting a message saying so.\n\n"
        'In rule 1.8, replace "two" with "three".\n'
    )
    send(referee, "alice", "[Proposal] [Core] Tidy up", body, to=BLOG)
    new = outbox.new()
    ack = Outbox.body(last(outbox, addr("alice"), "ack", "Tidy up"))
    assert 'cannot apply: rule 1.8 does not contain the words "two"' in ack
    assert "send [Withdraw] 1 and propose it again" in ack
    announcement = next(
        m for m in new if m["X-Mailref-Kind"] == "announcement" and m["To"] == addr("bob")
    )
    assert 'these changes cannot apply: rule 1.8 does not contain the words "two"' in Outbox.body(
        announcement
    )
    for p in ("bob", "carol"):
        send(referee, p, "Re: [Proposal 1] [Core] Tidy up", "FOR", to=BLOG)
    clock.advance(hours=12, seconds=1)
    referee.tick()
    assert referee.state("blog")["proposals"][0]["status"] == "enacted"
    new = outbox.new()
    results = next(m for m in new if m["X-Mailref-Kind"] == "results" and m["To"] == addr("zoe"))
    assert "ENACTED" in str(results["Subject"])
    assert (
        "Its rule changes cannot apply to the ruleset as it now reads (rule 1.8 does not contain "
        "the words "
        '"two"): none of them is applied, and the GM is asked to correct the ruleset.'
    ) in Outbox.body(results)
    assert not [m for m in new if m["X-Mailref-Kind"] == "ruleset"]
    assert any("could not apply" in Outbox.body(m) for m in new if m["To"] == "gm@ref.example")
    rule = next(r for r in referee.state("blog")["rules"] if r["number"] == "1.3")
    assert (
        rule["text"] != "A Wizard may become Idle by posting a message saying so."
    )  # never half-applied
    assert_replays(referee)


def test_a_proposal_whose_changes_apply_has_no_such_note(referee, outbox, clock):
    """The note is no noise: a proposal that applies is announced and enacted without it."""
    blog(referee)
    send(
        referee,
        "alice",
        "[Proposal] Gold",
        'Enact a new rule entitled "Gold" with the following text:\nEach Wizard has 3 Gold.\n',
        to=BLOG,
    )
    for p in ("bob", "carol"):
        send(referee, p, "Re: [Proposal 1] Gold", "FOR", to=BLOG)
    clock.advance(hours=12, seconds=1)
    referee.tick()
    texts = [Outbox.body(m) for m in outbox.all() if m["To"] == addr("zoe")]
    assert not [t for t in texts if "cannot apply" in t or "none of them is applied" in t]
    assert any(m["X-Mailref-Kind"] == "ruleset" for m in outbox.to(addr("zoe")))


def test_an_accepted_imperial_proposal_without_rule_changes_says_the_gm_applies_it(
    referee, outbox, clock
):
    """Imperial allows free-text proposals (SPEC §3.1): when the Emperor accepts one, the players
    read that the GM applies it, rather than wait for a ruleset mail that never comes."""
    referee.create_game(
        "emp", "imperial", EMP, gm="gm@ref.example", parameters={"vote_period": "1h"}
    )
    for p in ("alice", "bob", "carol"):
        send(referee, p, "[Join]", f"Name: {p.title()}", to=EMP)
        confirm_waiting(referee)
    referee.admin("emp", {"type": "office", "office": "emperor", "holder": "Carol"}, "gm")
    send(referee, "bob", "[Point of Order] Roads?", "May we build roads?", to=EMP)
    send(
        referee,
        "alice",
        "[Proposal] A feast",
        "Every Senator is invited to a feast in the capital.",
        to=EMP,
    )
    send(referee, "bob", "Re: [Proposal 1] A feast", "YES", to=EMP)
    clock.advance(hours=1, seconds=1)
    referee.tick()
    judge = last(outbox, addr("carol"), "judge")
    referee.accept(
        mail(
            addr("carol"),
            EMP,
            "Re: " + str(judge["Subject"]),
            "ACCEPT",
            in_reply_to=judge["Message-ID"],
        ),
        "smtp",
    )
    results = last(outbox, addr("bob"), "results", "ACCEPTED")
    assert (
        "It has no rule changes the referee can apply: the GM applies its effects."
        in Outbox.body(results)
    )
    assert_replays(referee)


def test_the_gm_learns_which_passed_rules_are_theirs_to_apply(referee, outbox, clock):
    """Bob's proposal enacts rule 24 "Quick Votes" (+1 point for voting within a day) and
    rewrites rule 12 (two thirds to pass). The referee runs neither: rule 24 used to pass without a
    word to the GM, and rule 12 went on being run as "more FOR than AGAINST" in silence. Now the
    digest says rule 24 is the GM's to apply, and the one alert of the enactment names rule 12."""
    mover = nomes(referee)
    body = (
        'Enact rule 24 "Quick Votes":\nA player who votes within one day of a proposal receives 1 '
        "point.\n\n"
        "Amend rule 12 to read:\nA proposal passes when two thirds of the votes cast are for it.\n"
    )
    send(referee, mover.lower(), "[Proposal] Quick", body)
    for p in PLAYERS:
        if p.title() != mover:
            send(referee, p, "[Vote] 1", "FOR")
    alerts = [Outbox.body(m) for m in outbox.to("gm@ref.example", kind="alert")]
    assert len(alerts) == 1, alerts
    assert (
        'It rewrites rule 12 "Passing and Failing", which the referee carries out as the game\'s '
        "initial rules say" in alerts[0]
    )
    assert "Quick Votes" in alerts[0]  # said in the same alert, with how to apply it
    referee.admin("nomes", {"type": "digest"}, "gm")
    digest = Outbox.body(last(outbox, "gm@ref.example", "digest"))
    assert (
        'The referee does not run its new rule 24 "Quick Votes": what they require is the GM\'s '
        "to apply (by mail: [Score] NAME +N for a score, [Rule] with the changes for a rule; "
        "or on the host: `mailref score`, `mailref rule`)."
    ) in digest
    assert_replays(referee)


def test_a_passed_rule_the_referee_does_not_run_makes_no_alert_alone(referee, outbox, clock):
    """A new rule alone is the GM's in the digest, never an alert of its own (every Sidekick move
    enacts one)."""
    mover = nomes(referee)
    send(
        referee,
        mover.lower(),
        "[Proposal] Hats",
        'Enact rule 24 "Hats":\nEvery player wears a hat.\n',
    )
    for p in PLAYERS:
        if p.title() != mover:
            send(referee, p, "[Vote] 1", "FOR")
    assert referee.state("nomes")["proposals"][0]["status"] == "passed"
    assert outbox.to("gm@ref.example", kind="alert") == []


def test_the_gm_answers_changes_that_could_not_apply_with_rule_by_mail(referee, outbox, clock):
    """The GM's alert for enacted changes that could not apply names [Rule] first, the host's
    `mailref rule` after; the GM's Reply to it with [Rule] corrects the ruleset."""
    blog(referee)
    body = (
        "Amend rule 1.3 to read:\nA Wizard may become Idle by posting a message saying so.\n\n"
        'In rule 1.8, replace "two" with "three".\n'
    )
    send(referee, "alice", "[Proposal] [Core] Tidy up", body, to=BLOG)
    for p in ("bob", "carol"):
        send(referee, p, "Re: [Proposal 1] [Core] Tidy up", "FOR", to=BLOG)
    outbox.new()
    clock.advance(hours=12, seconds=1)
    referee.tick()
    (alert,) = [
        m
        for m in outbox.new()
        if m["To"] == "gm@ref.example" and "could not apply" in Outbox.body(m)
    ]
    said = " ".join(Outbox.body(alert).split())
    assert 0 <= said.find("reply to this alert with [Rule]") < said.find("`mailref rule"), said
    fix = "Amend rule 1.3 to read:\nA Wizard may become Idle by posting a message saying so.\n"
    send_mail(referee, "gm@ref.example", BLOG, "[Rule]", fix, in_reply_to=alert["Message-ID"])
    rule = next(r for r in referee.state("blog")["rules"] if r["number"] == "1.3")
    assert rule["text"] == "A Wizard may become Idle by posting a message saying so."
    assert_replays(referee)
