"""One tap to act: an announcement carries mailto links (RFC 6068) that pre-fill the command,
the matter riding in the subject (mail programs drop In-Reply-To from a mailto link): one per
vote word, the orders of a turn, a Reply to the GM alone; a digest item has its own link. Each
link is opened as a mail program opens it (the URL parsed, a mail built from its subject and
body) and sent through the listener, and the referee reads it as the command it stands for."""

from __future__ import annotations

import re
import smtplib
from datetime import UTC, datetime
from urllib.parse import unquote, urlsplit

import pytest

from support.helpers import Outbox, mail
from support.table import Table, table_at, text

pytestmark = pytest.mark.spec("2.6")

G = "nomes@ref.example"
GM = "gm@ref.example"
_LINK = re.compile(r"<(mailto:[^<>\s]+)>")


@pytest.fixture
def table(tmp_path, database_url):
    with table_at(tmp_path, database_url, datetime(2026, 3, 2, 9, 0, tzinfo=UTC)) as t:
        yield t


def nomes(table: Table) -> tuple[str, str]:
    """Alice, Bob and Carol in a Sidekick game with a GM; (the mover, a voter)."""
    table.referee.create_game("nomes", "sidekick", G, name="Nomes", gm=GM)
    for n in ("Alice", "Bob", "Carol"):
        table.join(f"{n.lower()}@x.org", G, f"Name: {n}")
    mover = table.referee.state("nomes")["turn"]["player"].lower()
    return mover, next(n for n in ("alice", "bob", "carol") if n != mover)


def links(msg) -> dict[str, str]:
    """The mailto links of MSG's plain text, by the words before each on its line."""
    return links_in(text(msg))


def links_in(body: str) -> dict[str, str]:
    out = {}
    for line in body.splitlines():
        if m := _LINK.search(line):
            out[line[: m.start()].strip().rstrip(":")] = m.group(1)
    return out


def opened(url: str) -> tuple[str, str, str]:
    """(to, subject, body) as a mail program fills them in from a mailto URL (RFC 6068)."""
    parts = urlsplit(url)
    assert parts.scheme == "mailto"
    fields = dict(kv.split("=", 1) for kv in parts.query.split("&"))
    assert set(fields) <= {"subject", "body"}
    return unquote(parts.path), unquote(fields["subject"]), unquote(fields.get("body", ""))


def tap(table: Table, frm: str, url: str, typed: str = "") -> dict:
    """FRM opens URL, types TYPED under what it filled in, and sends the mail."""
    to, subject, body = opened(url)
    before = len(table.sink.mails)
    with smtplib.SMTP("127.0.0.1", table.port) as c:
        c.sendmail(frm, [to], mail(frm, to, subject, (body + "\n" + typed).strip() + "\n"))
    return table.deliver(before)


def announcement(got: dict, who: str):
    (news,) = [m for m in got[who] if m["X-Mailref-Kind"] == "announcement"]
    return news


def test_each_vote_link_is_read_as_that_vote(table):
    mover, voter = nomes(table)
    got = table.send(f"{mover}@x.org", G, "[Proposal] Tea", 'Enact rule 301 "Tea":\nTea.\n')
    found = links(announcement(got, f"{voter}@x.org"))
    assert {"FOR", "AGAINST", "ABSTAIN"} <= set(found)
    for word in ("FOR", "AGAINST", "ABSTAIN"):
        assert opened(found[word]) == (G, "[Vote] 1", word)
        ack = table.reply(tap(table, f"{voter}@x.org", found[word]), f"{voter}@x.org")
        assert f"Vote recorded: proposal 1 — {word}" in text(ack)
        votes = table.referee.state("nomes")["proposals"][0]["votes"]
        assert votes[voter.title()] == word


def test_the_links_are_percent_encoded_and_stand_alone_on_their_lines(table):
    mover, voter = nomes(table)
    got = table.send(f"{mover}@x.org", G, "[Proposal] Tea", 'Enact rule 301 "Tea":\nTea.\n')
    body = text(announcement(got, f"{voter}@x.org"))
    assert "<mailto:nomes@ref.example?subject=%5BVote%5D%201&body=FOR>" in body
    for url in _LINK.findall(body):
        assert not re.search(r"[\s\[\]\"<>]", url)  # nothing a phone would end the link at
    signature = re.search(r"\n-- ?\r?\n", body).start()
    votes = [u for k, u in links_in(body).items() if k in ("FOR", "AGAINST", "ABSTAIN")]
    assert len(votes) == 3 and all(body.index(u) < signature for u in votes)  # above the footer


def test_the_gm_link_writes_to_the_gm_alone_about_the_matter(table):
    mover, voter = nomes(table)
    got = table.send(f"{mover}@x.org", G, "[Proposal] Tea", 'Enact rule 301 "Tea":\nTea.\n')
    found = links(announcement(got, f"{voter}@x.org"))
    assert opened(found["Reply privately to the GM"]) == (GM, "Re: [Nomes] [Proposal 1] Tea", "")


def test_a_digest_item_has_its_own_link_that_answers_its_matter(table):
    mover, reader = nomes(table)
    table.one(table.send(f"{reader}@x.org", G, "[Settings]", "digest: daily"), f"{reader}@x.org")
    table.send(f"{mover}@x.org", G, "[Proposal] Tea", 'Enact rule 301 "Tea":\nTea.\n')
    table.referee.clock.advance(hours=23, minutes=1)
    table.referee.tick()
    (digest,) = table.deliver()[f"{reader}@x.org"]
    (url,) = [u for k, u in links(digest).items() if k.startswith("One tap to reply to it")]
    assert opened(url) == (G, "Re: [Nomes] [Proposal 1] Tea", "")
    ack = table.reply(tap(table, f"{reader}@x.org", url, typed="AGAINST"), f"{reader}@x.org")
    assert "Vote recorded: proposal 1 — AGAINST" in text(ack)


def test_the_orders_link_of_a_turn_is_read_as_that_turns_orders(table):
    r, g = table.referee, "eire@ref.example"
    r.create_game("eire", "eire", g, gm=GM, parameters={"start_grain": "30"})
    for name, color, origin in (("Finn", "Green", "Llanc"), ("Maeve", "Red", "Donal")):
        table.join(
            f"{name.lower()}@x.org",
            g,
            f"Name: {name}\nColor: {color}\nTribe: Plainsmen\nOrigin: {origin}",
        )
    assert r.admin("eire", {"type": "start"}, "gm").ok
    got = table.deliver(0)
    (turn,) = [m for m in got["finn@x.org"] if m["X-Mailref-Kind"] == "turn"]
    found = links(turn)
    url = found["Orders for turn 1"]
    assert opened(url) == (g, "[Orders] Turn 1", "")
    ack = table.reply(
        tap(table, "finn@x.org", url, typed="**Invest 5 Grain in Llanc.**"), "finn@x.org"
    )
    assert "Invest 5 Grain in Llanc" in text(ack)
    assert opened(found["Reply privately to the GM"])[0] == GM


def test_a_cfjs_announcement_has_a_link_per_vote_word_it_offers(blognomic_game):
    from support.blognomic import addr, matter, send

    game = blognomic_game
    send(game, "Ann", "[CfJ] Is Gold legal?", "Please judge.")
    (news,) = [
        m
        for m in Outbox(game).all()
        if m["To"] == addr("Ben") and m["Subject"].endswith("[CfJ 1] Is Gold legal?")
    ]
    found = links_in(Outbox.body(news))
    assert {w for w in found if w.isupper()} == {"FOR", "AGAINST", "DEFERENTIAL"}
    to, subject, body = opened(found["DEFERENTIAL"])
    assert (to, subject, body) == ("blog@ref.example", "[Vote] 1", "DEFERENTIAL")
    send(game, "Ben", subject, body)
    assert matter(game, 1)["votes"]["Ben"] == "DEFERENTIAL"


def test_a_link_encodes_line_breaks_non_ascii_and_reserved_characters_per_rfc_6068():
    from mailref.write.taps import mailto

    url = mailto("spiel@ref.example", "[Orders] Turn 3 & more?", "**Zoë attacks.**\nDone=yes")
    assert url == (
        "mailto:spiel@ref.example?subject=%5BOrders%5D%20Turn%203%20%26%20more%3F"
        "&body=%2A%2AZo%C3%AB%20attacks.%2A%2A%0D%0ADone%3Dyes"
    )
    assert opened(url) == (
        "spiel@ref.example",
        "[Orders] Turn 3 & more?",
        "**Zoë attacks.**\r\nDone=yes",
    )
