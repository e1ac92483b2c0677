"""Forged mail From the GM steers nothing (SPEC §2.2, §4.4): the GM's [Score], [Rule], [Undo],
[Set], [Decide], [Override] and [Office] count only as a Reply to mail the game sent the GM,
whose Message-ID only the GM has. A Message-ID a player or a stranger could see or make (a
player's own ack, an announcement, a relayed copy, another game's mail, one made from what
players know) vouches for nothing; the GM's own Reply still steers."""

from __future__ import annotations

import hashlib
import re

import pytest

from support import hostile_smtp
from support.helpers import Outbox, assert_replays, mail
from support.hostile_smtp import ALICE, BOB, G, mover
from support.joining import confirm

pytestmark = pytest.mark.spec("2.2", "4.4")

GM = "gm@ref.example"
FORGER = "forger@evil.example"
WATCHER = "wanda@watch.example"
game = hostile_smtp.game  # the Sidekick game of Alice and Bob, played through SMTP

STEERING = (
    ("[Score] Alice +50", "Reason: forged"),
    ("[Rule]", "Repeal rule 18.\n"),
    ("[Undo] 1", ""),
    ("[Set]", "fail_points=-99"),
    ("[Decide] 1 enact", ""),
    ("[Override] 1 Bob AGAINST", ""),
    ("[Office] admin Bob", ""),
)


def welcome(outbox: Outbox) -> str:
    """The Message-ID of the mail the GM got when the game was made: the GM's to answer."""
    (notice,) = [
        m for m in outbox.to(GM) if "is open at" in str(m["Subject"]) and G in str(m["From"])
    ]
    return str(notice["Message-ID"])


def refusals(outbox: Outbox, to: str) -> list[str]:
    return [str(m["X-Mailref-Refusal"]) for m in outbox.to(to, outbox.new(), kind="error")]


def propose(referee, smtp) -> None:
    m, m_addr = mover(referee)
    smtp(mail(m_addr, G, "[Proposal] Tea time", 'Enact rule 24 "Tea":\nAll drink tea.\n'), m_addr)


def forge_all(smtp, in_reply_to: str | None = None, **kw) -> None:
    for subject, body in STEERING:
        smtp(mail(GM, G, subject, body, in_reply_to=in_reply_to, **kw), FORGER)


def test_forged_gm_mail_without_a_reply_steers_nothing(game, smtp, outbox):
    propose(game, smtp)
    before = game.state("nomes")
    outbox.new()
    forge_all(smtp)
    assert game.state("nomes") == before
    said = refusals(outbox, GM)
    assert len(said) == len(STEERING) and all("reply" in r for r in said), said
    smtp(mail(GM, G, "Re: [Set]", "fail_points=-4", in_reply_to=welcome(outbox)), GM)
    assert game.state("nomes")["parameters"]["fail_points"] == -4
    assert_replays(game)


def test_message_ids_a_player_has_vouch_for_nothing(game, referee, smtp, outbox):
    """Alice's own ack, a watcher's announcement, Bob's copy of an announcement and of the
    ruleset the GM changed, Bob's copy of Alice's words, the GM's mail of another game of the
    same GM, and a Message-ID in the pattern the game makes its first mails by: none is a Reply
    to this game's mail to the GM."""
    referee.create_game("other", "sidekick", "other@ref.example", gm=GM)
    (elsewhere,) = [
        m for m in outbox.to(GM) if "is open at" in str(m["Subject"]) and "other" in str(m["From"])
    ]
    smtp(mail(WATCHER, G, "[Watch]"), WATCHER)
    confirm(referee, WATCHER)
    propose(game, smtp)
    (watched,) = [m["Message-ID"] for m in outbox.to(WATCHER, outbox.new(), kind="announcement")]
    smtp(mail(ALICE, G, "[Status]"), ALICE)
    ack = outbox.to(ALICE, outbox.new())[-1]["Message-ID"]
    smtp(
        mail(
            GM,
            G,
            "Re: [Rule]",
            'Enact rule 25 "Hats":\nAll wear hats.\n',
            in_reply_to=welcome(outbox),
        ),
        GM,
    )
    (ruleset,) = outbox.to(BOB, outbox.new(), kind="ruleset")
    smtp(mail(ALICE, G, "Tea", "Shall we all drink tea?"), ALICE)
    (copy,) = outbox.to(BOB, outbox.new(), kind="discussion")
    announced = outbox.to(BOB, outbox.all(), kind="announcement")[-1]["Message-ID"]
    made = re.sub(
        r"\.[0-9a-f]{12}@",
        f".{hashlib.sha256(GM.encode()).hexdigest()[:12]}@",
        str(copy["Message-ID"]),
    )
    before = game.state("nomes")
    for named in (
        ack,
        watched,
        ruleset["Message-ID"],
        announced,
        copy["Message-ID"],
        made,
        elsewhere["Message-ID"],
    ):
        forge_all(smtp, in_reply_to=str(named))
        assert game.state("nomes") == before, named
        assert referee.state("other")["parameters"].get("fail_points") != -99
    assert_replays(game)


def test_the_gms_copy_of_a_players_words_vouches_for_nothing(referee, smtp, outbox):
    """A GM who plays too gets each player's words relayed; that copy's Message-ID is made from
    what players know (the game, the words' mail, a hash of the address), so a player makes the
    GM's from his own copy's."""
    referee.create_game("nomes", "sidekick", G, gm=GM)
    for name, a in (("Gina", GM), ("Alice", ALICE), ("Bob", BOB)):
        smtp(mail(a, G, "[Join]", f"Name: {name}"), a)
        confirm(referee, a)
    outbox.new()
    smtp(mail(ALICE, G, "Tea", "Shall we all drink tea?"), ALICE)
    new = outbox.new()
    (bobs,) = outbox.to(BOB, new, kind="discussion")
    (gms,) = outbox.to(GM, new, kind="discussion")
    made = re.sub(
        r"\.[0-9a-f]{12}@",
        f".{hashlib.sha256(GM.encode()).hexdigest()[:12]}@",
        str(bobs["Message-ID"]),
    )
    assert made == str(gms["Message-ID"])  # what the attack rests on
    before = referee.state("nomes")
    smtp(mail(GM, G, "Re: Tea", "fail_points=-99", in_reply_to=made), BOB)
    smtp(mail(GM, G, "[Set]", "fail_points=-99", in_reply_to=made), BOB)
    assert referee.state("nomes") == before
    assert any("reply" in r for r in refusals(outbox, GM))
    assert_replays(referee)


def test_the_same_correction_sent_twice_applies_once(game, smtp, outbox):
    sent = mail(
        GM,
        G,
        "[Score] Alice +7",
        "Reason: a typo",
        in_reply_to=welcome(outbox),
        message_id="<once@gm.example>",
    )
    score = {p["name"]: p["score"] for p in game.state("nomes")["players"]}["Alice"]
    smtp(sent, GM)
    smtp(sent, GM)
    assert {p["name"]: p["score"] for p in game.state("nomes")["players"]}["Alice"] == score + 7
    assert_replays(game)
