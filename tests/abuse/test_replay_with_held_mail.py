"""Replay rebuilds what the game holds back for a player (SPEC §8): mail held past the day's
`mails_per_player_day` and mail held for a player who took the digest with the one-click link
keep nothing only the live door knows, the seed chain's lines included, so `mailref replay`
finds the game identical after dice are rolled meanwhile."""

from __future__ import annotations

import urllib.request
from datetime import UTC, datetime

import pytest

from support.helpers import Outbox, assert_replays, mail
from support.hostile_smtp import ALICE, BOB, G
from support.joining import confirm
from support.one_click import serving
from support.table import table_at

pytestmark = pytest.mark.spec("8")

BASE = "https://games.example.org/"


def _bob(referee) -> dict:
    return next(p for p in referee.state("nomes")["players"] if p["name"] == "Bob")


def test_a_player_past_the_days_allowance_rolls_and_the_game_replays(referee, smtp, outbox, clock):
    referee.create_game(
        "nomes", "sidekick", G, gm="gm@ref.example", parameters={"mails_per_player_day": 4}
    )
    for name, a in (("Alice", ALICE), ("Bob", BOB)):
        smtp(mail(a, G, "[Join]", f"Name: {name}"), a)
        confirm(referee, a)
    referee.rng = None  # the game's seed chain, as a server draws
    for i in range(4):
        smtp(mail(ALICE, G, f"[Roll] d{6 + i}", "For the bridge."), ALICE)
    assert _bob(referee).get("capped_on")  # past the allowance: Alice's rolls wait for him
    smtp(mail(BOB, G, "[Roll] 2d6", "And mine."), BOB)
    held = _bob(referee)["held"]
    assert any("rolled 2d6" in line for h in held for line in h["lines"])
    assert not any("seed" in line for h in held for line in h["lines"])
    assert_replays(referee)
    clock.advance(days=1)
    referee.tick()
    (digest,) = outbox.to(BOB, outbox.all(), kind="digest")
    assert "rolled 2d6" in Outbox.body(digest)
    assert_replays(referee)


def test_a_player_who_used_the_one_click_link_sees_a_roll_and_the_game_replays(
    tmp_path, database_url
):
    start = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    with (
        table_at(tmp_path, database_url, start, one_click_url=BASE) as table,
        serving(table.referee) as web,
    ):
        referee = table.referee
        referee.create_game("nomes", "sidekick", G, name="Nomes")
        for n, a in (("Alice", ALICE), ("Bob", BOB)):
            table.join(a, G, f"Name: {n}")
        got = table.send(ALICE, G, "[Roll] d6")
        (news,) = [m for m in got[BOB] if m["X-Mailref-Kind"] == "announcement"]
        link = news["List-Unsubscribe"].split(",")[0].strip().strip("<>").replace(BASE, web)
        post = urllib.request.Request(
            link,
            data=b"List-Unsubscribe=One-Click",
            headers={"Content-Type": "application/x-www-form-urlencoded"},
        )
        with urllib.request.urlopen(post, timeout=10) as answer:
            assert answer.status == 200
        assert _bob(referee)["settings"] == {"digest": "daily"}
        referee.rng = None  # the game's seed chain, as a server draws
        got = table.send(ALICE, G, "[Roll] 2d10", "For the ford.")
        assert BOB not in got  # held for his digest
        (held,) = _bob(referee)["held"]
        assert any("rolled 2d10" in line for line in held["lines"])
        assert not any("seed" in line for line in held["lines"]), held["lines"]
        assert_replays(referee)
        referee.clock.advance(days=1)
        referee.tick()
        (digest,) = table.deliver()[BOB]
        assert "rolled 2d10" in Outbox.body(digest)
        assert_replays(referee)
