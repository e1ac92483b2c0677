"""A player writing from a second address is not told to join."""

from __future__ import annotations

import pytest

from support.table import text
from support.table_play import NOMES, nomes

pytestmark = pytest.mark.spec("2.3")


def test_a_player_writing_from_a_second_address_is_not_told_to_join(table):
    """Item 18: Bob votes from his work address: use the registered one, or ask the GM."""
    nomes(table, "Alice", "Bob Brown")
    got = table.write("bob@work.example", NOMES, "[Status]", "", name="Bob Brown")
    body = " ".join(text(table.one(got, "bob@work.example", kind="error")).split())
    assert (
        "write from the address you play from, or ask the GM (gm@ref.example) to add this one"
        in body
    )
    assert "[Join]" not in body
