"""SPEC §2.6: the author of a command gets exactly one reply for it, in every variant, even
when the command closes a vote, ends a turn or starts the game; what it sets off for all
players reaches the author too, as the same mail, and the ack names it. Players write through a real
SMTP session to the listener; the outbox delivers over SMTP to a real aiosmtpd relay, and
what each address received there is counted."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from support.helpers import Clock, make_referee
from support.listener import listening
from support.ops import CountingSink
from support.table import Table, text

pytestmark = pytest.mark.spec("2.6")


@pytest.fixture
def table(request, tmp_path, database_url):
    settings = getattr(request, "param", {})
    referee = make_referee(
        tmp_path, Clock(datetime(2026, 3, 2, 9, 0, tzinfo=UTC)), url=database_url, **settings
    )
    with listening(referee, 10_000_000) as port, CountingSink() as sink:
        yield Table(referee, port, sink, tmp_path)
    referee.store.dispose()


def test_sidekick_a_join_that_starts_the_game_and_a_vote_that_closes_it(table):
    r, g = table.referee, "nomes@ref.example"
    r.create_game("nomes", "sidekick", g, name="Nomes")
    table.reply(table.join("alice@x.org", g, "Name: Alice"), "alice@x.org")
    got = table.join("bob@x.org", g, "Name: Bob")  # the second player: the first turn opens
    assert "[Nomes] Turn order" in text(table.reply(got, "bob@x.org")) and got["alice@x.org"]
    assert "announcement" in table.kinds(got, "bob@x.org")
    table.join("carol@x.org", g, "Name: Carol")
    mover = r.state("nomes")["turn"]["player"].lower()
    others = [n for n in ("alice", "bob", "carol") if n != mover]
    got = table.send(f"{mover}@x.org", g, "[Proposal] Tea", 'Enact rule 301 "Tea":\nTea for all.\n')
    assert "[Proposal 1] Tea" in text(table.reply(got, f"{mover}@x.org"))
    assert table.kinds(got, f"{mover}@x.org") == ["ack", "announcement"]
    table.reply(
        table.send(f"{others[0]}@x.org", g, "Re: [Nomes] [Proposal 1] Tea", "FOR"),
        f"{others[0]}@x.org",
    )
    got = table.send(
        f"{others[1]}@x.org", g, "Re: [Nomes] [Proposal 1] Tea", "FOR"
    )  # closes the vote
    ack = text(table.reply(got, f"{others[1]}@x.org"))
    assert "Vote recorded" in ack and "results" in table.kinds(got, f"{others[1]}@x.org")
    assert "results" in {
        m["X-Mailref-Kind"] for m in got[f"{mover}@x.org"]
    }  # the others still get theirs


def test_eire_the_orders_that_resolve_the_turn_get_one_mail_with_the_map(table):
    r, g = table.referee, "eire@ref.example"
    r.create_game("eire", "eire", g, gm="gm@ref.example", parameters={"start_grain": "30"})
    for name, color, origin in (("Finn", "Green", "Llanc"), ("Maeve", "Red", "Donal")):
        got = table.join(
            f"{name.lower()}@x.org",
            g,
            f"Name: {name}\nColor: {color}\nTribe: Plainsmen\nOrigin: {origin}",
        )
        table.reply(got, f"{name.lower()}@x.org")
    assert r.admin("eire", {"type": "start"}, "gm").ok
    table.deliver()
    table.reply(
        table.send("finn@x.org", g, "[Orders]", "**Invest 5 Grain in Llanc.**"), "finn@x.org"
    )
    got = table.send(
        "maeve@x.org", g, "[Orders]", "**Defend Donal with 3 Grain.**"
    )  # the turn resolves
    body = text(table.reply(got, "maeve@x.org"))
    assert "Defend Donal with 3 Grain" in body and "[Results] Turn 1" in body
    assert "Results of turn 1" not in body  # named, not repeated
    mine = {m["X-Mailref-Kind"]: m for m in got["maeve@x.org"]}
    assert set(mine) == {"ack", "results", "turn"}
    results = mine["results"]
    assert "Results of turn 1" in text(results) and "Maeve (Red): 1 land: Donal" in text(results)
    png = [p for p in results.walk() if p.get_content_type() == "image/png"]
    svg = [p for p in results.walk() if p.get_content_type() == "image/svg+xml"]
    assert (
        len(png) == 1
        and png[0].get_content()[:8] == b"\x89PNG\r\n\x1a\n"
        and svg[0].get_filename() == "eire-turn-1.svg"
    )
    kinds = [m["X-Mailref-Kind"] for m in got["finn@x.org"]]  # the other player: the same
    assert "results" in kinds and any(
        p.get_content_type() == "image/png" for m in got["finn@x.org"] for p in m.walk()
    )


def test_blognomic_the_vote_that_enacts_a_proposal(table):
    r, g = table.referee, "blog@ref.example"
    r.create_game("blog", "blognomic", g, gm="gm@ref.example")
    names = ["ann", "ben", "cat", "dan", "eve"]
    for n in names:
        table.reply(table.join(f"{n}@wiz.example", g, f"Name: {n.title()}"), f"{n}@wiz.example")
    got = table.send(
        "ann@wiz.example",
        g,
        "[Proposal] Gold",
        'Enact a new rule entitled "Gold" with the following text:\nEach Wizard has 3 Gold.\n',
    )
    table.reply(got, "ann@wiz.example")
    r.clock.advance(hours=13)
    table.reply(table.send("ben@wiz.example", g, "[Vote] 1", "FOR"), "ben@wiz.example")
    got = table.send(
        "cat@wiz.example", g, "[Vote] 1", "FOR"
    )  # quorum 3 with the author's FOR: enacted now
    assert r.state("blog")["proposals"][0]["status"] == "enacted"
    table.reply(got, "cat@wiz.example")
    assert "enacted" in "".join(text(m) for m in got["cat@wiz.example"]).lower()
    assert got["dan@wiz.example"]


def test_imperial_the_emperors_judgement(table):
    r, g = table.referee, "empire@ref.example"
    r.create_game("empire", "imperial", g)
    for n in ("joe", "ann", "ben"):
        table.join(f"{n}@rome.example", g, f"Name: {n.title()}")
    for i, n in enumerate(("ann", "ben")):
        table.reply(
            table.send(f"{n}@rome.example", g, "[Point of Order] Hello", f"Senator {i}"),
            f"{n}@rome.example",
        )
    table.reply(
        table.send(
            "ann@rome.example",
            g,
            "[Proposal] Dragons",
            'Enact rule 27 "Dragons":\nDragons exist.\n',
        ),
        "ann@rome.example",
    )
    table.reply(table.send("ben@rome.example", g, "[Vote] 1", "YES"), "ben@rome.example")
    r.clock.advance(days=4, seconds=1)
    r.tick()
    table.deliver()
    got = table.send(
        "joe@rome.example", g, "[Judge] 1", "ACCEPT"
    )  # accepted: the ruleset goes to everybody
    table.reply(got, "joe@rome.example")
    assert "Dragons" in "".join(text(m) for m in got["joe@rome.example"])
    assert got["ann@rome.example"]


def test_orders_game_the_gm_who_plays_gets_the_digest_in_the_ack(table):
    r, g = table.referee, "diplo@ref.example"
    r.create_game("diplo", "orders", g, gm="ann@x.org")
    for n in ("ann", "ben"):
        table.join(f"{n}@x.org", g, f"Name: {n.title()}")
    assert r.admin("diplo", {"type": "start"}, "gm").ok
    table.deliver()
    table.reply(table.send("ben@x.org", g, "[Orders]", "**Army Paris holds.**"), "ben@x.org")
    got = table.send(
        "ann@x.org", g, "[Orders]", "**Fleet Brest holds.**"
    )  # the turn closes: a digest to the GM
    body = text(table.reply(got, "ann@x.org"))
    assert "What the GM was told" in body and "Army Paris holds" in body and "Orders are in" in body
    assert [m["X-Mailref-Kind"] for m in got["ben@x.org"]] == ["announcement"]


@pytest.mark.parametrize("table", [{"replies_per_day": 1}], indirect=True, ids=["one-reply-a-day"])
def test_past_the_reply_allowance_the_author_still_gets_what_the_others_got(table):
    """The ack that would carry the results cannot go (the quota notice goes instead): the
    results reach the author as they reach everybody."""
    r, g = table.referee, "nomes@ref.example"
    r.create_game("nomes", "sidekick", g, name="Nomes")
    for n in ("alice", "bob"):
        table.join(f"{n}@x.org", g, f"Name: {n.title()}")
    r.clock.advance(hours=20)  # a new UTC day: the joins' answers were the last day's
    mover = r.state("nomes")["turn"]["player"].lower()
    other = "bob" if mover == "alice" else "alice"
    table.send(f"{other}@x.org", g, "[Status]")  # their first reply today
    table.send(f"{mover}@x.org", g, "[Proposal] Tea", 'Enact rule 301 "Tea":\nTea for all.\n')
    got = table.send(
        f"{other}@x.org", g, "Re: [Nomes] [Proposal 1] Tea", "FOR"
    )  # their second reply today
    kinds = [m["X-Mailref-Kind"] for m in got[f"{other}@x.org"]]
    assert "error" in kinds and "results" in kinds, kinds
    assert "Vote recorded" not in "".join(text(m) for m in got[f"{other}@x.org"])
