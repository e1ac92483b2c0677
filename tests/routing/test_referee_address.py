"""A vote sent to the referee's own address is told where it belongs."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, mail
from support.play import addr, send  # the same players' addresses, mail sent the same way
from support.play_four import BLOG, PLAYERS, G, last, nomes

pytestmark = pytest.mark.spec("2.3")


def test_a_vote_sent_to_the_referees_own_address_is_told_where_it_belongs(referee, outbox):
    """Bob answers "[Nomes] [Proposal 1]" from an old address book entry: his AGAINST reached the
    referee's own address, not the game's, and the answer was the bare list of games, silent on
    his vote. It now says nothing was recorded and where to send it. A stranger's mail to that
    address still gets the list alone."""
    mover = nomes(referee)
    referee.create_game("blog", "blognomic", BLOG, gm="gm@ref.example")  # two games on the host
    send(
        referee,
        mover.lower(),
        "[Proposal] Hats",
        'Enact rule 24 "Hats":\nEvery player wears a hat.\n',
    )
    voter = next(p for p in PLAYERS if p.title() != mover)
    subject = str(last(outbox, addr(voter), "announcement", "[Proposal 1]")["Subject"])
    send(referee, voter, "Re: " + subject, "AGAINST\n\nToo silly.", to="referee@ref.example")
    answer = Outbox.body(last(outbox, addr(voter), "help")).replace("\r\n", "\n")
    assert answer.startswith(
        "Your mail names Nomic Sidekick Nomic but came to the referee's own address, where no "
        "game is played: nothing was done (no vote or command was recorded). Send it to "
        f"{G}; a plain Reply"
    ), answer[:400]
    assert voter.title() not in referee.state("nomes")["proposals"][0]["votes"]
    send(referee, voter, "[Status]", "", to="referee@ref.example")
    answer = Outbox.body(last(outbox, addr(voter), "help"))
    assert f"you play Nomic Sidekick Nomic at {G}." in answer
    referee.accept(mail("stranger@else.example", "referee@ref.example", "hello", "hi"), "smtp")
    answer = Outbox.body(last(outbox, "stranger@else.example", "help"))
    assert answer.startswith("This address (referee@ref.example) is the referee")
