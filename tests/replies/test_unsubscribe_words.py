"""A person who types "unsubscribe" to the game's address asks to stop mail, as Mailman's
"administrivia" do: such a mail is answered with how to get less mail or leave, and never
relayed to the other players as discussion (SPEC §2.3)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from support.helpers import Clock, make_referee
from support.listener import listening
from support.ops import CountingSink
from support.table import Table, text

pytestmark = pytest.mark.spec("2.3")

G = "nomes@ref.example"


@pytest.fixture
def table(tmp_path, database_url):
    referee = make_referee(
        tmp_path, Clock(datetime(2026, 3, 2, 9, 0, tzinfo=UTC)), url=database_url
    )
    with listening(referee, 10_000_000) as port, CountingSink() as sink:
        referee.create_game("nomes", "sidekick", G, name="Nomes")
        t = Table(referee, port, sink, tmp_path)
        for n in ("Alice", "Bob", "Carol"):
            t.join(f"{n.lower()}@x.org", G, f"Name: {n}")
        yield t
    referee.store.dispose()


@pytest.mark.parametrize(
    ("subject", "body"),
    [("unsubscribe", ""), ("", "unsubscribe"), ("Please remove me", ""), ("STOP", "Stop.\n")],
)
def test_unsubscribe_alone_is_answered_not_relayed(table, subject, body):
    got = table.send("alice@x.org", G, subject, body)
    assert set(got) == {"alice@x.org"}, "relayed to the other players"
    (answer,) = got["alice@x.org"]
    said = text(answer)
    assert "[Settings] digest" in said and "[Quit]" in said
    assert answer["X-Mailref-Refusal"] == "unsubscribe_request"


def test_words_about_unsubscribing_are_still_discussion(table):
    got = table.send("alice@x.org", G, "Unsubscribe?", "Should Bob unsubscribe from the tea rule?")
    assert set(got) == {"bob@x.org", "carol@x.org"}
