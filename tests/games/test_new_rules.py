"""New rules: two pending proposals each enacting one both apply; a rule numbered by its author
keeps that number."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, assert_replays
from support.long_games import BLOG, blog, last, new_rule
from support.play import addr, send  # the same players' addresses, mail sent the same way

pytestmark = pytest.mark.spec("3.1")


def test_two_pending_proposals_each_enacting_a_new_rule_both_apply(referee, outbox, clock):
    """Alice and Bob each propose a new dynastic rule without naming its number, on the same day.
    Both were numbered 2.20 when they were sent; Alice's was enacted as 2.20, and Bob's was then
    "ENACTED" with "rule 2.20 already exists": nothing of it applied (seed 002: the Admin
    enacts a Proposal "by updating the Ruleset ... to include the specified effects"). A rule
    whose number the proposal left open now takes the next free number when it is enacted."""
    blog(referee)
    send(referee, "alice", "[Proposal] Gold", new_rule("Gold", "Each Wizard has 3 Gold."), to=BLOG)
    send(
        referee,
        "bob",
        "[Proposal] Silver",
        new_rule("Silver", "Each Wizard has 2 Silver."),
        to=BLOG,
    )
    assert 'Enact rule 2.20 "Silver"' in Outbox.body(last(outbox, addr("bob"), "ack", "Silver"))
    for p in ("bob", "carol", "dan"):
        send(referee, p, "Re: [BlogNomic] [Proposal 1] Gold", "FOR", to=BLOG)
    for p in ("alice", "carol", "dan"):
        send(referee, p, "Re: [BlogNomic] [Proposal 2] Silver", "FOR", to=BLOG)
    clock.advance(hours=12, seconds=1)
    referee.tick()
    state = referee.state("blog")
    assert [(m["status"], m["reason"]) for m in state["proposals"]] == [
        ("enacted", "popular"),
        ("enacted", "popular"),
    ]
    rules = {r["number"]: (r["title"], r["text"]) for r in state["rules"]}
    assert rules["2.20"] == ("Gold", "Each Wizard has 3 Gold.")
    assert rules["2.21"] == ("Silver", "Each Wizard has 2 Silver.")
    assert (
        state["proposals"][1]["changes"][0]["number"] == "2.21"
    )  # the site and [Status] show where it went
    ruleset = last(outbox, addr("eve"), "ruleset", "Silver")
    assert '+ Rule 2.21 "Silver" (new)' in Outbox.body(ruleset)
    results = last(outbox, addr("eve"), "results", "Silver")
    assert "cannot apply" not in Outbox.body(results)
    assert not [m for m in outbox.all() if m["X-Mailref-Kind"] == "alert"]
    assert_replays(referee)


def test_a_rule_numbered_by_its_author_keeps_that_number(referee, outbox, clock):
    """The renumbering is for the referee's own choice only: "Enact a new rule 2.30" stays 2.30."""
    blog(referee)
    body = 'Enact a new rule 2.30 titled "Copper":\nEach Wizard has 1 Copper.\n'
    send(referee, "alice", "[Proposal] Copper", body, to=BLOG)
    for p in ("bob", "carol"):
        send(referee, p, "[Vote] 1", "FOR", to=BLOG)
    clock.advance(hours=12, seconds=1)
    referee.tick()
    assert any(
        r["number"] == "2.30" and r["title"] == "Copper" for r in referee.state("blog")["rules"]
    )
