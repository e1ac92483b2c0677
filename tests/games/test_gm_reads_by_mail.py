"""The GM who only uses mail is answered as one: [Status] and [Rules] as the players read them,
a welcome whose examples the game takes, a result decided by the GM that says so and only so,
and a command written in the body of a reply pointed to the subject."""

from __future__ import annotations

import pytest

from support import hostile_smtp
from support.gm_mail import BLOG, CAROL, GM, blog_of_three, said, welcome
from support.helpers import Outbox, assert_replays, mail
from support.hostile_smtp import ALICE, BOB, G, mover

pytestmark = pytest.mark.spec("4.4", "2.5")

game = hostile_smtp.game  # the Sidekick game of Alice and Bob, played through SMTP


@pytest.fixture
def blog(referee, smtp, outbox):
    """A BlogNomic game of three Wizards, made playable by the GM's [Set]."""
    blog_of_three(referee, smtp)
    smtp(mail(GM, BLOG, "[Set]", "dormant_below=3", in_reply_to=welcome(outbox)), GM, BLOG)
    outbox.new()
    return referee


def test_the_gm_reads_status_and_rules_as_the_players_do(blog, smtp, outbox):
    smtp(mail(GM, BLOG, "[Status]"), GM, BLOG)
    status = said(outbox, GM)
    assert "not a player" not in status, status
    assert "Alice" in status and "Carol" in status, status
    smtp(mail(GM, BLOG, "[Rules]"), GM, BLOG)
    rules = said(outbox, GM)
    assert "not a player" not in rules, rules
    assert "Dormancy" in rules, rules
    smtp(mail(GM, BLOG, "[Settings]", "digest: daily"), GM, BLOG)
    settings = said(outbox, GM)
    assert "you are the GM of Blog, not one of its players" in settings, settings
    assert "ask the GM" not in settings, settings  # the GM is not sent to ask the GM
    smtp(mail("dave@example.org", BLOG, "[Status]"), "dave@example.org", BLOG)
    assert "dave@example.org is not a player of Blog" in said(outbox, "dave@example.org")


def test_a_proposal_the_gm_enacts_is_told_as_the_gms_alone(blog, smtp, outbox):
    gold = 'Enact a new rule "Gold":\nEach Wizard has Gold.\n'
    smtp(mail(ALICE, BLOG, "[Proposal] Gold", gold), ALICE, BLOG)
    outbox.new()
    smtp(mail(GM, BLOG, "[Decide] 1 enact", in_reply_to=welcome(outbox)), GM, BLOG)
    (told,) = outbox.to(CAROL, outbox.new(), kind="results")
    words = " ".join(Outbox.body(told).split())
    assert "is ENACTED (enacted by the GM)" in words, words
    assert "acting as Admin" not in words, words  # the GM decided it, not the rules' Admin
    assert "no reason given" not in words, words
    assert_replays(blog)


def test_the_welcome_of_a_sidekick_gm_offers_a_setting_the_game_takes(game, smtp, outbox):
    (notice,) = [m for m in outbox.to(GM) if "is open at" in str(m["Subject"])]
    welcomed = " ".join(Outbox.body(notice).split())
    assert "dormant_below" not in welcomed, welcomed  # BlogNomic's, not Sidekick's
    assert welcomed.startswith("Nomic Sidekick Nomic is open at nomes@ref.example"), welcomed
    # The GM by mail has no journal numbers at hand: the welcome names the matter instead too.
    assert "[Undo] proposal 3, [Undo] the vote of Bob on proposal 3" in welcomed, welcomed
    assert "[Set] win_score=150" in welcomed, welcomed
    smtp(mail(GM, G, "[Set] win_score=150", in_reply_to=welcome(outbox)), GM)
    assert game.state("nomes")["parameters"]["win_score"] == 150
    outbox.new()
    smtp(mail(GM, G, "[Help]"), GM)
    helped = said(outbox, GM)
    assert "dormant_below" not in helped, helped
    assert "(win_score=150)" in helped, helped


def test_a_command_on_the_first_line_of_a_reply_is_pointed_to_the_subject(blog, smtp, outbox):
    """The welcome says "reply to this mail with [Set] dormant_below=3": the GM who writes it
    in the body of the Reply is told where the tag goes, not only that nothing was found."""
    body = "[Set] dormant_below=4\n\nThanks!\n"
    subject = "Re: [Blog] Your game Blog is open at blog@ref.example"
    smtp(mail(GM, BLOG, subject, body, in_reply_to=welcome(outbox)), GM, BLOG)
    words = said(outbox, GM)
    assert "I found no command in your reply" in words, words
    assert 'put "[Set] dormant_below=4" in the subject' in words, words
    assert blog.state("blog")["parameters"]["dormant_below"] == 3


def test_a_blognomic_vote_the_gm_undoes_is_named_with_its_proposal(blog, smtp, outbox):
    gold = 'Enact a new rule "Gold":\nEach Wizard has Gold.\n'
    smtp(mail(ALICE, BLOG, "[Proposal] Gold", gold), ALICE, BLOG)
    smtp(mail(BOB, BLOG, "[Vote] 1", "AGAINST"), BOB, BLOG)
    outbox.new()
    undo = "[Undo] the vote of Bob on proposal 1"
    smtp(mail(GM, BLOG, undo, in_reply_to=welcome(outbox)), GM, BLOG)
    (told,) = outbox.to(CAROL, outbox.new(), kind="announcement")
    words = " ".join(Outbox.body(told).split())
    assert "vote on 1" not in words, words  # a number alone names nothing to a player
    assert 'Bob\'s vote on proposal 1 "Gold" is undone.' in words, words
    assert "Bob" not in blog.state("blog")["proposals"][0]["votes"]
    assert_replays(blog)


def test_a_decided_proposal_the_gm_decides_again_is_told_how_to_reverse_it(game, smtp, outbox):
    m, m_addr = mover(game)
    other, o_addr = ("Bob", BOB) if m == "Alice" else ("Alice", ALICE)
    smtp(mail(m_addr, G, "[Proposal] Tea time", 'Enact rule 24 "Tea":\nAll drink tea.\n'), m_addr)
    smtp(mail(o_addr, G, "[Vote] 1", "FOR"), o_addr)
    assert game.state("nomes")["proposals"][0]["status"] == "passed"
    outbox.new()
    smtp(mail(GM, G, "[Decide] 1 enact", in_reply_to=welcome(outbox)), GM)
    words = said(outbox, GM)
    assert "votes are no longer taken" not in words, words  # the GM decides, not votes
    assert "proposal 1 is closed (passed): there is nothing to decide" in words, words
    assert "[Decide] 1 fail reopen" in words, words
    smtp(mail(GM, G, "[Decide] 1 enact reopen", in_reply_to=welcome(outbox)), GM)
    words = said(outbox, GM)
    assert "--reopen" not in words, words  # a host's flag, not the GM's mail
    assert game.state("nomes")["proposals"][0]["status"] == "passed"
    assert_replays(game)


def test_a_vote_the_gm_sets_without_a_reason_is_told_without_one(blog, smtp, outbox):
    gold = 'Enact a new rule "Gold":\nEach Wizard has Gold.\n'
    smtp(mail(ALICE, BLOG, "[Proposal] Gold", gold), ALICE, BLOG)
    outbox.new()
    smtp(mail(GM, BLOG, "[Override] 1 Carol FOR", in_reply_to=welcome(outbox)), GM, BLOG)
    told = [m for m in outbox.to(CAROL, outbox.new()) if "Your vote was set" in str(m["Subject"])]
    words = " ".join(Outbox.body(told[0]).split())
    assert 'The GM recorded your vote on proposal 1 "Gold" as FOR.' in words, words
    assert "none given" not in words, words


def test_the_players_read_who_changed_a_score(game, smtp, outbox):
    outbox.new()
    smtp(mail(GM, G, "[Score] Bob +5", "because he won a bet", in_reply_to=welcome(outbox)), GM)
    (told,) = [m for m in outbox.to(ALICE, outbox.new()) if "Score: Bob" in str(m["Subject"])]
    words = " ".join(Outbox.body(told).split())
    assert "The GM sets Bob's score: 0 -> 5 (because he won a bet)" in words, words


def test_a_sidekick_proposal_the_gm_vetoes_is_told_as_the_gms(game, smtp, outbox):
    m, m_addr = mover(game)
    other = "Bob" if m == "Alice" else "Alice"
    smtp(mail(m_addr, G, "[Proposal] Tea time", 'Enact rule 24 "Tea":\nAll drink tea.\n'), m_addr)
    outbox.new()
    smtp(mail(GM, G, "[Decide] 1 veto", in_reply_to=welcome(outbox)), GM)
    (told,) = [m for m in outbox.to(ALICE, outbox.new()) if "FAILED" in str(m["Subject"])]
    words = " ".join(Outbox.body(told).split())
    assert f"Counted ABSTAIN, not having voted when the GM decided it: {other}." in words, words
    assert "the admin" not in words and "no reason given" not in words, words
