"""A host whose mail comes through the referee's own listener."""

from __future__ import annotations

import pytest

from support.listener import listening, submit

EIRE, NOMES = "eire@ref.example", "nomes@ref.example"


@pytest.fixture
def host(referee):
    # Eire named as its variant is: "[Judge] is not a command of Eire", not "of Eire (Eire)".
    referee.create_game("eire", "eire", EIRE, name="Eire", gm="gm@ref.example")
    referee.create_game("nomes", "sidekick", NOMES, name="Nomes")
    with listening(referee) as port:
        yield lambda raw, frm, to: submit(port, frm, [to], raw)
