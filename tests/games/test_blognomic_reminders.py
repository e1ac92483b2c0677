"""BlogNomic: reminders before a matter may be decided, announcements saying by when, deferential
votes in a metadynasty."""

from __future__ import annotations

import pytest

from support import clients
from support.client_play import BLOG, blognomic, last, play
from support.helpers import Outbox, assert_replays
from support.play import addr

pytestmark = pytest.mark.spec("5.2")


def test_a_blognomic_wizard_who_has_not_voted_is_reminded_before_the_matter_may_be_decided(
    referee, outbox, clock
):
    """BlogNomic sent no vote reminder: a matter open 48 hours may be decided without the votes
    not cast (Popular with more FOR than AGAINST, else Unpopular), and a Wizard who missed the
    announcement learnt of it from its result. Now each Wizard who has not voted (not the
    author, not Idle) gets one reminder a day before that, threaded under the announcement,
    and a Reply to it is a vote."""
    blognomic(referee)
    play(
        referee,
        clients.fresh(
            addr("Alice"),
            "Alice",
            BLOG,
            "[Proposal] Gold",
            'Enact a new rule entitled "Gold" with the following text:\nEach Wizard has 3 Gold.\n',
        ),
    )
    play(referee, clients.fresh(addr("Dan"), "Dan", BLOG, "[Idle]", ""))
    ann = {p: last(outbox, p, "announcement", "[Proposal 1]") for p in ("Bob", "Carol", "Eve")}
    play(referee, clients.outlook(ann["Bob"], addr("Bob"), "Bob", "FOR", prefix="AW: ", lang="de"))
    clock.advance(hours=23, minutes=59)
    referee.tick()
    assert not [m for m in outbox.all() if m["X-Mailref-Kind"] == "reminder"]
    clock.advance(minutes=1, seconds=1)
    referee.tick()
    reminders = [m for m in outbox.all() if m["X-Mailref-Kind"] == "reminder"]
    assert sorted(m["To"] for m in reminders) == [addr("Carol"), addr("Eve")]
    carol = last(outbox, "Carol", "reminder")
    assert carol["In-Reply-To"] == ann["Carol"]["Message-ID"]
    assert "it may be decided from Thu 3 Dec 2026 10:00 UTC" in str(carol["Subject"])
    text = Outbox.body(carol)
    assert 'you have not voted on Proposal 1 "Gold" by Alice.' in text
    assert "From Thu 3 Dec 2026 10:00 UTC, in 24 hours, it may be decided without your vote" in text
    assert "reply to this mail with FOR, AGAINST or DEFERENTIAL" in text
    play(referee, clients.mobile_top(carol, addr("Carol"), "Carol", "Against"))
    assert referee.state("blog")["proposals"][0]["votes"]["Carol"] == "AGAINST"
    clock.advance(hours=12)
    referee.tick()
    assert len([m for m in outbox.all() if m["X-Mailref-Kind"] == "reminder"]) == 2  # once a matter
    assert_replays(referee)


def test_a_blognomic_announcement_says_by_when_the_matter_is_decided(referee, outbox, clock):
    """A BlogNomic proposal's or CfJ's announcement said nothing of time (the Sidekick and
    Imperial ones say when voting closes): a Wizard could not tell whether to vote today or
    this week. It now says it is decided as soon as it is Popular or Unpopular, and at the
    latest once open 48 hours, on the votes cast by then."""
    blognomic(referee)
    play(
        referee,
        clients.fresh(
            addr("Alice"),
            "Alice",
            BLOG,
            "[Proposal] Gold",
            'Enact a new rule entitled "Gold" with the following text:\nEach Wizard has 3 Gold.\n',
            charset="koi8-r",
            cte="base64",
        ),
    )
    line = (
        "It is decided as soon as it is Popular or Unpopular (quorum 3), and at the latest from "
        "Thu 3 Dec 2026 "
        "10:00 UTC, in 2 days, on the votes cast by then."
    )
    assert line in Outbox.body(last(outbox, "Bob", "announcement", "[Proposal 1]"))
    play(
        referee,
        clients.fresh(
            addr("Bob"), "Bob", BLOG, "[CfJ] Is Gold legal?", "Please judge.", flowed=True
        ),
    )
    assert line in Outbox.body(last(outbox, "Carol", "announcement", "[CfJ 2]"))


def test_a_deferential_vote_in_the_metadynasty_is_explained_as_such(referee, outbox, clock):
    """Dan answered a reminder with DEF in the Metadynasty: the result said "the Historian has no
    valid FOR or AGAINST vote", of a Historian there is none. It now says there is no Historian."""
    blognomic(referee)
    play(
        referee,
        clients.fresh(addr("Alice"), "Alice", BLOG, "[Proposal] Gold", "Everyone gets Gold.\n"),
    )
    for p in ("Bob", "Carol"):
        play(
            referee,
            clients.gmail(last(outbox, p, "announcement", "[Proposal 1]"), addr(p), p, "FOR"),
        )
    play(
        referee,
        clients.outlook(
            last(outbox, "Dan", "announcement", "[Proposal 1]"),
            addr("Dan"),
            "Dan",
            "DEF",
            prefix="Antw: ",
            lang="nl",
        ),
    )
    clock.advance(hours=12, seconds=1)
    referee.tick()
    text = Outbox.body(last(outbox, "Eve", "results", "[Proposal 1]"))
    assert (
        "DEFERENTIAL (Dan) does not count: there is no Historian (the Metadynasty; an earlier "
        "vote stands)." in text
    )
