"""A reply to a closed proposal is told it is closed at once."""

from __future__ import annotations

import pytest

from support.helpers import Outbox
from support.play import addr, send  # the same players' addresses, mail sent the same way
from support.play_four import PLAYERS, last, nomes

pytestmark = pytest.mark.spec("2.3")


def test_a_reply_to_a_closed_proposal_is_told_it_is_closed_at_once(referee, outbox):
    """Alice answers her old ack of proposal 1 with "Actually, AGAINST." after it passed: she was
    told no vote was found and how to write one, and only her second try learnt that proposal 1
    was closed. Now the first answer says so. A vote word, a dash and a reason is a ballot whose
    reason the ack echoes (SPEC §3.2)."""
    mover = nomes(referee)
    send(
        referee,
        mover.lower(),
        "[Proposal] Hats",
        'Enact rule 24 "Hats":\nEvery player wears a hat.\n',
    )
    voters = [p for p in PLAYERS if p.title() != mover]
    send(referee, voters[0], "Re: [Nomic Sidekick Nomic] [Proposal 1] Hats", "FOR - nice cleanup")
    ack = Outbox.body(last(outbox, addr(voters[0]), "ack")).replace("\r\n", "\n")
    assert "FOR" in ack and "your reason: nice cleanup" in ack, ack
    for p in voters:
        send(referee, p, "[Vote] 1", "FOR\nNice hats.")
    assert referee.state("nomes")["proposals"][0]["status"] == "passed"
    send(
        referee, voters[0], "Re: Re: [Nomic Sidekick Nomic] [Proposal 1] Hats", "Actually, AGAINST."
    )
    answer = Outbox.body(last(outbox, addr(voters[0]), "error"))
    assert "Not done: proposal 1 (passed) is closed; votes are no longer taken." in answer
    assert "No vote found" not in answer


def test_words_about_a_closed_proposal_are_talk_not_a_late_vote(referee, outbox):
    """A Reply in a passed proposal's thread with no vote in it ("Lovely hats, well done.") is
    the players talking: relayed to the others, not told votes are no longer taken."""
    mover = nomes(referee)
    send(referee, mover.lower(), "[Proposal] Hats", 'Enact rule 24 "Hats":\nEvery hat.\n')
    voters = [p for p in PLAYERS if p.title() != mover]
    for p in voters:
        send(referee, p, "[Vote] 1", "FOR")
    assert referee.state("nomes")["proposals"][0]["status"] == "passed"
    outbox.new()
    subject = "Re: [Nomic Sidekick Nomic] [Proposal 1] Hats"
    send(referee, voters[0], subject, "Lovely hats, well done all.")
    new = outbox.new()
    assert outbox.to(addr(voters[0]), new, kind="error") == []
    (relayed,) = outbox.to(addr(voters[1]), new, kind="discussion")
    assert "Lovely hats, well done all." in Outbox.body(relayed)
