"""The GM who only uses mail corrects the game as `mailref rule` and `mailref undo` do on the
host: [Rule] with rule changes written as a proposal writes them, all or none, and [Undo] 8,
announced in the game's words. Only the GM may, and only as a Reply to the game's mail."""

from __future__ import annotations

import pytest

from mailref.cli.court import journal_rows
from support import hostile_smtp
from support.gm_mail import GM, said, welcome
from support.helpers import Outbox, assert_replays, mail
from support.hostile_smtp import ALICE, BOB, G, mover

pytestmark = pytest.mark.spec("4.4", "2.5")

game = hostile_smtp.game  # the Sidekick game of Alice and Bob, played through SMTP

CORRECTION = """Reason: the points were misprinted

Amend rule 21 to read:
When a player's proposal passes, he/she receives 20 points.

Enact rule 24 "Tea":
Every player drinks tea.

Repeal rule 18.
"""


def rule(referee, number: str) -> dict | None:
    return next((r for r in referee.state("nomes")["rules"] if r["number"] == number), None)


def test_the_gm_corrects_the_ruleset_by_mail(game, smtp, outbox):
    smtp(mail(ALICE, G, "[Rule]", CORRECTION), ALICE)
    refused = said(outbox, ALICE)
    assert "only the GM changes the ruleset by mail" in refused
    assert "To read the ruleset, send [Rules]" in refused
    smtp(mail(GM, G, "[Rule]", CORRECTION), GM)
    assert "only as a Reply to mail the game sent you" in said(outbox, GM)
    assert rule(game, "24") is None
    smtp(mail(GM, G, "Re: [Rule]", CORRECTION, in_reply_to=welcome(outbox)), GM)
    assert "receives 20 points" in rule(game, "21")["text"]
    assert rule(game, "24")["text"] == "Every player drinks tea."
    assert rule(game, "18") is None
    assert game.state("nomes")["parameters"]["pass_points"] == 20  # as `mailref rule` would
    new = outbox.new()
    ack = " ".join(Outbox.body(outbox.to(GM, new, kind="ack")[-1]).split())
    assert "Repeal rule 18" in ack, ack
    (told,) = outbox.to(BOB, new, kind="ruleset")
    assert "Ruleset updated by the GM" in str(told["Subject"])
    body = Outbox.body(told)
    assert "+When a player's proposal passes, he/she receives 20 points." in body, body
    assert "the points were misprinted" in body
    last = journal_rows(game, "nomes")[-1]
    assert (last["source"], last["who"], last["action"]) == ("mail", "GM", "rule")
    assert_replays(game)


def test_a_correction_applies_whole_or_not_at_all(game, smtp, outbox):
    text = 'Enact rule 25 "Hats":\nEvery player wears a hat.\n\nRepeal rule 99.\n'
    smtp(mail(GM, G, "[Rule]", text, in_reply_to=welcome(outbox)), GM)
    assert "99" in said(outbox, GM)
    assert rule(game, "25") is None
    smtp(mail(GM, G, "[Rule]", "Please fix rule 9.", in_reply_to=welcome(outbox)), GM)
    assert "I found no rule change in your [Rule]" in said(outbox, GM)
    assert_replays(game)


def test_the_gm_undoes_a_vote_by_mail_told_in_the_games_words(game, smtp, outbox):
    m, m_addr = mover(game)
    other, o_addr = ("Bob", BOB) if m == "Alice" else ("Alice", ALICE)
    smtp(mail(m_addr, G, "[Proposal] Tea time", 'Enact rule 24 "Tea":\nAll drink tea.\n'), m_addr)
    smtp(mail(o_addr, G, "[Vote] 1", "FOR"), o_addr)
    assert {p["name"]: p["score"] for p in game.state("nomes")["players"]}[m] == 10
    vote = next(
        r["number"]
        for r in journal_rows(game, "nomes")
        if f"{other} voted on proposal 1" in r["what"][0]
    )
    smtp(mail(o_addr, G, f"[Undo] {vote}"), o_addr)
    assert "only the GM undoes journal entries" in said(outbox, o_addr)
    smtp(mail(GM, G, f"[Undo] {vote}"), GM)
    assert "only as a Reply to mail the game sent you" in said(outbox, GM)
    smtp(mail(GM, G, "[Undo] 999", in_reply_to=welcome(outbox)), GM)
    assert "there is no journal entry 999 before this one" in said(outbox, GM)
    smtp(mail(GM, G, "[Undo]", "Please.", in_reply_to=welcome(outbox)), GM)
    assert "[Undo] 41 42" in said(outbox, GM)
    outbox.new()
    smtp(
        mail(
            GM, G, f"[Undo] {vote}", "Reason: sent from a stolen phone", in_reply_to=welcome(outbox)
        ),
        GM,
    )
    assert {p["name"]: p["score"] for p in game.state("nomes")["players"]}[m] == 0
    new = outbox.new()
    (told,) = outbox.to(m_addr, new, kind="announcement")
    assert f'{other}\'s vote on proposal 1 "Tea time"' in str(told["Subject"])
    body = " ".join(Outbox.body(told).split())
    assert f'The GM voids journal entry {vote}: {other}\'s vote on proposal 1 "Tea time".' in body
    assert "Reason: sent from a stolen phone" in body and f"Score of {m}: 10 -> 0." in body
    ack = " ".join(Outbox.body(outbox.to(GM, new, kind="ack")[-1]).split())
    assert f"{other}'s vote on proposal 1" in ack and f"Score of {m}: 10 -> 0." in ack
    # A player's Reply to the announcement is talk for the others, not a refused [Undo].
    smtp(
        mail(o_addr, G, f"Re: {told['Subject']}", "Fair enough.", in_reply_to=told["Message-ID"]),
        o_addr,
    )
    assert not outbox.to(o_addr, outbox.new(), kind="error")
    assert_replays(game)


def test_an_alert_names_the_mail_commands_first_and_a_reply_to_it_acts(game, smtp, outbox):
    """A ruling with no effect lines asks the GM to apply it: the alert says what to send by
    mail ([Score], [Rule], [Undo]) before the host's commands, and a Reply to it with [Rule]
    changes the ruleset."""
    m, m_addr = mover(game)
    a_addr = BOB if m == "Alice" else ALICE
    smtp(mail(a_addr, G, "[CfJ] Is rule 18 still needed?", "Please rule."), a_addr)
    outbox.new()
    smtp(mail(m_addr, G, "[Ruling] 1", "No: it goes."), m_addr)
    (alert,) = [x for x in outbox.to(GM, outbox.new()) if x["X-Mailref-Kind"] == "alert"]
    words = " ".join(Outbox.body(alert).split())
    host = words.find("or on the host: `mailref score` / `mailref rule` / `mailref undo`")
    assert 0 <= words.find("[Rule] and the rule changes") < host, words
    assert 0 <= words.find("[Undo] and the journal entries") < host, words
    smtp(mail(GM, G, "Re: [Rule]", "Repeal rule 18.", in_reply_to=alert["Message-ID"]), GM)
    assert rule(game, "18") is None
    assert_replays(game)


def test_the_gm_reads_of_rule_and_undo_in_help_and_at_creation(game, smtp, outbox):
    (notice,) = [m for m in outbox.to(GM) if "is open at" in str(m["Subject"])]
    welcomed = " ".join(Outbox.body(notice).split())
    assert "[Rule], as a Reply to the game's mail" in welcomed
    assert "[Undo] 41 42, as a Reply to the game's mail" in welcomed
    outbox.new()
    smtp(mail(GM, G, "[Help]"), GM)
    helped = said(outbox, GM)
    assert "[Rule] and lines as a proposal writes them" in helped and "[Undo] 41 42" in helped
    smtp(mail(ALICE, G, "[Help]"), ALICE)
    assert "[Undo] 41 42" not in said(outbox, ALICE)


def test_the_gm_undoes_a_proposal_named_as_a_ruling_names_it(game, smtp, outbox):
    """A GM without the journal's numbers at hand names the matter as a ruling's lines do."""
    m, m_addr = mover(game)
    other, o_addr = ("Bob", BOB) if m == "Alice" else ("Alice", ALICE)
    smtp(mail(m_addr, G, "[Proposal] Tea time", 'Enact rule 24 "Tea":\nAll drink tea.\n'), m_addr)
    smtp(mail(o_addr, G, "[Vote] 1", "FOR"), o_addr)
    assert rule(game, "24") is not None
    outbox.new()
    body = "Reason: rule 24 broke rule 9"
    smtp(mail(GM, G, "[Undo] proposal 1", body, in_reply_to=welcome(outbox)), GM)
    assert rule(game, "24") is None
    assert {p["name"]: p["score"] for p in game.state("nomes")["players"]}[m] == 0
    (told,) = outbox.to(o_addr, outbox.new(), kind="announcement")
    assert "[Undo] proposal 1" in str(told["Subject"])
    words = " ".join(Outbox.body(told).split())
    assert "The GM orders: Undo proposal 1." in words and "rule 24 broke rule 9" in words
    assert f'{m} proposed 1 "Tea time"' in words and 'Rule 24 "Tea" is no longer' in words
    assert_replays(game)
