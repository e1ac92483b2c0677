"""Names as people write them, and what a name may hold."""

from __future__ import annotations

import pytest

from support.table import text
from support.table_play import NOMES, nomes

pytestmark = pytest.mark.spec("2.3")


def test_names_as_people_write_them_and_what_a_name_may_hold(table):
    """Item 17: a typographic apostrophe and a directory's "Last, First" are names; a name
    refused is answered with exactly what a name may hold."""
    nomes(table)
    table.reply(table.join("sean@x.org", NOMES, "Name: Seán D\u2019Arcy"), "sean@x.org")
    table.write("cc@corp.example", NOMES, "[Join]", "Hi!", name="Chen, Carla")
    table.reply(table.confirm("cc@corp.example"), "cc@corp.example")
    names = [p["name"] for p in table.referee.state("nomes")["players"]]
    assert names == ["Seán D'Arcy", "Carla Chen"]
    err = table.one(table.send("zed@x.org", NOMES, "[Join]", "Name: <Zed>"), "zed@x.org", "error")
    assert err["X-Mailref-Refusal"] == "bad_player_name"
    body = " ".join(text(err).split())
    assert (
        "at most 40 characters, of letters, digits, spaces and . ' - _, starting with a letter, "
        "digit or _" in body
    )
