"""A delay warning is no bounce against the player."""

from __future__ import annotations

import pytest

from support.hostile_smtp import DELAYED

pytestmark = pytest.mark.spec("2.2")


def test_a_delay_warning_is_no_bounce_against_the_player(game, smtp, outbox):
    """Postfix's "Delayed Mail (still being retried) ... a warning only" was recorded as a
    bounce against Bob and shown in the GM's digest beside real ones; only a failure is."""
    from sqlalchemy import select

    from mailref.store import Bounce

    outbox.new()
    for n, (action, status) in enumerate([("delayed", "4.4.1"), ("failed", "5.1.1")]):
        smtp(
            DELAYED.format(n=n, action=action, status=status).replace("\n", "\r\n").encode(),
            "",
            "referee@ref.example",
        )
    with game.store() as s:
        assert [(b.address, b.inbox_id) for b in s.scalars(select(Bounce))] == [
            ("bob@example.org", 6)  # after the two joins and their confirmations
        ]
    assert not outbox.new()
