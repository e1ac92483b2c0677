"""An author answering the ack of her proposal votes on it."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, assert_replays, mail
from support.play import addr, send  # the same players' addresses, mail sent the same way
from support.play_four import BLOG, blog, last

pytestmark = pytest.mark.spec("2.6")


def test_an_author_answering_the_ack_of_her_proposal_votes_on_it(referee, outbox, clock, tmp_path):
    """Zoë replies AGAINST to the ack of her own "[Proposal] Unicorns" (subject "Re: [Blog]
    [Proposal] Unicorns", no number): she was asked "which proposal?". The title names it: her
    AGAINST self-kills it (rule "Enacting and Failing"), and the result says so. DEFERENTIAL
    votes in a tally are said to count as the Historian's vote."""
    blog(referee)
    referee.admin("blog", {"type": "office", "office": "historian", "holder": "Dan"}, "gm")
    send(
        referee,
        "zoe",
        "[Proposal] Unicorns",
        'Enact a new rule entitled "Unicorns" with the following text:\n'
        "Each Wizard may own one unicorn.\n",
        to=BLOG,
    )
    ack = last(outbox, addr("zoe"), "ack", "Unicorns")
    referee.accept(
        mail(
            addr("zoe"),
            BLOG,
            "Re: " + str(ack["Subject"]),
            "AGAINST\nChanged my mind.",
            in_reply_to=ack["Message-ID"],
        ),
        "smtp",
    )
    answer = last(outbox, addr("zoe"), None, "Unicorns")
    assert answer["X-Mailref-Kind"] == "ack", Outbox.body(answer)
    assert "Vote recorded: Proposal 1 — AGAINST" in Outbox.body(answer)
    assert referee.state("blog")["proposals"][0]["status"] == "failed"
    assert referee.state("blog")["proposals"][0]["reason"] == "self-killed"

    send(
        referee,
        "bob",
        "[Proposal] Dragons",
        'Enact a new rule entitled "Dragons" with the following text:\n'
        "Each Wizard may own one dragon.\n",
        to=BLOG,
    )
    send(referee, "dan", "[Vote] 2", "FOR", to=BLOG)
    send(referee, "alice", "[Vote] 2", "DEF", to=BLOG)
    send(referee, "carol", "[Vote] 2", "DEFERENTIAL", to=BLOG)
    clock.advance(hours=12, seconds=1)
    referee.tick()
    results = Outbox.body(last(outbox, addr("zoe"), "results", "[Proposal 2]"))
    assert "Tally: FOR 4, AGAINST 0, quorum 3." in results
    assert "DEFERENTIAL (Alice, Carol) counts as the Historian's vote, FOR." in results
    # The published page showed "Tally: DEFERENTIAL 2, FOR 2" beside a mail saying FOR 4.
    from mailref.config import SiteConfig
    from mailref.site import rebuild

    site = tmp_path / "site"
    rebuild(referee.store, SiteConfig(site), "blog", clock())
    page = (site / "blog" / "proposals.html").read_text()
    assert "Tally: FOR 4, AGAINST 0, quorum 3" in page, page[
        page.find("Tally") : page.find("Tally") + 300
    ]
    assert "DEFERENTIAL 2" not in page
    assert_replays(referee)
