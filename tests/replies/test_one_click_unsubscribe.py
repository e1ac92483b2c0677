"""SPEC §4.3: on announcements `List-Unsubscribe` carries an https URI beside the mailto where
the host serves the one-click endpoint (RFC 8058); a POST of it switches its player to the
daily digest, never out of the game, and a GET, or a link nobody was given, changes nothing.
Players write over real SMTP to the listener; the endpoint is the real aiohttp server of
mailref/web.py, asked over HTTP."""

from __future__ import annotations

import urllib.error
import urllib.request
from datetime import UTC, datetime

import pytest
from sqlalchemy import select

from mailref.config import ConfigError, load
from mailref.store import Game, JournalEntry
from mailref.write.lists import one_click_base
from support.one_click import serving
from support.table import Table, table_at, text

pytestmark = pytest.mark.spec("4.3")

G = "nomes@ref.example"
BASE = "https://games.example.org/"


@pytest.fixture
def table(tmp_path, database_url):
    start = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    with (
        table_at(tmp_path, database_url, start, one_click_url=BASE) as t,
        serving(t.referee) as url,
    ):
        t.web = url
        yield t


def nomes(table: Table) -> tuple[str, str]:
    """Alice, Bob and Carol in a Sidekick game; the mover and another player, by address."""
    table.referee.create_game("nomes", "sidekick", G, name="Nomes")
    for n in ("Alice", "Bob", "Carol"):
        table.join(f"{n.lower()}@x.org", G, f"Name: {n}")
    mover = table.referee.state("nomes")["turn"]["player"].lower()
    return mover, next(n for n in ("alice", "bob", "carol") if n != mover)


def links(table: Table, mover: str, reader: str) -> list[str]:
    """The URIs of List-Unsubscribe on the announcement READER gets of MOVER's proposal."""
    got = table.send(f"{mover}@x.org", G, "[Proposal] Tea", 'Enact rule 301 "Tea":\nTea.\n')
    news = next(m for m in got[f"{reader}@x.org"] if m["X-Mailref-Kind"] == "announcement")
    assert news["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    return [u.strip().strip("<>") for u in news["List-Unsubscribe"].split(",")]


def http(url: str, body: bytes | None = None) -> tuple[int, str]:
    """A GET of URL, or a POST of BODY as a mail program's button sends it (RFC 8058 §3.2)."""
    headers = {"Content-Type": "application/x-www-form-urlencoded"} if body is not None else {}
    request = urllib.request.Request(url, data=body, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def player(table: Table, name: str) -> dict:
    return next(p for p in table.referee.state("nomes")["players"] if p["name"] == name)


def journal(table: Table) -> list[tuple[str, dict]]:
    with table.referee.store() as s:
        gid = s.scalar(select(Game.id).where(Game.slug == "nomes"))
        rows = s.scalars(select(JournalEntry).where(JournalEntry.game_id == gid))
        return [(e.source, e.action) for e in rows]


def test_a_post_of_the_https_link_switches_the_player_to_the_digest(table):
    mover, reader = nomes(table)
    one_click, mailto = links(table, mover, reader)
    assert one_click.startswith(f"{BASE}unsubscribe/nomes.") and mailto.startswith("mailto:")
    local = one_click.replace(BASE, table.web)  # as the site's web server passes it on
    status, answer = http(local, b"List-Unsubscribe=One-Click")
    assert status == 200
    assert (
        answer == f"{reader.title()} now gets one digest a day from nomes, and stays in the game.\n"
    )
    p = player(table, reader.title())
    assert p["status"] == "active" and p["settings"] == {"digest": "daily"}
    source, action = journal(table)[-1]
    assert source == f"web:{reader.title()}" and action["type"] == "settings"
    other = next(n for n in ("alice", "bob", "carol") if n not in (mover, reader))
    got = table.send(f"{other}@x.org", G, "[Away]")
    assert got[f"{mover}@x.org"] and f"{reader}@x.org" not in got  # held for the digest
    table.referee.clock.advance(days=1)
    table.referee.tick()
    (digest,) = table.deliver()[f"{reader}@x.org"]
    assert f"{other.title()} is away." in text(digest)
    assert "You unsubscribed from the single announcements" in text(digest)
    assert '"digest: off"' in text(digest)


def test_a_get_of_the_link_shows_a_button_and_changes_nothing(table):
    mover, reader = nomes(table)
    one_click = links(table, mover, reader)[0].replace(BASE, table.web)
    before = journal(table)
    status, page = http(one_click)
    assert status == 200
    assert '<form method="post">' in page and 'name="List-Unsubscribe" value="One-Click"' in page
    assert f"{reader.title()}: one mail a day" in page and "You stay in the game." in page
    assert journal(table) == before
    assert player(table, reader.title()).get("settings", {}) == {}


def test_a_forged_or_bare_post_changes_nothing(table):
    mover, reader = nomes(table)
    one_click = links(table, mover, reader)[0].replace(BASE, table.web)
    before = journal(table)
    mac = one_click.rpartition(".")[2]
    forged = [
        one_click[:-4] + ("AAAA" if not one_click.endswith("AAAA") else "BBBB"),  # a guessed MAC
        one_click.replace("/nomes.", "/other."),  # another game's name, the same MAC
        f"{table.web}unsubscribe/{mac}",  # the MAC alone
        f"{table.web}unsubscribe/nomes.%C3%A9",  # not even base64
    ]
    for url in forged:
        status, answer = http(url, b"List-Unsubscribe=One-Click")
        assert status == 404, url
        assert "belongs to nobody" in answer
    assert http(one_click, b"")[0] == 400  # not the RFC 8058 body
    assert journal(table) == before
    assert player(table, reader.title()).get("settings", {}) == {}


def test_without_the_endpoint_the_header_is_the_mailto_alone(tmp_path, database_url):
    with table_at(tmp_path, database_url, datetime(2026, 3, 2, 9, 0, tzinfo=UTC)) as t:
        mover, reader = nomes(t)
        (mailto,) = links(t, mover, reader)
        assert mailto == f"mailto:{G}?subject=%5BSettings%5D%20digest"


def test_the_https_link_needs_web_listen_and_an_https_base_url(tmp_path):
    f = tmp_path / "mailref.toml"
    f.write_text(
        '[site]\nbase_url = "https://games.example.org"\n[web]\nlisten = "127.0.0.1:8087"\n'
    )
    cfg = load(f)
    assert cfg.web_listen == "127.0.0.1:8087"
    assert one_click_base(cfg.site.base_url, cfg.web_listen) == BASE
    assert one_click_base(cfg.site.base_url, "") == ""  # no [web]: the mailto alone
    assert one_click_base("http://games.example.org/", cfg.web_listen) == ""  # RFC 8058: https
    f.write_text('[web]\nlisten = "8087"\n')
    with pytest.raises(ConfigError, match=r"\[web\] listen: '8087' is no host:port"):
        load(f)
