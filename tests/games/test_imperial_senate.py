"""Imperial: the senators learn which proposal a new one replaced."""

from __future__ import annotations

import pytest

from support.helpers import Outbox
from support.joining import confirm_waiting
from support.play import addr, send  # the same players' addresses, mail sent the same way
from support.play_four import EMP, last

pytestmark = pytest.mark.spec("5.3")


def test_the_senators_learn_which_proposal_a_new_one_replaced(referee, outbox):
    """Zoë's fourth undecided proposal replaces her first (rule 12, max_undecided 3): only her ack
    said so, and the Senators went on voting on a proposal that took no more votes."""
    referee.create_game("emp", "imperial", EMP, gm="gm@ref.example")
    for p in ("alice", "bob", "zoe"):
        send(referee, p, "[Join]", f"Name: {p.title()}", to=EMP)
        confirm_waiting(referee)
    for i in range(1, 5):
        send(
            referee,
            "zoe",
            f"[Proposal] Idea {i}",
            f'Enact rule 4{i} "Idea {i}":\nIdea number {i}.',
            to=EMP,
        )
    told = Outbox.body(last(outbox, addr("alice"), "announcement", "Idea 4"))
    assert (
        'It replaces Zoe\'s oldest undecided proposal, 1 "Idea 1", which takes no more votes '
        "(rule 12)." in told
    )
    assert "replaces" not in Outbox.body(last(outbox, addr("alice"), "announcement", "Idea 3"))
