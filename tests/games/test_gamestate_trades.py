"""Trades by mail (the seed's rule 2.10 "Trading"; SPEC §5.2): announced to both, performed when
the other accepts within `trade_window`, both cards changing hands at once."""

from __future__ import annotations

import pytest

from support.blognomic import addr, at, reply, send
from support.declared import assert_declared
from support.helpers import Outbox

pytestmark = pytest.mark.spec("5.2")


@pytest.fixture
def game(blognomic_game):
    send(blognomic_game, "Ann", "[Update] Hand: Fox, Fire")
    send(blognomic_game, "Ben", "[Update] Hand: Owl")
    yield blognomic_game
    assert_declared(blognomic_game)


def hands(game) -> tuple[list, list]:
    v = game.state("blog")["gamestate"]["values"]
    return v["Ann"]["hand"], v["Ben"]["hand"]


def test_a_trade_accepted_in_time_swaps_both_cards_at_once(game):
    """ "The other Wizard may then, within 24 hours, perform this trade (with both cards changing
    hands simultaneously)"."""
    send(game, "Ann", "[Trade] Ben: my Fox for your Owl")
    told = [
        m for m in Outbox(game).all() if m["Subject"].endswith("[Trade 1] Ann's Fox for Ben's Owl")
    ]
    assert sorted(m["To"] for m in told) == [addr("Ann"), addr("Ben")]
    at(game, hours=23)
    send(game, "Ben", "[Trade] Accept 1")
    assert hands(game) == (["Fire", "Owl"], ["Fox"])
    body = Outbox.body(reply(game, "Ben"))
    assert "Trade 1 is done" in body and "Hand of Ann: Fox, Fire -> Fire" in body
    log = game.state("blog")["gamestate"]["log"]
    assert {e["why"] for e in log[-4:]} == {"trade 1"}


def test_a_trade_left_unanswered_expires(game):
    """ "If the trade announcement comment is more than 24 hours old, and the trade has not yet been
    completed, the trade attempt is rendered invalid"."""
    send(game, "Ann", "[Trade] Ben: my Fox for your Owl")
    at(game, hours=24)
    send(game, "Ben", "[Trade] Accept 1")
    assert reply(game, "Ben")["X-Mailref-Refusal"] == "trade_closed"
    assert "expired" in Outbox.body(reply(game, "Ben"))
    assert hands(game) == (["Fox", "Fire"], ["Owl"])


def test_a_card_no_longer_held_cannot_be_traded(game):
    """ "Both cards must still be in their respective Wizards' hands until the trade is
    performed"."""
    send(game, "Ann", "[Trade] Ben: my Fox for your Owl")
    send(game, "Ann", "[Update] Hand - Fox")
    send(game, "Ben", "[Trade] Accept 1")
    assert reply(game, "Ben")["X-Mailref-Refusal"] == "column_lacks"
    assert hands(game) == (["Fire"], ["Owl"])


@pytest.mark.parametrize(
    ("who", "subject", "code"),
    [
        ("Ann", "[Trade] Ben: my Owl for your Fox", "trade_not_held"),
        ("Ann", "[Trade] Ann: my Fox for your Fire", "trade_with_oneself"),
        ("Ann", "[Trade] let's swap", "trade_unreadable"),
        ("Cat", "[Trade] Accept 1", "no_trade_for_you"),
    ],
)
def test_a_trade_that_cannot_be_is_refused(game, who, subject, code):
    send(game, "Ann", "[Trade] Ben: my Fox for your Owl")
    send(game, who, subject)
    assert reply(game, who)["X-Mailref-Refusal"] == code


def announcement_to(game, who: str, number: int = 1):
    return [
        m
        for m in Outbox(game).all()
        if m["To"] == addr(who) and f"[Trade {number}]" in m["Subject"]
    ][0]


def answer(game, who: str, words: str, subject: str | None = None):
    """WHO's Reply to their copy of the trade's announcement, threaded as a mail client does."""
    ann = announcement_to(game, who)
    return send(game, who, subject or f"Re: {ann['Subject']}", words, in_reply_to=ann["Message-ID"])


@pytest.mark.parametrize("words", ["yes", "Accept.", "OK, deal!"])
def test_a_reply_of_yes_to_the_announcement_performs_the_trade(game, words):
    send(game, "Ann", "[Trade] Ben: my Fox for your Owl")
    answer(game, "Ben", words)
    assert hands(game) == (["Fire", "Owl"], ["Fox"])
    assert "Trade 1 is done" in Outbox.body(reply(game, "Ben"))


def test_a_reply_whose_subject_lost_its_tag_is_read_by_its_thread(game):
    send(game, "Ann", "[Trade] Ben: my Fox for your Owl")
    answer(game, "Ben", "yes", subject="Re: your offer")
    assert hands(game) == (["Fire", "Owl"], ["Fox"])


@pytest.mark.parametrize(("who", "words"), [("Ben", "No thanks."), ("Ann", "decline")])
def test_a_reply_of_no_closes_the_trade_and_both_are_told(game, who, words):
    """The one offered declines it; the one who offered withdraws it. Nothing changes hands."""
    send(game, "Ann", "[Trade] Ben: my Fox for your Owl")
    answer(game, who, words)
    assert hands(game) == (["Fox", "Fire"], ["Owl"])
    closed = {"Ben": "declined", "Ann": "withdrawn"}[who]
    assert game.state("blog")["gamestate"]["trades"][0]["status"] == closed
    for n in ("Ann", "Ben"):
        told = [m for m in Outbox(game).all() if m["To"] == addr(n)][-1]
        assert closed in Outbox.body(told)
    send(game, "Ben", "[Trade] Accept 1")
    assert reply(game, "Ben")["X-Mailref-Refusal"] == "trade_closed"


def test_a_reply_of_prose_to_a_trade_is_discussion(game):
    send(game, "Ann", "[Trade] Ben: my Fox for your Owl")
    sent = len(Outbox(game).all())
    answer(game, "Ben", "Let me sleep on it, Ann; I am fond of my Owl.")
    new = Outbox(game).all()[sent:]
    assert {m["X-Mailref-Kind"] for m in new} == {"discussion"}
    assert addr("Ann") in {m["To"] for m in new} and addr("Ben") not in {m["To"] for m in new}
    assert game.state("blog")["gamestate"]["trades"][0]["status"] == "open"


def test_a_trade_left_unanswered_expires_at_its_window_and_both_are_told(game):
    """Rule 2.10: past 24 hours "the trade attempt is rendered invalid": the game's timer says so
    to both when the window closes, not only at the next trade."""
    send(game, "Ann", "[Trade] Ben: my Fox for your Owl")
    at(game, hours=23, minutes=59)
    assert game.state("blog")["gamestate"]["trades"][0]["status"] == "open"
    sent = len(Outbox(game).all())
    at(game, minutes=1)
    assert game.state("blog")["gamestate"]["trades"][0]["status"] == "expired"
    told = [m for m in Outbox(game).all()[sent:] if "[Trade 1] expired" in m["Subject"]]
    assert sorted(m["To"] for m in told) == [addr("Ann"), addr("Ben")]
    assert hands(game) == (["Fox", "Fire"], ["Owl"])


def test_a_trade_is_declined_by_its_command_too(game):
    send(game, "Ann", "[Trade] Ben: my Fox for your Owl")
    send(game, "Cat", "[Trade] Decline 1")
    assert reply(game, "Cat")["X-Mailref-Refusal"] == "no_trade_for_you"
    send(game, "Ben", "[Trade] Decline 1")
    assert "Ben declined trade 1" in Outbox.body(reply(game, "Ben"))
    assert game.state("blog")["gamestate"]["trades"][0]["status"] == "declined"
