"""A BlogNomic game by mail: its wizards, how they write, and a dynasty change the site tests
publish."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from support.helpers import Clock, Outbox, make_referee, send_mail
from support.joining import confirm
from support.snapshots import play_once

G = "blog@ref.example"


NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus"]


def addr(n: str) -> str:
    return f"{n.lower()}@wiz.example"


def send(r, who: str, subject: str, body: str = "", **kw):
    return send_mail(r, addr(who), G, subject, body, **kw)


def reply(r, who: str):
    return [
        m
        for m in Outbox(r).all()
        if m["To"] == addr(who) and m["X-Mailref-Kind"] in ("ack", "error")
    ][-1]


def matter(r, n: int) -> dict:
    st = r.state("blog")
    return next(m for m in st["proposals"] + st["judgements"] if m["number"] == n)


@pytest.fixture
def blognomic_game(request, tmp_path, database_url):
    clock = Clock(datetime(2026, 3, 2, 9, 0, tzinfo=UTC))
    r = make_referee(tmp_path, clock, url=database_url)
    r.clock_ = clock

    def opening() -> None:
        r.create_game("blog", "blognomic", G, gm="gm@ref.example")
        for n in NAMES:
            send(r, n, "[Join]", f"Name: {n}")
            confirm(r, addr(n))

    play_once(request, r, opening)
    # The replay check runs after the test (conftest's every_game_replays), once.
    yield r


def at(r, **kw):
    r.clock_.advance(**kw)
    r.tick()


PROP = 'Enact a new rule entitled "Gold" with the following text:\nEach Wizard has 3 Gold.\n'


def status(r) -> str:
    from mailref.engine.public import public_view

    return public_view(r.state("blog"))["status"]


def play_a_dynasty_change(game):
    """DoV: Hiatus while pending; enacted when Popular and 12h with no AGAINST; the author becomes
    Historian; other DoVs fail; the Ascension Address repeals the dynastic rules not kept."""
    send(game, "Ann", "[Proposal] Gold", PROP)
    send(game, "Ben", "[DoV] I have won", "All the cards are mine.")
    send(game, "Cat", "[DoV] No, I have", "")
    send(game, "Dan", "[Proposal] Silver", PROP)
    assert "Hiatus" in Outbox.body(reply(game, "Dan"))
    for n in ("Dan", "Eve", "Fay"):
        send(game, n, "Re: [DoV 2] I have won", "FOR")
    at(game, hours=11)
    assert matter(game, 2)["status"] == "pending"
    at(game, hours=1)
    st = game.state("blog")
    assert matter(game, 2)["status"] == "enacted" and matter(game, 3)["status"] == "failed"
    assert (st["historian"], st["dynasty"], st["ascension_pending"]) == ("Ben", 2, True)
    send(game, "Cat", "[DoV] Again", "")
    assert "Ascension Address" in Outbox.body(reply(game, "Cat"))
    send(game, "Cat", "[Ascension] Pirates", "Wizard: Pirate")
    assert "only the new Historian" in Outbox.body(reply(game, "Cat"))
    send(
        game,
        "Ben",
        "[Ascension] Pirates",
        "Wizard: Pirate\nHistorian: Captain\nKeep: 2.1\nInactive: Dormancy",
    )
    st = game.state("blog")
    assert not st["ascension_pending"] and st["theme"] == "Pirates"
    dynastic = [r for r in st["rules"] if r["number"].startswith("2.")]
    assert [r["title"] for r in dynastic] == ["No Lame Scams"]
    assert (
        "Pirates" in next(r for r in st["rules"] if r["number"] == "1.2")["text"]
        or "Pirate" in next(r for r in st["rules"] if r["number"] == "1.2")["text"]
    )
    assert any(r["title"] == "Dormancy [Inactive]" for r in st["rules"])
    for n in ("Cat", "Dan", "Eve"):
        send(game, n, "[Vote] 1", "FOR")
    assert matter(game, 1)["status"] == "enacted"  # proposals resolve again once the Hiatus ends
    send(game, "Cat", "[CfJ] Was the Ascension legal?", "It was.")
    for n in ("Dan", "Eve", "Fay"):
        send(game, n, "Re: [CfJ 4] Was the Ascension legal?", "AGAINST")
    for n in ("Gus", "Ann"):
        send(game, n, "[Vote] 4", "AGAINST")
    assert (matter(game, 4)["status"], matter(game, 4)["reason"]) == ("failed", "unpopular")
