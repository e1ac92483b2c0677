"""A status never says "deadline None"."""

from __future__ import annotations

import pytest

from support.helpers import Outbox
from support.play import addr, send  # the same players' addresses, mail sent the same way
from support.play_four import last, nomes

pytestmark = pytest.mark.spec("2.6")


def test_a_status_never_says_deadline_none(referee, outbox):
    """The GM's digest and [Status] said "Turn 4: Carol Chen, deadline none" once Carol had
    moved."""
    mover = nomes(referee)
    send(
        referee,
        mover.lower(),
        "[Proposal] Hats",
        'Enact rule 24 "Hats":\nEvery player wears a hat.\n',
    )
    send(referee, mover.lower(), "[Status]")
    status = Outbox.body(last(outbox, addr(mover), "status"))
    assert f"Turn 1: {mover}, moved: proposal 1" in status and "deadline none" not in status
