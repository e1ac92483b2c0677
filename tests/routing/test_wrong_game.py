"""A reply to another game's CfJ sent here is told where it belongs."""

from __future__ import annotations

import pytest

from support.helpers import Outbox
from support.joining import confirm_waiting
from support.play import PLAYERS, addr, nomes, send

pytestmark = pytest.mark.spec("2.3")


def test_a_reply_to_another_games_cfj_sent_here_is_told_where_it_belongs(referee, outbox):
    """Bob replies FOR to Blog Nomic's "[CfJ 4]" but the mail goes to the Nomes address. Nomes
    takes [CfJ] too, so it answered "only its judge answers judgement 4" about a judgement it
    does not have. Now: this is Nomes, the mail answers Blog Nomic, send it there."""
    blog = "blog@ref.example"
    referee.create_game("blog", "blognomic", blog, name="Blog Nomic")
    for n in ("ann", "bob", "cat", "dan", "eve"):
        send(referee, n, "[Join]", f"Name: {n.title()}", to=blog)
        confirm_waiting(referee)
    nomes(referee)
    send(referee, "ann", "[CfJ] Was it legal?", "I think so.", to=blog)
    cfj = [m for m in outbox.all() if m["To"] == addr("bob") and "[CfJ 1]" in str(m["Subject"])][-1]
    send(referee, "bob", "Re: " + str(cfj["Subject"]), "FOR", in_reply_to=cfj["Message-ID"])
    err = [m for m in outbox.all() if m["To"] == addr("bob")][-1]
    body = " ".join(Outbox.body(err).split())
    assert (
        err["X-Mailref-Kind"] == "error" and "but your mail answers a mail of Blog Nomic" in body
    ), body
    assert blog in body and "judge" not in body
    # A reply to the game's own mail (it carries its label) is not looked up: still a vote.
    mover = referee.state("nomes")["turn"]["player"]
    send(referee, mover.lower(), "[Proposal] Q", 'Enact rule 24 "Q":\nQuiet.\n')
    voter = next(p for p in PLAYERS if p.title() != mover)
    prop = [
        m for m in outbox.all() if m["To"] == addr(voter) and "[Proposal 1]" in str(m["Subject"])
    ][-1]
    send(referee, voter, "Re: " + str(prop["Subject"]), "FOR", in_reply_to=prop["Message-ID"])
    assert referee.state("nomes")["proposals"][0]["votes"].get(voter.title()) == "FOR"
