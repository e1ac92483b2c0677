"""BlogNomic decides a matter by quorum with no vote deadline, so a player could not tell
whether a proposal was Popular or when it would be enacted: no ack, [Status], digest or page
said it. And `game set min_open=1m` left a Popular proposal pending until the next ballot."""

from __future__ import annotations

import pytest

from mailref.config import SiteConfig
from mailref.site import rebuild
from support.helpers import Outbox, assert_replays
from support.play import addr, send
from support.play_four import BLOG, blog, last, propose_gold

pytestmark = pytest.mark.spec("5.2")

GM = "gm@ref.example"


def popular_gold(referee) -> None:
    """Five Wizards; Alice's proposal 1 has FOR 3 of quorum 3, open less than 12 hours."""
    blog(referee)
    propose_gold(referee)
    send(referee, "bob", "[Vote] 1", "FOR", to=BLOG)
    send(referee, "carol", "[Vote] 1", "FOR", to=BLOG)


def words(mail) -> str:
    return " ".join(Outbox.body(mail).split())


def test_acks_status_digest_and_site_say_popular_and_when_it_is_enacted(referee, outbox, tmp_path):
    popular_gold(referee)
    bob = words(last(outbox, addr("bob"), "ack"))
    assert (
        "Proposal 1: Not yet Popular (FOR 2, AGAINST 0, quorum 3): it is enacted as soon as" in bob
    ), bob
    carol = words(last(outbox, addr("carol"), "ack"))
    assert "Proposal 1: Popular (FOR 3, AGAINST 0, quorum 3): it is enacted at " in carol, carol
    send(referee, "zoe", "[Status]", to=BLOG)
    status = words(last(outbox, addr("zoe"), "status"))
    assert "Popular (FOR 3, AGAINST 0, quorum 3): it is enacted at " in status, status
    referee.admin("blog", {"type": "digest"}, "gm")
    digest = words(last(outbox, GM, "digest"))
    assert "Popular (FOR 3, AGAINST 0, quorum 3): it is enacted at " in digest, digest
    assert rebuild(referee.store, SiteConfig(tmp_path / "site"), now=referee.clock()) == ["blog"]
    page = (tmp_path / "site" / "blog" / "index.html").read_text()
    assert "Popular (FOR 3, AGAINST 0, quorum 3): it is enacted at " in page
    assert_replays(referee)


def test_a_shorter_min_open_enacts_a_popular_proposal_at_once(referee, outbox, clock):
    popular_gold(referee)
    clock.advance(minutes=5)
    assert referee.state("blog")["proposals"][0]["status"] == "pending"  # 12 hours not yet
    assert referee.admin("blog", {"type": "set", "values": {"min_open": "1m"}}, "gm").ok
    assert referee.state("blog")["proposals"][0]["status"] == "enacted"
    assert "ENACTED" in words(last(outbox, addr("zoe"), "results"))
    assert_replays(referee)
