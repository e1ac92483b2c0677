"""BlogNomic: an enacted DoV says which clause enacted it, and the new historian's plain reply is
the ascension address."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, assert_replays, mail
from support.play import addr  # the same players' addresses, mail sent the same way
from support.play_four import BLOG, last

pytestmark = pytest.mark.spec("5.2")


def test_an_enacted_dov_says_which_clause_enacted_it(referee, outbox, clock, dov_after_12h):
    """Carol's DoV had an AGAINST and no FOR from the Historian: it waited for the 24-hour clause.
    The result said only "ENACTED (popular)"; it now says which clause of "Victory and Ascension"
    enacted it."""
    dov_after_12h("carol", {"alice": "FOR", "bob": "FOR", "zoe": "AGAINST"})
    assert referee.state("blog")["judgements"][0]["status"] == "pending"
    clock.advance(hours=12)
    referee.tick()
    results = Outbox.body(last(outbox, addr("dan"), "results", "[DoV 1]"))
    assert "ENACTED (popular)" in results and "Popular and open 1d or more." in results
    assert_replays(referee)


def test_the_new_historians_plain_reply_is_the_ascension_address(referee, outbox, dov_after_12h):
    """Carol's DoV is enacted; she answers the "A new dynasty: Carol is Historian" mail with her
    address and got "I found no command in your reply". She now gets her own mail asking for the
    address, tagged so that her plain Reply (with a `Theme:` line) is it; the others get the
    news."""
    dov_after_12h("carol", {"alice": "FOR", "bob": "FOR", "zoe": "FOR"})
    assert [
        m["X-Mailref-Kind"] for m in outbox.to(addr("carol")) if "dynasty" in str(m["Subject"])
    ] == ["turn"]
    assert last(outbox, addr("alice"), "results", "A new dynasty")
    ask = last(outbox, addr("carol"), "turn", "[Ascension]")
    referee.accept(
        mail(
            addr("carol"),
            BLOG,
            "Re: " + str(ask["Subject"]),
            "Nothing but a greeting.",
            in_reply_to=ask["Message-ID"],
        ),
        "smtp",
    )
    assert "Add a line `Theme: your theme`" in Outbox.body(last(outbox, addr("carol"), "error"))
    referee.accept(
        mail(
            addr("carol"),
            BLOG,
            "Re: " + str(ask["Subject"]),
            "Theme: The Age of Ice\nWelcome to the Age of Ice!\nWizard: Frostling\nKeep: 2.1\n",
            in_reply_to=ask["Message-ID"],
        ),
        "smtp",
    )
    state = referee.state("blog")
    assert not state["ascension_pending"] and state["terms"]["player"] == "Frostling"
    ruleset = Outbox.body(last(outbox, addr("alice"), "ruleset")).replace("\r\n", "\n")
    assert "The Age of Ice" in ruleset and "Welcome to the Age of Ice!" in ruleset
    assert "Theme: The Age of Ice" not in ruleset
    assert_replays(referee)
