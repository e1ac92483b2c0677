"""SPEC §2.5 `[Settings]`, §4.3: a player's own inbox. `zone:` writes that player's deadlines
in their zone beside UTC, `digest: daily` holds the announcements for one mail a day, and an
announcement's List-Unsubscribe mailto switches its player to the digest, never out of the
game. Players write through a real SMTP session to the listener; the outbox delivers over
SMTP to a real relay."""

from __future__ import annotations

import argparse
import json
from datetime import UTC, datetime
from urllib.parse import unquote

import pytest

from mailref.cli.games import cmd_game_show
from support.table import Table, table_at, text

pytestmark = pytest.mark.spec("2.5")

G = "nomes@ref.example"


@pytest.fixture
def table(tmp_path, database_url):
    with table_at(tmp_path, database_url, datetime(2026, 3, 2, 9, 0, tzinfo=UTC)) as t:
        yield t


def nomes(table: Table) -> str:
    """Alice, Bob and Carol in a Sidekick game; the mover's name."""
    table.referee.create_game("nomes", "sidekick", G, name="Nomes")
    for n in ("Alice", "Bob", "Carol"):
        table.join(f"{n.lower()}@x.org", G, f"Name: {n}")
    return table.referee.state("nomes")["turn"]["player"].lower()


def player(table: Table, name: str) -> dict:
    return next(p for p in table.referee.state("nomes")["players"] if p["name"] == name)


def test_the_answer_to_settings_lists_them_all(table, capsys):
    """[Settings] lists every setting, and says how to change one (it did not)."""
    nomes(table)
    got = table.send("bob@x.org", G, "[Settings]", "zone: Europe/Berlin\ndiscussion: off\n")
    ack = text(table.one(got, "bob@x.org"))
    assert "Settings changed: zone: Europe/Berlin, discussion: off." in ack
    assert "Your settings: digest: off; zone: Europe/Berlin; discussion: off." in ack
    assert player(table, "Bob")["settings"] == {"zone": "Europe/Berlin", "discussion": "off"}
    assert cmd_game_show(table.referee, argparse.Namespace(slug="nomes", json=True), "admin") == 0
    shown = {p["name"]: p["settings"] for p in json.loads(capsys.readouterr().out)["players"]}
    assert shown["Bob"] == {"digest": "off", "zone": "Europe/Berlin", "discussion": "off"}
    assert shown["Alice"] == {"digest": "off", "zone": "", "discussion": "on"}
    got = table.send("bob@x.org", G, "[Settings]", "")
    shown_only = " ".join(text(table.one(got, "bob@x.org")).split())
    assert "No setting changed." in shown_only  # [Settings] alone shows them, and how to change
    assert "To change one, send [Settings] with a line for each: digest: daily" in shown_only
    got = table.send("bob@x.org", G, "[Settings]", "zone: Mars/Olympus")
    assert "is not a time zone I know" in text(table.one(got, "bob@x.org", "error"))


def test_a_zone_writes_the_players_deadlines_in_it_beside_utc(table):
    r, g = table.referee, "eire@ref.example"
    r.create_game("eire", "eire", g, gm="gm@ref.example", parameters={"start_grain": "30"})
    for name, color, origin in (("Finn", "Green", "Llanc"), ("Maeve", "Red", "Donal")):
        table.join(
            f"{name.lower()}@x.org",
            g,
            f"Name: {name}\nColor: {color}\nTribe: Plainsmen\nOrigin: {origin}",
        )
    table.one(table.send("maeve@x.org", g, "[Settings]", "zone: Europe/Berlin"), "maeve@x.org")
    assert r.admin("eire", {"type": "start"}, "gm").ok
    got = table.deliver()
    finn = next(m for m in got["finn@x.org"] if m["X-Mailref-Kind"] == "turn")
    maeve = next(m for m in got["maeve@x.org"] if m["X-Mailref-Kind"] == "turn")
    assert " UTC" in finn["Subject"] and "CET" not in finn["Subject"] + text(finn)
    assert "CET (" in maeve["Subject"] and " UTC)" in maeve["Subject"]
    assert "CET (" in text(maeve)


def test_digest_daily_holds_the_announcements_for_one_mail_a_day(table):
    mover = nomes(table)
    reader = next(n for n in ("alice", "bob", "carol") if n != mover)
    table.one(table.send(f"{reader}@x.org", G, "[Settings]", "digest: daily"), f"{reader}@x.org")
    got = table.send(f"{mover}@x.org", G, "[Proposal] Tea", 'Enact rule 301 "Tea":\nTea.\n')
    assert f"{reader}@x.org" not in got  # no single announcement
    table.referee.clock.advance(hours=23, minutes=1)  # past 08:00 UTC the next day
    table.referee.tick()
    got = table.deliver()
    (digest,) = got[f"{reader}@x.org"]
    assert digest["X-Mailref-Kind"] == "digest"
    assert digest["Subject"] == "[Nomes] Your daily digest"
    assert "[Proposal 1] Tea" in text(digest)
    assert "You unsubscribed" not in text(digest)


def test_the_unsubscribe_mailto_switches_the_player_to_the_digest(table):
    mover = nomes(table)
    got = table.send(f"{mover}@x.org", G, "[Proposal] Tea", 'Enact rule 301 "Tea":\nTea.\n')
    reader = next(n for n in ("alice", "bob", "carol") if n != mover)
    news = next(m for m in got[f"{reader}@x.org"] if m["X-Mailref-Kind"] == "announcement")
    assert news["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    uri = news["List-Unsubscribe"].strip().strip("<>")
    to, _, query = uri.removeprefix("mailto:").partition("?subject=")
    assert to == G
    got = table.send(f"{reader}@x.org", to, unquote(query))  # what a mail program sends
    assert "digest: daily" in text(table.one(got, f"{reader}@x.org"))
    p = player(table, reader.title())
    assert p["status"] == "active" and p["settings"] == {"digest": "daily"}
    other = next(n for n in ("alice", "bob", "carol") if n not in (mover, reader))
    got = table.send(f"{other}@x.org", G, "[Away]")
    assert got[f"{mover}@x.org"] and f"{reader}@x.org" not in got  # still in the game, held
    table.referee.clock.advance(days=1)
    table.referee.tick()
    (digest,) = table.deliver()[f"{reader}@x.org"]
    assert f"{other.title()} is away." in text(digest)
    assert "You unsubscribed from the single announcements" in text(digest)
    assert '"digest: off"' in text(digest)
