"""A vote naming another game is not counted in this one."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, assert_replays
from support.long_games import BLOG, G, blog, new_rule, nomes
from support.play import addr, send  # the same players' addresses, mail sent the same way

pytestmark = pytest.mark.spec("2.3")


def test_a_vote_naming_another_game_is_not_counted_in_this_one(referee, outbox, clock):
    """Eve plays Nomes and BlogNomic, both with a proposal 1. Her vote "Re: [Nomic Sidekick
    Nomic] [Proposal 1] Tea" went to BlogNomic's address (picked from her address book, without
    In-Reply-To): it was recorded on BlogNomic's proposal 1 "Gold", a proposal she never read.
    A subject naming another game of this host is now sent back there, nothing done here."""
    nomes(referee, ("alice", "bob", "carol", "dan", "eve"))
    blog(referee)
    mover = referee.state("nomes")["turn"]["player"]
    send(referee, mover.lower(), "[Proposal] Tea", 'Enact rule 24 "Tea":\nTea is served.\n')
    send(referee, "alice", "[Proposal] Gold", new_rule("Gold", "Each Wizard has 3 Gold."), to=BLOG)
    outbox.new()
    send(referee, "eve", "Re: [Nomic Sidekick Nomic] [Proposal 1] Tea", "AGAINST", to=BLOG)
    new = outbox.new()
    assert [(m["To"], m["X-Mailref-Kind"], m["X-Mailref-Game"]) for m in new] == [
        (addr("eve"), "error", "blog")
    ]
    text = Outbox.body(new[0])
    assert (
        "this is BlogNomic, but your mail names Nomic Sidekick Nomic; nothing was done in BlogNomic"
        in text
    )
    assert f"Send it to Nomic Sidekick Nomic at {G}" in text
    assert "Eve" not in referee.state("blog")["proposals"][0]["votes"]
    # A label no game of the host has (a mail gateway's "[EXT]") is no other game: the vote counts.
    send(referee, "eve", "[EXT] Re: [BlogNomic] [Proposal 1] Gold", "AGAINST", to=BLOG)
    assert referee.state("blog")["proposals"][0]["votes"]["Eve"] == "AGAINST"
    assert_replays(referee)
