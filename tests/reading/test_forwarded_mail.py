"""A forwarded proposal is neither a submission nor a ballot."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, mail
from support.joining import confirm_waiting
from support.outside_smtp import error_of

pytestmark = pytest.mark.spec("2.5")


@pytest.mark.parametrize("prefix", ["Fwd:", "FW:", "WG:", "TR:", "Fwd: Re:"])
def test_a_forwarded_proposal_is_neither_a_submission_nor_a_ballot(referee, smtp, prefix):
    """A player forwarding a proposal to the game passes on someone's mail: the forwarder is not its
    author, and a vote word in it (or above it) is not the forwarder's ballot (SPEC §2.4). Nothing
    is recorded, and the answer says how to propose or vote oneself; a Reply to the forward is a
    reply."""
    blog = "blog@ref.example"
    referee.create_game("blog", "blognomic", blog, name="Blog")
    names = ("Ann", "Ben", "Cat", "Dan", "Eve")
    for n in names:
        smtp(mail(f"{n.lower()}@x.org", blog, "[Join]", f"Name: {n}"), f"{n.lower()}@x.org", blog)
        confirm_waiting(referee)
    smtp(
        mail(
            "ann@x.org",
            blog,
            "[Proposal] Tea",
            'Enact a new rule entitled "Tea" with the following text:\n' "Tea is served.",
        ),
        "ann@x.org",
        blog,
    )
    box = Outbox(referee)
    box.new()
    forwarded = (
        "FOR\n\n---------- Forwarded message ---------\nFrom: Blog <blog@ref.example>\n"
        'Subject: [Blog] [Proposal 1] Tea\n\nEnact a new rule entitled "Tea"\n'
    )
    ben = "ben@x.org"
    smtp(mail(ben, blog, f"{prefix} [Blog] [Proposal 1] Tea", forwarded), ben, blog)
    said = error_of(box)
    assert (
        "your mail forwards proposal 1: a forward is not a vote" in said and "[Vote] 1" in said
    ), said
    smtp(
        mail(
            ben, blog, f"{prefix} [Proposal] Coffee", "Coffee is served. (Cat's idea, forwarded.)"
        ),
        ben,
        blog,
    )
    said = error_of(box)
    assert "your mail forwards a proposal (Coffee)" in said and "nothing was posted" in said, said
    assert "[Proposal] Coffee" in said, said
    smtp(mail(ben, blog, f"{prefix} [CfJ] Is tea legal?", "Asking for Cat."), ben, blog)
    assert "your mail forwards a [CfJ] mail" in error_of(box)
    state = referee.state("blog")
    assert [p["title"] for p in state["proposals"]] == ["Tea"] and state["judgements"] == []
    assert state["proposals"][0]["votes"] == {"Ann": "FOR"}
    smtp(mail(ben, blog, "[Status]", ""), ben, blog)  # a Status is a Status, forwarded or not
    smtp(
        mail(ben, blog, f"Re: {prefix} [Blog] [Proposal 1] Tea", "FOR"), ben, blog
    )  # a Reply votes
    assert referee.state("blog")["proposals"][0]["votes"]["Ben"] == "FOR"
