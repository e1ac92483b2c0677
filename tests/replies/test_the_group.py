"""SPEC §2.3, §2.6, §4.3: a game is its players' email group. Announcements reach every
player, the author of the mail that set them off included; a player's words without a command
reach the other players from "NAME via GAME"; a game's mail carries the list headers, and an
announcement's unsubscribe mailto switches its player to the daily digest. Players write
through a real SMTP session to the listener; the outbox delivers over SMTP to a real relay."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from mailref.store import InboxMessage
from support.helpers import Clock, make_referee
from support.listener import listening
from support.ops import CountingSink
from support.table import Table, text

pytestmark = pytest.mark.spec("2.3")


@pytest.fixture
def table(request, tmp_path, database_url):
    settings = getattr(request, "param", {})
    referee = make_referee(
        tmp_path, Clock(datetime(2026, 3, 2, 9, 0, tzinfo=UTC)), url=database_url, **settings
    )
    with listening(referee, 10_000_000) as port, CountingSink() as sink:
        yield Table(referee, port, sink, tmp_path)
    referee.store.dispose()


def nomes(table: Table) -> str:
    """Alice, Bob and Carol in a Sidekick game; the mover's name."""
    r, g = table.referee, "nomes@ref.example"
    r.create_game("nomes", "sidekick", g, name="Nomes")
    for n in ("Alice", "Bob", "Carol"):
        table.join(f"{n.lower()}@x.org", g, f"Name: {n}")
    return r.state("nomes")["turn"]["player"].lower()


def test_the_mover_gets_the_proposal_announcement_the_others_get(table):
    mover = nomes(table)
    got = table.send(
        f"{mover}@x.org", "nomes@ref.example", "[Proposal] Tea", 'Enact rule 301 "Tea":\nTea.\n'
    )
    kinds = sorted(m["X-Mailref-Kind"] for m in got[f"{mover}@x.org"])
    assert kinds == ["ack", "announcement"]
    ack = next(m for m in got[f"{mover}@x.org"] if m["X-Mailref-Kind"] == "ack")
    news = next(m for m in got[f"{mover}@x.org"] if m["X-Mailref-Kind"] == "announcement")
    assert news["Subject"] == "[Nomes] [Proposal 1] Tea"
    body = text(ack)
    assert 'This set off "[Nomes] [Proposal 1] Tea", sent to all players, you included.' in body
    assert "Tea." not in body.split("This set off")[1]  # said, not repeated
    other = next(n for n in ("alice", "bob", "carol") if n != mover)
    theirs = next(m for m in got[f"{other}@x.org"] if m["X-Mailref-Kind"] == "announcement")
    assert text(theirs) == text(news)
    # The announcement carries the list headers; the ack List-Id only.
    assert news["List-Id"] == "Nomes <nomes.ref.example>" == ack["List-Id"]
    assert news["List-Unsubscribe"] == (
        "<mailto:nomes@ref.example?subject=%5BSettings%5D%20digest>"
    )
    assert news["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert ack["List-Unsubscribe"] is None


def test_words_without_a_command_reach_the_others_from_the_player_via_the_game(table):
    nomes(table)
    got = table.send("alice@x.org", "nomes@ref.example", "Tea tonight?", "Who brings the cake?")
    assert "alice@x.org" not in got  # no copy back, no answer
    for who in ("bob@x.org", "carol@x.org"):
        (m,) = got[who]
        assert m["X-Mailref-Kind"] == "discussion"
        assert m["From"] == "Alice via Nomes <nomes@ref.example>"
        assert m["Reply-To"] == "nomes@ref.example"
        assert m["List-Id"] == "Nomes <nomes.ref.example>"
        assert m["Subject"] == "[Nomes] Tea tonight?"
        assert "Who brings the cake?" in text(m)
        assert "A Reply reaches all players" in text(m)


def test_a_ballot_is_never_relayed(table):
    mover = nomes(table)
    g = "nomes@ref.example"
    table.send(f"{mover}@x.org", g, "[Proposal] Tea", 'Enact rule 301 "Tea":\nTea.\n')
    other = next(n for n in ("alice", "bob", "carol") if n != mover)
    got = table.send(f"{other}@x.org", g, "Re: [Nomes] [Proposal 1] Tea", "FOR")
    assert [m["X-Mailref-Kind"] for ms in got.values() for m in ms] == ["ack"]
    assert "discussion" not in {m["X-Mailref-Kind"] for ms in got.values() for m in ms}


def test_a_strangers_words_are_not_relayed(table):
    nomes(table)
    got = table.send("eve@y.org", "nomes@ref.example", "Hello all", "Buy my tea.")
    assert not any(m["X-Mailref-Kind"] == "discussion" for ms in got.values() for m in ms)
    assert set(got) <= {"eve@y.org"}


def test_a_game_with_discussion_off_relays_nothing(table):
    r, g = table.referee, "quiet@ref.example"
    r.create_game("quiet", "sidekick", g, name="Quiet", parameters={"discussion": "off"})
    for n in ("Alice", "Bob"):
        table.join(f"{n.lower()}@x.org", g, f"Name: {n}")
    got = table.send("alice@x.org", g, "Tea tonight?", "Who brings the cake?")
    assert "bob@x.org" not in got and [m["X-Mailref-Kind"] for m in got["alice@x.org"]] == ["help"]


def test_the_footer_says_a_reply_reaches_all_players_and_names_the_gm(table):
    r, g = table.referee, "nomes@ref.example"
    r.create_game("nomes", "sidekick", g, name="Nomes", gm="gm@ref.example")
    got = table.join("alice@x.org", g, "Name: Alice")
    body = text(got["alice@x.org"][0])
    assert (
        "A reply without a command reaches all players; words for the GM alone: gm@ref.example"
        in body
    )


def test_the_gms_own_mail_does_not_point_the_gm_at_the_gms_address(table):
    """The GM's answers ended "words for the GM alone: " and the GM's own address."""
    r, g = table.referee, "nomes@ref.example"
    r.create_game("nomes", "sidekick", g, name="Nomes", gm="gm@ref.example")
    table.join("alice@x.org", g, "Name: Alice")
    got = table.send("gm@ref.example", g, "[Help]")
    (answer,) = got["gm@ref.example"]
    assert "words for the GM alone" not in text(answer)


def test_the_last_eire_orderer_gets_the_results_mail_with_the_map(table):
    r, g = table.referee, "eire@ref.example"
    r.create_game("eire", "eire", g, gm="gm@ref.example", parameters={"start_grain": "30"})
    for name, color, origin in (("Finn", "Green", "Llanc"), ("Maeve", "Red", "Donal")):
        table.join(
            f"{name.lower()}@x.org",
            g,
            f"Name: {name}\nColor: {color}\nTribe: Plainsmen\nOrigin: {origin}",
        )
    assert r.admin("eire", {"type": "start"}, "gm").ok
    table.deliver()
    table.send("finn@x.org", g, "[Orders]", "**Invest 5 Grain in Llanc.**")
    got = table.send("maeve@x.org", g, "[Orders]", "**Defend Donal with 3 Grain.**")
    mine = {m["X-Mailref-Kind"]: m for m in got["maeve@x.org"]}
    assert set(mine) == {"ack", "results", "turn"}
    results = mine["results"]
    assert results["Subject"].endswith("[Results] Turn 1")
    assert "Maeve (Red): 1 land: Donal" in text(results)
    assert any(p.get_content_type() == "image/png" for p in results.walk())
    ack = text(mine["ack"])
    assert "Defend Donal with 3 Grain" in ack and "[Results] Turn 1" in ack
    assert "Results of turn 1" not in ack  # named, not repeated
    theirs = next(m for m in got["finn@x.org"] if m["X-Mailref-Kind"] == "results")
    assert text(theirs) == text(results)


def test_a_reply_of_prose_in_a_proposals_thread_is_discussion(table):
    """A Reply discussing a proposal was answered "Not done: No vote found" every time. With
    no line that looks like a ballot it is the players talking: relayed, and not answered."""
    mover = nomes(table)
    g = "nomes@ref.example"
    news = table.send(f"{mover}@x.org", g, "[Proposal] Tea", 'Enact rule 301 "Tea":\nTea.\n')
    other, third = [n for n in ("alice", "bob", "carol") if n != mover]
    got = table.send(f"{other}@x.org", g, "Re: [Nomes] [Proposal 1] Tea", "Lovely idea, Alice.")
    assert f"{other}@x.org" not in got
    with table.referee.store() as s:
        row = s.query(InboxMessage).order_by(InboxMessage.id.desc()).first()
        assert row.verdict == "discussion: relayed to 2 players"
    for who in (mover, third):
        (m,) = got[f"{who}@x.org"]
        assert m["X-Mailref-Kind"] == "discussion" and "Lovely idea, Alice." in text(m)
        assert m["From"] == f"{other.title()} via Nomes <nomes@ref.example>"
        # It answers that reader's own copy of the proposal: the thread is kept.
        (ann,) = [a for a in news[f"{who}@x.org"] if a["X-Mailref-Kind"] == "announcement"]
        assert m["In-Reply-To"] == ann["Message-ID"]
    assert other.title() not in table.referee.state("nomes")["proposals"][0]["votes"]


def test_a_reply_with_a_vote_word_in_prose_is_relayed_and_its_sender_told_both(table):
    mover = nomes(table)
    g = "nomes@ref.example"
    table.send(f"{mover}@x.org", g, "[Proposal] Tea", 'Enact rule 301 "Tea":\nTea.\n')
    other, third = [n for n in ("alice", "bob", "carol") if n != mover]
    got = table.send(f"{other}@x.org", g, "Re: [Nomes] [Proposal 1] Tea", "For what it's worth…")
    (err,) = got[f"{other}@x.org"]
    said = " ".join(text(err).split())
    assert err["X-Mailref-Kind"] == "error" and "No vote found for proposal 1" in said
    assert "Your words went to the other players as discussion." in said
    assert [m["X-Mailref-Kind"] for m in got[f"{third}@x.org"]] == ["discussion"]


def test_a_vote_in_capitals_then_a_comma_and_why_is_a_ballot(table):
    """`FOR, biscuits are great` was refused as prose, and still relayed."""
    mover = nomes(table)
    g = "nomes@ref.example"
    table.send(f"{mover}@x.org", g, "[Proposal] Tea", 'Enact rule 301 "Tea":\nTea.\n')
    other, third = [n for n in ("alice", "bob", "carol") if n != mover]
    got = table.send(f"{other}@x.org", g, "Re: [Nomes] [Proposal 1] Tea", "FOR, biscuits are great")
    assert table.referee.state("nomes")["proposals"][0]["votes"][other.title()] == "FOR"
    assert "discussion" not in [m["X-Mailref-Kind"] for m in got.get(f"{third}@x.org", [])]


@pytest.mark.parametrize("table", [{"replies_per_day": 2}], indirect=True, ids=["two-a-day"])
def test_a_players_words_are_relayed_within_the_days_allowance(table):
    nomes(table)
    got = [
        table.send("alice@x.org", "nomes@ref.example", f"Note {i}", f"Thought {i}.")
        for i in range(3)
    ]
    assert [len(g.get("bob@x.org", [])) for g in got] == [1, 1, 0]
    with table.referee.store() as s:
        verdicts = [r.verdict for r in s.query(InboxMessage).order_by(InboxMessage.id)][-3:]
    assert verdicts[-1] == "discussion: over the day's allowance, not relayed"
