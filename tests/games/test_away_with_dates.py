"""SPEC §2.5 `[Away] until DATE`, `[Away] DATE to DATE`, `NAME is away until …`: an absence
set now or ahead, bounded by `max_absence`, that ends by itself; skips honour it. Players write
over a real SMTP session to the listener; the outbox delivers to a real relay; the clock is the
test's."""

from __future__ import annotations

import argparse
import json
from datetime import UTC, datetime

import pytest

from mailref.cli.games import cmd_game_show
from support.helpers import assert_replays
from support.table import Table, table_at, text

pytestmark = pytest.mark.spec("2.5")

G = "nomes@ref.example"


@pytest.fixture
def table(tmp_path, database_url):
    # Tuesday 1 Dec 2026, 10:00 UTC
    with table_at(tmp_path, database_url, datetime(2026, 12, 1, 10, 0, tzinfo=UTC)) as t:
        yield t


def nomes(table: Table) -> tuple[str, str]:
    """Alice, Bob and Carol in a Sidekick game: the mover's name and another player's."""
    table.referee.create_game("nomes", "sidekick", G, name="Nomes")
    for n in ("Alice", "Bob", "Carol"):
        table.join(f"{n.lower()}@x.org", G, f"Name: {n}")
    mover = table.referee.state("nomes")["turn"]["player"]
    return mover, next(n for n in ("Alice", "Bob", "Carol") if n != mover)


def player(table: Table, name: str) -> dict:
    return next(p for p in table.referee.state("nomes")["players"] if p["name"] == name)


def shown(table: Table, capsys, name: str) -> dict:
    assert cmd_game_show(table.referee, argparse.Namespace(slug="nomes", json=True), "admin") == 0
    return next(p for p in json.loads(capsys.readouterr().out)["players"] if p["name"] == name)


def test_away_until_a_date_three_days_ahead_shows_and_ends_by_itself(table, capsys):
    _, who = nomes(table)
    me = f"{who.lower()}@x.org"
    got = table.send(me, G, "[Away] until Fri 4 Dec", "Visiting family.")
    ack = text(table.reply(got, me))
    assert f"{who} is now away." in ack
    assert "Your absence ends by itself Fri 4 Dec 2026 00:00 UTC, in 3 days." in ack
    news = {
        m["Subject"]
        for mails in got.values()
        for m in mails
        if m["X-Mailref-Kind"] == "announcement"
    }
    assert news == {f"[Nomes] {who} is away until Fri 4 Dec 2026 00:00 UTC."}
    assert (
        len(
            [
                a
                for a, mails in got.items()
                if any(m["X-Mailref-Kind"] == "announcement" for m in mails)
            ]
        )
        == 3
    )
    seen = shown(table, capsys, who)
    assert seen["status"] == "away" and seen["away_until"] == "2026-12-04T00:00:00Z"
    status = text(table.one(table.send(me, G, "[Status]"), me, "status"))
    assert f"{who} is away until Fri 4 Dec 2026 00:00 UTC." in status
    # A Reply to the announcement of one's own absence is no new absence, and tells nobody.
    got = table.send(me, G, f"Re: [Nomes] {who} is away until Fri 4 Dec 2026 00:00 UTC.", "Bye!")
    assert "already away until Fri 4 Dec 2026 00:00 UTC; nothing changed" in text(
        table.one(got, me)
    )

    table.referee.clock.advance(days=2, hours=13, minutes=59)  # Thu 3 Dec 23:59: still away
    table.referee.tick()
    assert player(table, who)["status"] == "away"
    table.referee.clock.advance(minutes=2)  # Fri 4 Dec 00:01
    table.referee.tick()
    back = table.deliver()
    assert player(table, who)["status"] == "active"
    (mine,) = back[me]
    assert (
        mine["Subject"]
        == f"[Nomes] {who} has returned (the absence ended Fri 4 Dec 2026 00:00 UTC)."
    )
    seen = shown(table, capsys, who)
    assert seen["status"] == "active" and seen["away_until"] is None


def test_an_absence_set_ahead_begins_and_ends_by_itself_and_skips_the_mover(table, capsys):
    mover, _ = nomes(table)
    me = f"{mover.lower()}@x.org"
    got = table.send(me, G, "[Away]", "Hello all,\n3 Dec to 4 Dec\nThanks")
    ack = text(table.reply(got, me))
    assert (
        f"{mover} will be away from Thu 3 Dec 2026 00:00 UTC until Sat 5 Dec 2026 00:00 UTC." in ack
    ), ack
    assert [m["X-Mailref-Kind"] for m in got[me]] == ["ack"]  # nobody told yet
    assert player(table, mover)["status"] == "active"
    assert shown(table, capsys, mover)["away_from"] == "2026-12-03T00:00:00Z"

    table.referee.clock.advance(days=1, hours=14)  # Thu 3 Dec 00:00
    table.referee.tick()
    began = table.deliver()
    assert player(table, mover)["status"] == "away"
    subjects = [m["Subject"] for m in began[me]]
    assert f"[Nomes] {mover} is away until Sat 5 Dec 2026 00:00 UTC." in subjects
    turn = table.referee.state("nomes")["turn"]
    assert turn["number"] == 2 and turn["player"] != mover  # skipped: away (rule 15)
    assert any("is away (rule 15)" in text(m) for m in began[me]), [text(m) for m in began[me]]

    table.referee.clock.advance(days=2)
    table.referee.tick()
    assert player(table, mover)["status"] == "active"
    assert "away_until" not in player(table, mover)
    assert_replays(table.referee)  # the dates are read at each action's own time


def test_an_absence_is_bounded_by_max_absence_and_its_dates_read(table):
    _, who = nomes(table)
    me = f"{who.lower()}@x.org"
    got = table.send(me, G, "[Away] until 20 Jan")
    err = text(table.one(got, me, "error"))
    assert "an absence is at most 30d (max_absence)" in err
    got = table.send(me, G, "[Away] until 6 Jna")
    assert "I could not read '6 Jna' as a date" in text(table.one(got, me, "error"))
    assert player(table, who)["status"] == "active"
    got = table.send(me, G, f"{who} is away until 6 Dec")
    assert f"{who} is now away." in text(table.reply(got, me))
    assert player(table, who)["away_until"] == "2026-12-06T00:00:00Z"
    got = table.send(me, G, "[Back]")
    assert player(table, who)["status"] == "active" and "away_until" not in player(table, who)


def test_absence_dates_are_read_in_the_players_zone(table):
    _, who = nomes(table)
    me = f"{who.lower()}@x.org"
    table.send(me, G, "[Settings]", "zone: Europe/Berlin")
    table.send(me, G, "[Away] until 4 Dec")
    assert player(table, who)["away_until"] == "2026-12-03T23:00:00Z"  # midnight in Berlin


def test_the_vote_counts_those_away_at_its_close_as_away_after_ended_absences(table):
    """A player whose dated absence ended before the vote closed is not counted as away, even
    when the referee wakes only after both moments: absences are settled first."""
    mover, _ = nomes(table)
    table.join("dave@x.org", G, "Name: Dave")  # present, and silent
    first, second = (n for n in ("Alice", "Bob", "Carol") if n != mover)
    table.send(f"{mover.lower()}@x.org", G, "[Proposal] Tea", 'Enact rule 301 "Tea":\nTea.\n')
    table.send(f"{first.lower()}@x.org", G, "[Away] until 8 Dec")
    table.send(f"{second.lower()}@x.org", G, "[Away] until 5 Dec")
    table.referee.clock.advance(days=5, minutes=5)  # Sun 6 Dec 10:05: past the vote's deadline
    table.referee.tick()
    got = table.deliver()
    (result,) = [m for m in got[f"{mover.lower()}@x.org"] if "[Proposal 1]" in m["Subject"]]
    said = text(result)
    assert f"Counted ABSTAIN, being away (rule 15): {first}." in said, said
    silent = ", ".join(sorted([second, "Dave"]))
    assert f"Counted ABSTAIN, not having voted in time (rule 11): {silent}." in said, said
    assert player(table, second)["status"] == "active"
    assert player(table, first)["status"] == "away"


def test_help_names_the_absence_with_dates(table):
    nomes(table)
    got = table.send("alice@x.org", G, "[Help]")
    said = text(table.one(got, "alice@x.org", "help"))
    assert "[Away] until 6 Jan, or [Away] 24 Dec to 6 Jan" in said
    assert "[Deadline] +1d" in said


def test_blognomic_idling_takes_no_dates(table):
    b = "blog@ref.example"
    table.referee.create_game("blog", "blognomic", b, name="Blog")
    table.join("ann@x.org", b, "Name: Ann")
    got = table.send("ann@x.org", b, "[Away] until 4 Dec")
    assert "going Idle has no end date" in text(table.one(got, "ann@x.org", "error"))
    assert next(p for p in table.referee.state("blog")["players"])["status"] == "active"


def test_the_gm_sets_a_player_away_until_a_date_from_the_command_line(table, capsys):
    """`mailref player away nomes NAME --until DATE` was missing: the GM could only set a
    player away with no end. Now the absence ends by itself that day, as `[Away] until DATE`
    does, and the command says so."""
    from mailref.cli.parser import build_parser
    from mailref.cli.players import cmd_player_status

    _, who = nomes(table)
    args = build_parser().parse_args(
        ["player", "away", "nomes", who, "--until", "Fri 4 Dec", "--reason", "on holiday"]
    )
    assert cmd_player_status(table.referee, args, "gm@ref.example") == 0
    assert f"{who} is now away" in capsys.readouterr().out
    assert player(table, who)["away_until"] == "2026-12-04T00:00:00Z"
    table.referee.clock.advance(days=2, hours=14, minutes=1)  # Fri 4 Dec 00:01
    table.referee.tick()
    assert player(table, who)["status"] == "active"
    assert_replays(table.referee)
