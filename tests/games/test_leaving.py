"""A player who left is told so, not told to join as a stranger."""

from __future__ import annotations

import pytest

from support.helpers import Outbox
from support.play import addr, nomes, send

pytestmark = pytest.mark.spec("2.3")


def test_a_player_who_left_is_told_so_not_to_join_as_a_stranger(referee, outbox):
    """Carol sent [Quit], then [Status]: she was told "carol@… is not a player … send [Join] …
    if you play from another address …", as to a stranger."""
    nomes(referee)
    send(referee, "carol", "[Quit]", "Bye all.")
    send(referee, "carol", "[Status]")
    said = " ".join(Outbox.body([m for m in outbox.all() if m["To"] == addr("carol")][-1]).split())
    assert "you (Carol) have left" in said and "Send [Join] to play again" in said, said
    assert "another address" not in said
