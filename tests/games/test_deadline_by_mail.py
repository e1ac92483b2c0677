"""SPEC §2.5 `[Deadline]`: the GM moves the deadline by mail (`+2d`, `Fri 18:00`), pauses and
resumes the game; a player's `[Deadline] +1d` only asks the GM, who answers `[Deadline] ok`;
`max_extension` bounds the extensions of one deadline by mail. Players and the GM write over a
real SMTP session to the listener; the outbox delivers to a real relay; the clock is the
test's."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from mailref.timeutil import parse_iso
from support.helpers import assert_replays
from support.table import Table, table_at, text

pytestmark = pytest.mark.spec("2.5")

G = "nomes@ref.example"
GM = "gm@ref.example"


@pytest.fixture
def table(tmp_path, database_url):
    # Tuesday 1 Dec 2026, 10:00 UTC
    with table_at(tmp_path, database_url, datetime(2026, 12, 1, 10, 0, tzinfo=UTC)) as t:
        yield t


def nomes(table: Table) -> datetime:
    """Alice, Bob and Carol in a Sidekick game with a GM; turn 1's deadline."""
    table.referee.create_game("nomes", "sidekick", G, name="Nomes", gm=GM)
    for n in ("Alice", "Bob", "Carol"):
        table.join(f"{n.lower()}@x.org", G, f"Name: {n}")
    return deadline(table)


def deadline(table: Table) -> datetime:
    return parse_iso(table.referee.state("nomes")["turn"]["deadline"])


def test_the_gms_plus_two_days_moves_the_deadline_and_a_players_only_asks(table):
    before = nomes(table)
    assert before == datetime(2026, 12, 6, 10, 0, tzinfo=UTC)

    got = table.send(GM, G, "[Deadline] +2d", "The holidays.", in_reply_to=table.last_to(GM, G))
    ack = text(table.reply(got, GM))
    assert (
        "Turn 1's deadline moved from Sun 6 Dec 2026 10:00 UTC to Tue 8 Dec 2026 10:00 UTC" in ack
    )
    assert deadline(table) == before + timedelta(days=2)
    for who in ("alice", "bob", "carol"):
        (news,) = got[f"{who}@x.org"]
        assert news["Subject"] == "[Nomes] Deadline changed"
        assert "Reason: The holidays." in text(news)

    got = table.send("bob@x.org", G, "[Deadline] +1d", "I am travelling until Monday.")
    ack = text(table.one(got, "bob@x.org"))
    assert "Your request for 1 day more went to the GM (gm@ref.example)" in ack
    assert "stays Tue 8 Dec 2026 10:00 UTC" in ack
    (asked,) = got[GM]
    assert asked["X-Mailref-Kind"] == "alert"
    assert asked["Subject"] == "[Nomes] [Deadline] Bob asks for 1 day more"
    assert "Reason: I am travelling until Monday." in text(asked)
    assert "Extensions left this turn: 1." in text(asked)
    assert set(got) == {"bob@x.org", GM}  # the others are not told of a request
    assert deadline(table) == before + timedelta(days=2)

    got = table.send(
        GM, G, f"Re: {asked['Subject']}", "ok", asked["Message-ID"]
    )  # the GM's plain Reply
    assert "Turn 1's deadline moved from Tue 8 Dec 2026 10:00 UTC to Wed 9 Dec" in text(
        table.reply(got, GM)
    )
    assert deadline(table) == before + timedelta(days=3)
    (granted,) = got["bob@x.org"]
    assert "Bob asked for 1 day more, and the GM granted it." in text(granted)

    # max_extension (2): a third extension by mail is refused, asked for or not.
    got = table.send("bob@x.org", G, "[Deadline] +1d")
    assert "the most max_extension allows (2)" in text(table.one(got, "bob@x.org", "error"))
    got = table.send(GM, G, "[Deadline] +1d", in_reply_to=table.last_to(GM, G))
    assert "the most max_extension allows (2)" in text(table.one(got, GM, "error"))
    assert deadline(table) == before + timedelta(days=3)
    # An earlier deadline is no extension.
    got = table.send(GM, G, "[Deadline] Mon 18:00", in_reply_to=table.last_to(GM, G))
    assert deadline(table) == datetime(2026, 12, 7, 18, 0, tzinfo=UTC)
    assert_replays(table.referee)


def test_a_player_cannot_move_the_deadline_and_the_gm_answers_each_request(table):
    before = nomes(table)
    got = table.send("carol@x.org", G, "[Deadline] Fri 18:00")
    assert "only the GM moves the deadline" in text(table.one(got, "carol@x.org", "error"))
    got = table.send("carol@x.org", G, "[Deadline]", "+2 days\nMy cat is ill.")
    (carols,) = got[GM]
    table.send("bob@x.org", G, "[Deadline] +1d")
    got = table.send("bob@x.org", G, "[Deadline] +12h")
    assert "It replaces your request for 1 day more." in text(table.one(got, "bob@x.org"))
    got = table.send(GM, G, "[Deadline] no", in_reply_to=table.last_to(GM, G))
    assert "several requests for more time are waiting (from: Bob, Carol)" in text(
        table.one(got, GM, "error")
    )
    got = table.send(
        GM, G, f"Re: {carols['Subject']}", "no", carols["Message-ID"]
    )  # the Reply names whose
    assert "Carol's request for 2 days more is refused." in text(table.reply(got, GM))
    (told,) = got["carol@x.org"]
    assert "The GM refused your request for 2 days more." in text(told)
    assert deadline(table) == before
    got = table.send(GM, G, "[Deadline] ok Bob", in_reply_to=table.last_to(GM, G))
    assert deadline(table) == before + timedelta(hours=12)
    assert "Bob asked for 12 hours more, and the GM granted it." in text(got["bob@x.org"][0])
    got = table.send(GM, G, "[Deadline] ok", in_reply_to=table.last_to(GM, G))
    assert "no request for more time is waiting" in text(table.one(got, GM, "error"))


def test_the_gm_sets_the_deadline_in_the_games_zone_and_pauses_and_resumes_by_mail(table):
    nomes(table)
    table.referee.admin("nomes", {"type": "set", "values": {"timezone": "Europe/Berlin"}}, "gm")
    table.deliver()
    got = table.send(GM, G, "[Deadline] Fri 18:00", in_reply_to=table.last_to(GM, G))
    assert "to Fri 4 Dec 2026 18:00 CET (17:00 UTC)" in text(table.reply(got, GM))
    assert deadline(table) == datetime(2026, 12, 4, 17, 0, tzinfo=UTC)

    got = table.send(GM, G, "[Deadline] pause", "Server move.", in_reply_to=table.last_to(GM, G))
    assert table.referee.state("nomes")["status"] == "paused"
    (news,) = got["alice@x.org"]
    assert "The GM paused the game." in text(news) and "Reason: Server move." in text(news)
    table.referee.clock.advance(days=1)
    got = table.send(GM, G, "[Deadline] resume", in_reply_to=table.last_to(GM, G))
    assert table.referee.state("nomes")["status"] == "active"
    assert deadline(table) == datetime(2026, 12, 5, 17, 0, tzinfo=UTC)
    assert "Every deadline moved 1d later." in text(got["alice@x.org"][0])


def test_the_gms_deadline_mail_needs_authentication_where_the_game_requires_it(table):
    before = nomes(table)
    assert table.referee.admin("nomes", {"type": "set", "values": {"require_auth": "on"}}, "gm").ok
    got = table.send(GM, G, "[Deadline] +2d", in_reply_to=table.last_to(GM, G))
    assert "could not be verified" in text(table.one(got, GM, "error"))
    assert deadline(table) == before


def test_the_gm_extends_an_orders_turn_by_mail(table):
    g = "dip@ref.example"
    table.referee.create_game("dip", "orders", g, gm=GM)
    for p in ("ann", "ben"):
        table.join(f"{p}@x.org", g, f"Name: {p.title()}")
    assert table.referee.admin("dip", {"type": "start"}, GM).ok
    table.deliver()
    before = parse_iso(table.referee.state("dip")["turn"]["deadline"])
    got = table.send(
        GM, g, "[Deadline]", "+1d12h\nA player is travelling.", in_reply_to=table.last_to(GM, g)
    )
    assert "Turn 1's deadline moved" in text(table.reply(got, GM))
    assert parse_iso(table.referee.state("dip")["turn"]["deadline"]) == before + timedelta(
        days=1, hours=12
    )
    got = table.send("ann@x.org", g, "[Deadline] +1d")
    assert "Ann asks for 1 day more" in got[GM][0]["Subject"]
