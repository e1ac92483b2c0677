"""SPEC §2.3: a Reply to the players' words is relayed as its author's new words only, never
the mail it quotes (nor the author's own acks and their footers quoted in it), and it threads
for every reader: each copy answers the copy of the parent that reader got, and the parent's
author's copy answers the mail they sent. Players write through a real SMTP session."""

from __future__ import annotations

import re
import smtplib
from datetime import UTC, datetime

import pytest

from support.helpers import Clock, mail, make_referee
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
        t = Table(referee, port, sink, tmp_path)
        referee.create_game("nomes", "sidekick", G, name="Nomes")
        for n in ("Alice", "Bob", "Carol"):
            t.join(f"{n.lower()}@x.org", G, f"Name: {n}")
        yield t
    referee.store.dispose()


def answer(table: Table, frm: str, subject: str, body: str, parent: str, mid: str) -> dict:
    """FRM's Reply to the mail whose Message-ID is PARENT, as a mail program writes it."""
    before = len(table.sink.mails)
    raw = mail(frm, G, subject, body, in_reply_to=parent, message_id=mid)
    with smtplib.SMTP("127.0.0.1", table.port) as c:
        c.sendmail(frm, [G], raw)
    return table.deliver(before)


def quoted(msg) -> str:
    return "\n".join("> " + ln for ln in text(msg).splitlines())


def test_a_reply_to_relayed_words_carries_only_the_new_words(table):
    got = answer(table, "alice@x.org", "Tea tonight?", "Who brings the cake?", "", "<a1@x.org>")
    (bobs,) = got["bob@x.org"]
    body = f"I will bring it.\n\nOn Mon, 2 Mar 2026, Alice via Nomes wrote:\n{quoted(bobs)}\n"
    got = answer(
        table, "bob@x.org", "Re: [Nomes] Tea tonight?", body, bobs["Message-ID"], "<b1@x.org>"
    )
    for who in ("alice@x.org", "carol@x.org"):
        (copy,) = got[who]
        said = text(copy)
        assert said.startswith("I will bring it.")
        assert "Who brings the cake?" not in said and "wrote:" not in said
        assert said.count("relayed by its referee") == 1  # its own footer, not the quoted one


def test_a_quoted_private_ack_and_its_footer_are_never_relayed(table):
    r = table.referee
    mover = r.state("nomes")["turn"]["player"].lower()
    table.send(f"{mover}@x.org", G, "[Proposal] Tea", 'Enact rule 301 "Tea":\nTea.\n')
    voter, third = [n for n in ("alice", "bob", "carol") if n != mover]
    got = table.send(f"{voter}@x.org", G, "Re: [Nomes] [Proposal 1] Tea", "FOR")
    ack = table.reply(got, f"{voter}@x.org")
    body = f"Lovely idea, by the way.\n\nOn Mon, 2 Mar 2026, Nomes wrote:\n{quoted(ack)}\n"
    got = answer(
        table, f"{voter}@x.org", "Re: [Nomes] [Proposal 1] Tea", body, ack["Message-ID"], "<v@x>"
    )
    (copy,) = got[f"{third}@x.org"]
    assert copy["X-Mailref-Kind"] == "discussion"
    said = re.split(r"\n-- ?\r?\n", text(copy))[0]
    assert said.strip() == "Lovely idea, by the way."
    for line in text(ack).splitlines():
        if len(line.strip()) > 12:
            assert line.strip() not in text(copy), line  # nothing of the ack, footer included


def test_relayed_replies_thread_under_each_readers_own_copy(table):
    got = answer(table, "alice@x.org", "Tea tonight?", "Who brings the cake?", "", "<a1@x.org>")
    first = {who: m for who, (m,) in got.items()}
    assert set(first) == {"bob@x.org", "carol@x.org"}
    assert first["bob@x.org"]["Message-ID"] != first["carol@x.org"]["Message-ID"]
    got = answer(
        table,
        "bob@x.org",
        "Re: [Nomes] Tea tonight?",
        "I will.",
        first["bob@x.org"]["Message-ID"],
        "<b1@x.org>",
    )
    (carols,) = got["carol@x.org"]
    assert carols["In-Reply-To"] == first["carol@x.org"]["Message-ID"]
    assert first["carol@x.org"]["Message-ID"] in carols["References"]
    assert first["bob@x.org"]["Message-ID"] not in str(carols["References"])
    (alices,) = got["alice@x.org"]
    assert alices["In-Reply-To"] == "<a1@x.org>"  # she got no copy: the mail she sent
    # Carol answers Bob's words: Alice's copy answers Alice's copy of them, Bob's his own mail.
    got = answer(
        table, "carol@x.org", "Re: [Nomes] Tea tonight?", "Thanks!", carols["Message-ID"], "<c@x>"
    )
    (alices2,) = got["alice@x.org"]
    assert alices2["In-Reply-To"] == alices["Message-ID"]
    assert got["bob@x.org"][0]["In-Reply-To"] == "<b1@x.org>"


def test_a_reply_naming_another_readers_copy_threads_under_the_subject(table):
    got = answer(table, "alice@x.org", "Tea tonight?", "Who brings the cake?", "", "<a1@x.org>")
    carols_copy = got["carol@x.org"][0]["Message-ID"]
    got = answer(table, "bob@x.org", "Re: [Nomes] Tea tonight?", "Me.", carols_copy, "<b2@x>")
    for who in ("alice@x.org", "carol@x.org"):
        (copy,) = got[who]
        assert copy["In-Reply-To"] != carols_copy  # Bob's naming it follows nothing
        assert carols_copy not in str(copy["References"])
