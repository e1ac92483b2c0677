"""The GM who only uses mail steers the game as the host's commands do: [Set] dormant_below=3
(`mailref game set`, all or none, told in words), [Decide] 1 enact (`mailref proposal`),
[Override] 1 Bob AGAINST (`mailref vote`) and [Office] historian Alice (`mailref office`).
Only the GM may, and only as a Reply to the game's mail; each is journaled as the GM's."""

from __future__ import annotations

import pytest

from mailref.cli.court import journal_rows
from support import hostile_smtp
from support.gm_mail import BLOG, CAROL, GM, blog_of_three, said, welcome
from support.helpers import Outbox, assert_replays, mail
from support.hostile_smtp import ALICE, BOB, G, mover
from support.imperial import PROP, at, prop
from support.imperial import send as senate

pytestmark = pytest.mark.spec("4.4", "2.5")

game = hostile_smtp.game  # the Sidekick game of Alice and Bob, played through SMTP


@pytest.fixture
def blog(referee, smtp, outbox):
    """A BlogNomic game of three Wizards: Dormant, as five are needed."""
    blog_of_three(referee, smtp)
    outbox.new()
    return referee


def test_the_gm_sets_a_small_game_going_by_mail(blog, smtp, outbox):
    (notice,) = [m for m in outbox.to(GM) if "is open at" in str(m["Subject"])]
    news = " ".join(Outbox.body(notice).split())
    by_mail = news.find("reply to this mail with [Set] dormant_below=3")
    assert 0 <= by_mail < news.find("or on the host: `mailref game set blog dormant_below=3`")
    fix = "dormant_below=3\nReason: three of us play"
    smtp(mail(ALICE, BLOG, "[Set]", fix), ALICE, BLOG)
    assert "only the GM changes the game's settings by mail" in said(outbox, ALICE)
    smtp(mail(GM, BLOG, "[Set]", fix), GM, BLOG)
    assert "only as a Reply to mail the game sent you" in said(outbox, GM)
    # All or none: a value the game cannot take leaves the others unchanged.
    smtp(
        mail(GM, BLOG, "[Set]", "dormant_below: 3\nmin_open=soon", in_reply_to=welcome(outbox)),
        GM,
        BLOG,
    )
    assert "min_open" in said(outbox, GM)
    smtp(mail(GM, BLOG, "[Set]", "gm=alice@example.org", in_reply_to=welcome(outbox)), GM, BLOG)
    assert "the game's GM is changed only on the host" in said(outbox, GM)
    smtp(mail(GM, BLOG, "[Set]", "Please make it smaller.", in_reply_to=welcome(outbox)), GM, BLOG)
    assert "I found no setting in your [Set]" in said(outbox, GM)
    assert blog.state("blog")["parameters"]["dormant_below"] == 5
    smtp(mail(GM, BLOG, "Re: [Set]", fix, in_reply_to=welcome(outbox)), GM, BLOG)
    assert blog.state("blog")["parameters"]["dormant_below"] == 3
    new = outbox.new()
    (told,) = outbox.to(CAROL, new, kind="announcement")
    words = " ".join(Outbox.body(told).split())
    assert "The game now needs 3 Wizards to leave Dormancy, and has 3" in words, words
    assert "Reason: three of us play" in words
    assert "dormant_below = 3" in " ".join(Outbox.body(outbox.to(GM, new, kind="ack")[-1]).split())
    last = journal_rows(blog, "blog")[-1]
    assert (last["source"], last["who"], last["action"]) == ("mail", "GM", "set")
    assert_replays(blog)


def test_the_gm_names_a_historian_by_mail(blog, smtp, outbox):
    (notice,) = [m for m in outbox.to(GM) if "is open at" in str(m["Subject"])]
    news = " ".join(Outbox.body(notice).split())
    by_mail = news.find("reply to this mail with [Office] historian NAME")
    assert 0 <= by_mail < news.find("or on the host: `mailref office blog historian NAME`"), news
    smtp(mail(BOB, BLOG, "[Office] historian Bob"), BOB, BLOG)
    assert "only the GM names who holds an office by mail" in said(outbox, BOB)
    smtp(mail(GM, BLOG, "[Office] historian Alice"), GM, BLOG)
    assert "[Office] historian NAME" in said(outbox, GM)
    smtp(mail(GM, BLOG, "[Office]", "", in_reply_to=welcome(outbox)), GM, BLOG)
    assert "names no office" in said(outbox, GM)
    smtp(mail(GM, BLOG, "[Office] Historian: Alice", in_reply_to=welcome(outbox)), GM, BLOG)
    assert blog.state("blog")["historian"] == "Alice"
    (told,) = outbox.to(BOB, outbox.new(), kind="announcement")
    assert "Alice now holds the office of historian." in Outbox.body(told)
    assert journal_rows(blog, "blog")[-1]["who"] == "GM"
    assert_replays(blog)


def test_the_gm_decides_a_proposal_by_mail(game, smtp, outbox):
    m, m_addr = mover(game)
    smtp(mail(m_addr, G, "[Proposal] Tea time", 'Enact rule 24 "Tea":\nAll drink tea.\n'), m_addr)
    o_addr = BOB if m == "Alice" else ALICE
    smtp(mail(o_addr, G, "[Decide] 1 enact"), o_addr)
    assert "only the GM decides a proposal by mail" in said(outbox, o_addr)
    smtp(mail(GM, G, "[Decide] 1 enact"), GM)
    assert "only as a Reply to mail the game sent you" in said(outbox, GM)
    smtp(mail(GM, G, "[Decide] 1 maybe", in_reply_to=welcome(outbox)), GM)
    assert "'1 maybe' is not a decision" in said(outbox, GM)
    assert game.state("nomes")["proposals"][0]["status"] == "voting"
    body = "Reason: everyone agreed at the pub"
    smtp(mail(GM, G, "[Decide] 1 enact", body, in_reply_to=welcome(outbox)), GM)
    prop = game.state("nomes")["proposals"][0]
    assert prop["status"] == "passed"
    assert any(r["number"] == "24" for r in game.state("nomes")["rules"])
    (told,) = outbox.to(o_addr, outbox.new(), kind="results")
    words = " ".join(Outbox.body(told).split())
    assert "Decided by the GM: everyone agreed at the pub." in words, words
    assert prop["reason"] == "enacted by the GM"
    last = journal_rows(game, "nomes")[-1]
    assert (last["source"], last["who"], last["action"]) == ("mail", "GM", "decide")
    assert_replays(game)


def test_the_gm_records_a_players_vote_by_mail(game, smtp, outbox):
    m, m_addr = mover(game)
    other, o_addr = ("Bob", BOB) if m == "Alice" else ("Alice", ALICE)
    smtp(mail(m_addr, G, "[Proposal] Tea time", 'Enact rule 24 "Tea":\nAll drink tea.\n'), m_addr)
    smtp(mail(m_addr, G, f"[Override] 1 {other} AGAINST"), m_addr)
    assert "only the GM records another's vote by mail" in said(outbox, m_addr)
    smtp(mail(GM, G, f"[Override] 1 {other} PERHAPS", in_reply_to=welcome(outbox)), GM)
    assert "is not a player's vote" in said(outbox, GM)
    body = "Reason: phoned it in"
    smtp(mail(GM, G, f"[Override] 1 {other} AGAINST", body, in_reply_to=welcome(outbox)), GM)
    prop = game.state("nomes")["proposals"][0]
    assert prop["votes"][other] == "AGAINST"
    new = outbox.new()
    ack = " ".join(Outbox.body(outbox.to(GM, new, kind="ack")[-1]).split())
    assert "proposal 1 — AGAINST (the GM's override)" in ack, ack
    assert "Your move" not in ack  # the GM's own answer, not the player's mail
    told = [x for x in outbox.to(o_addr, new) if "Your vote was set" in str(x["Subject"])]
    words = " ".join(Outbox.body(told[0]).split())
    assert 'The GM recorded your vote on proposal 1 "Tea time" as AGAINST.' in words, words
    assert "Reason: phoned it in." in words
    last = journal_rows(game, "nomes")[-1]
    assert (last["source"], last["who"], last["action"]) == ("mail", other, "vote_override")
    assert prop["status"] == "failed"  # all have voted: a tie fails
    assert_replays(game)


def test_the_gm_reads_of_the_steering_commands_in_help_and_at_creation(game, smtp, outbox):
    (notice,) = [m for m in outbox.to(GM) if "is open at" in str(m["Subject"])]
    welcomed = " ".join(Outbox.body(notice).split())
    for words in ("[Set] win_score=150", "[Decide] 3 enact", "[Override] 3 NAME FOR"):
        assert words in welcomed, (words, welcomed)
    assert "[Office] OFFICE NAME" in welcomed
    outbox.new()
    smtp(mail(GM, G, "[Help]"), GM)
    helped = said(outbox, GM)
    for words in ("[Set] KEY=VALUE", "[Decide] 3 enact", "[Override] 3 NAME FOR", "[Office]"):
        assert words in helped, (words, helped)
    smtp(mail(ALICE, G, "[Help]"), ALICE)
    assert "[Override]" not in said(outbox, ALICE)


def test_an_alert_names_the_mail_first_and_a_reply_to_it_sets(game, smtp, outbox):
    """A passed proposal rewrites rule 12, which the referee runs as first written, and rule 22,
    whose value it follows: the alert says what to send by mail before the host's commands,
    and the GM's [Set] as a Reply to it changes the value."""
    m, m_addr = mover(game)
    o_addr = BOB if m == "Alice" else ALICE
    body = (
        'In rule 22, replace "-5 points" with "-3 points".\n\n'
        "Amend rule 12 to read:\nA proposal passes when two thirds of the votes cast are for it.\n"
    )
    smtp(mail(m_addr, G, "[Proposal] Gentler", body), m_addr)
    outbox.new()
    smtp(mail(o_addr, G, "[Vote] 1", "FOR"), o_addr)
    (alert,) = outbox.to(GM, outbox.new(), kind="alert")
    words = " ".join(Outbox.body(alert).split())
    host = words.find("or on the host: `mailref game set nomes fail_points=")
    assert 0 <= words.find("reply to this alert with [Set] fail_points=...") < host, words
    host = words.find("or on the host: `mailref score`, `mailref proposal enact|fail`")
    assert 0 <= words.find("[Decide] N enact (or fail) for a proposal") < host, words
    assert "no mail of the GM" not in words
    assert game.state("nomes")["parameters"]["fail_points"] == -3
    smtp(mail(GM, G, "Re: [Set]", "fail_points=-4", in_reply_to=alert["Message-ID"]), GM)
    assert game.state("nomes")["parameters"]["fail_points"] == -4
    assert_replays(game)


def test_an_emperor_named_by_mail_when_the_alert_asks_for_one(imperial_game, smtp, outbox):
    """The office of Emperor is vacant when the Senate passes a proposal: the alert says to
    send [Office] emperor NAME before the host's command, and a Reply to it names one."""
    empire = imperial_game
    empire.admin("empire", {"type": "office", "office": "emperor", "holder": None}, "admin")
    senate(empire, "Ann", "[Proposal] Dragons", PROP)
    for n in ("Ben", "Cat", "Dan"):
        senate(empire, n, "Re: [Proposal 1] Dragons", "YES")
    outbox.new()
    at(empire, days=4, seconds=1)
    assert prop(empire, 1)["status"] == "awaiting-judgement"
    (alert,) = [x for x in outbox.to(GM, outbox.new(), kind="alert") if "Emperor" in Outbox.body(x)]
    words = " ".join(Outbox.body(alert).split())
    host = words.find("or on the host: `mailref office SLUG emperor NAME`")
    assert 0 <= words.find("reply to this alert with [Office] emperor NAME") < host, words
    smtp(
        mail(GM, "empire@ref.example", "Re: [Office] emperor Ann", in_reply_to=alert["Message-ID"]),
        GM,
        "empire@ref.example",
    )
    (ann,) = [p for p in empire.state("empire")["players"] if p["name"] == "Ann"]
    assert "emperor" in ann["offices"]
    assert_replays(empire)


def test_the_gm_fails_a_blognomic_proposal_by_mail(blog, smtp, outbox):
    smtp(mail(GM, BLOG, "[Set]", "dormant_below=3", in_reply_to=welcome(outbox)), GM, BLOG)
    gold = 'Enact a new rule "Gold":\nEach Wizard has Gold.\n'
    smtp(mail(ALICE, BLOG, "[Proposal] Gold", gold), ALICE, BLOG)
    assert blog.state("blog")["proposals"][0]["status"] == "pending"
    outbox.new()
    body = "Reason: Gold belongs in the next dynasty"
    smtp(mail(GM, BLOG, "[Decide 1] fail", body, in_reply_to=welcome(outbox)), GM, BLOG)
    prop = blog.state("blog")["proposals"][0]
    assert (prop["status"], prop["reason"]) == ("failed", "failed by the GM")
    (told,) = outbox.to(CAROL, outbox.new(), kind="results")
    words = " ".join(Outbox.body(told).split())
    assert "GM: Gold belongs in the next dynasty" in words, words
    assert_replays(blog)


def test_the_gms_mail_is_read_as_people_write_it(game, smtp, outbox):
    """A greeting and a signature around `key: value` are words, not settings; an office is
    vacated with none."""
    body = "Hello all,\nfail_points: -4\nwin_score = 150\nThanks: the GM"
    smtp(mail(GM, G, "[Set]", body, in_reply_to=welcome(outbox)), GM)
    parameters = game.state("nomes")["parameters"]
    assert (parameters["fail_points"], parameters["win_score"]) == (-4, 150)
    smtp(mail(GM, G, "[Office] admin Alice", in_reply_to=welcome(outbox)), GM)
    offices = {p["name"]: p["offices"] for p in game.state("nomes")["players"]}
    assert "admin" in offices["Alice"]
    smtp(mail(GM, G, "[Office]", "admin: none", in_reply_to=welcome(outbox)), GM)
    assert not any("admin" in p["offices"] for p in game.state("nomes")["players"])
    assert "The office of admin is vacant." in said(outbox, GM)
    assert_replays(game)
