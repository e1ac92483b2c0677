"""Findings of the play-test (session 4), played again by mail: players write through a real
SMTP session to the listener, the outbox delivers over SMTP to a real aiosmtpd relay, and
what each address received there is read as a mail client would."""

from __future__ import annotations

import re
import smtplib
from datetime import UTC, datetime

import pytest
from listener import listening
from ops import CountingSink
from test_one_mail import Table, text

from helpers import Clock, mail, make_referee

NOMES, EIRE = "nomes@ref.example", "eire@ref.example"
ENCODED_WORD = re.compile(rb"=\?[^?]+\?[bBqQ]\?[^?]*\?=")


class Players(Table):
    def write(self, frm: str, to: str, subject: str, body: str = "", **kw) -> dict[str, list]:
        """FRM's mail as their client builds it (display name, HTML, In-Reply-To)."""
        before = len(self.sink.mails)
        with smtplib.SMTP("127.0.0.1", self.port) as c:
            c.sendmail(frm, [to], mail(frm, to, subject, body, **kw))
        return self.deliver(before)

    def raw_since(self, before: int) -> list[bytes]:
        return [raw for _, raw in self.sink.mails[before:]]


@pytest.fixture
def table(tmp_path, database_url):
    referee = make_referee(tmp_path, Clock(datetime(2026, 3, 2, 9, 0, tzinfo=UTC)), url=database_url)
    with listening(referee, 10_000_000) as port, CountingSink() as sink:
        yield Players(referee, port, sink, tmp_path)
    referee.store.dispose()


def nomes(table: Players, *names: str) -> None:
    table.referee.create_game("nomes", "sidekick", NOMES, name="Nomes", gm="gm@ref.example")
    for n in names:  # Bob Brown writes from bob@x.org
        table.one(table.send(f"{n.split()[0].lower()}@x.org", NOMES, "[Join]", f"Name: {n}"), f"{n.split()[0].lower()}@x.org")


def test_the_judge_gets_one_mail_for_a_call_for_judgement(table):
    """Item 12: the judge's mail says what the announcement says; the judge gets that one."""
    nomes(table, "Alice", "Bob", "Carol")
    state = table.referee.state("nomes")
    order, mover = state["order"], state["turn"]["player"]
    judge = order[(order.index(mover) - 1) % 3]
    asker, third = [p for p in order if p != judge]
    got = table.send(f"{asker.lower()}@x.org", NOMES, "[CfJ] Is rule 5 being followed?", "Details here.")
    table.one(got, f"{asker.lower()}@x.org")
    mine = table.one(got, f"{judge.lower()}@x.org", kind="judge")
    body = " ".join(text(mine).split())
    assert "Is rule 5 being followed?" in body and "Details here." in body and "[Ruling] 1" in body
    assert "The other players were told" in body
    told = table.one(got, f"{third.lower()}@x.org", kind="announcement")
    assert f"The judge is {judge}" in text(told)
    # The judge's plain Reply to that one mail is the ruling.
    got = table.write(f"{judge.lower()}@x.org", NOMES, "Re: " + str(mine["Subject"]), "It is being followed.",
                      in_reply_to=mine["Message-ID"])
    assert "Your ruling on judgement 1 is recorded" in text(table.one(got, f"{judge.lower()}@x.org"))


def test_names_as_people_write_them_and_what_a_name_may_hold(table):
    """Item 17: a typographic apostrophe and a directory's "Last, First" are names; a name
    refused is answered with exactly what a name may hold."""
    nomes(table)
    table.one(table.send("sean@x.org", NOMES, "[Join]", "Name: Seán D\u2019Arcy"), "sean@x.org")
    table.one(table.write("cc@corp.example", NOMES, "[Join]", "Hi!", name="Chen, Carla"), "cc@corp.example")
    names = [p["name"] for p in table.referee.state("nomes")["players"]]
    assert names == ["Seán D'Arcy", "Carla Chen"]
    err = table.one(table.send("zed@x.org", NOMES, "[Join]", "Name: <Zed>"), "zed@x.org", kind="error")
    body = " ".join(text(err).split())
    assert "at most 40 characters, of letters, digits, spaces and . ' - _, starting with a letter, digit or _" in body


def test_a_player_writing_from_a_second_address_is_not_told_to_join(table):
    """Item 18: Bob votes from his work address: use the registered one, or ask the GM."""
    nomes(table, "Alice", "Bob Brown")
    got = table.write("bob@work.example", NOMES, "[Status]", "", name="Bob Brown")
    body = " ".join(text(table.one(got, "bob@work.example", kind="error")).split())
    assert "write from the address you play from, or ask the GM (gm@ref.example) to add this one" in body
    assert "[Join]" not in body


def test_a_non_ascii_proposal_title_is_folded_in_encoded_words_of_75_characters(table):
    """Item 20: RFC 2047 §2 — no encoded word longer than 75 characters, whatever the title."""
    nomes(table, "Alice", "Bob")
    mover = table.referee.state("nomes")["turn"]["player"]
    title = "Céilí bonus: féile na nÓg agus ceol le haghaidh gach imreoir atá ag imirt — Ó Briain"
    before = len(table.sink.mails)
    got = table.send(f"{mover.lower()}@x.org", NOMES, f"[Proposal] {title}", 'Enact rule 301 "Céilí":\nCéilí.\n')
    assert title in str(table.one(got, f"{mover.lower()}@x.org")["Subject"])
    raws = table.raw_since(before)
    assert len(raws) == 2  # the ack, and the proposal to the other player
    for raw in raws:
        head = raw.split(b"\r\n\r\n")[0]
        words = ENCODED_WORD.findall(head)
        assert words and max(len(w) for w in words) <= 75, max(words, key=len)
        assert max(len(line) for line in head.split(b"\r\n")) <= 78


def test_html_paragraphs_of_a_proposal_keep_their_blank_line(table):
    """Item 20: two <p> paragraphs are two paragraphs of the rule, as the author saw them."""
    nomes(table, "Alice", "Bob")
    mover = table.referee.state("nomes")["turn"]["player"]
    html = ('<html><body><p>Enact rule 301 "Tea":</p><p>Tea is served at four.</p>'
            "<p>Nobody may refuse a second cup.</p></body></html>")
    table.write(f"{mover.lower()}@x.org", NOMES, "[Proposal] Tea", "", html=html)
    prop = table.referee.state("nomes")["proposals"][0]
    assert prop["changes"][0]["text"] == "Tea is served at four.\n\nNobody may refuse a second cup."


def eire(table: Players) -> None:
    table.referee.create_game("eire", "eire", EIRE, name="Eire Autumn", gm="gm@ref.example",
                              parameters={"start_grain": "30"})


def test_an_eire_join_reads_colour_and_says_what_is_wrong_with_a_choice(table):
    """Item 20: `Colour:` is read; a color the game lacks, a taken one and a missing origin are
    each answered as what they are, with a free color in the hint."""
    eire(table)
    got = table.send("finn@x.org", EIRE, "[Join]", "Name: Finn\nColour: Gold\nTribe: Plainsmen\nOrigin: Llanc")
    table.one(got, "finn@x.org")
    assert table.referee.state("eire")["players"][0]["color"] == "Gold"
    cases = [("Colour: Blue\nTribe: Plainsmen\nOrigin: Donal", "Blue is not a color of this game; the free colors: Red, Green"),
             ("Color: Gold\nTribe: Plainsmen\nOrigin: Donal", "Gold is taken; the free colors: Red, Green"),
             ("Color: Red\nTribe: Plainsmen", "choose an Origin Land (you gave none); free for Plainsmen:")]
    for body, want in cases:
        err = table.one(table.send("maeve@x.org", EIRE, "[Join]", f"Name: Maeve\n{body}"), "maeve@x.org", kind="error")
        said = " ".join(text(err).split())
        assert want in said, said
        assert "Gold, Green" not in said and "`Color: Gold`" not in said  # a free one is offered, never a taken one


def test_eire_orders_one_per_line_and_results_when_nobody_ordered(table):
    """Item 20: two orders in one sentence are told to go one a line; a turn resolved with
    no orders at all says so under "Orders:"."""
    eire(table)
    for name, color, origin in (("Finn", "Green", "Llanc"), ("Maeve", "Red", "Donal")):
        table.send(f"{name.lower()}@x.org", EIRE, "[Join]", f"Name: {name}\nColor: {color}\nTribe: Plainsmen\nOrigin: {origin}")
    assert table.referee.admin("eire", {"type": "start"}, "gm").ok
    table.deliver()
    got = table.send("finn@x.org", EIRE, "[Orders]", "**Attack Bain with 10 Grain and Tara with 5 Grain**\n"
                                                       "**Atack Bain with 6 Grain**\n**Attack Bain with ten Grain**")
    said = " ".join(text(table.one(got, "finn@x.org")).split())  # an ack marking each refused order
    assert "one order per line" in said and "did you mean Attack?" in said and "10 Grain, not ten Grain" in said
    table.referee.clock.advance(days=2, seconds=1)  # turn_length 2d
    table.referee.tick()
    got = table.deliver()
    results = next(m for m in got["finn@x.org"] if m["X-Mailref-Kind"] == "results")
    body = text(results).replace("\r\n", "\n")
    # Nobody's orders stood; whose were all refused is said (session 6), not what they were.
    assert "Orders:\n  Finn: no valid orders (3 refused)\n  Maeve: no orders\n" in body and "Late" not in body


def test_the_emperor_gets_one_mail_for_a_proposal_passed_to_him(table):
    """As item 12 for the Emperor: the mail asking for his judgement carries the vote's result;
    the other players get the result."""
    r, g = table.referee, "empire@ref.example"
    r.create_game("empire", "imperial", g, name="Empire")
    for n in ("joe", "ann", "ben"):
        table.send(f"{n}@rome.example", g, "[Join]", f"Name: {n.title()}")
    assert [p["name"] for p in r.state("empire")["players"] if "emperor" in p["offices"]] == ["Joe"]
    for i, n in enumerate(("ann", "ben")):
        table.send(f"{n}@rome.example", g, "[Point of Order] Hello", f"Senator {i}")
    table.send("ann@rome.example", g, "[Proposal] Dragons", 'Enact rule 27 "Dragons":\nDragons exist.\n')
    table.send("ben@rome.example", g, "[Vote] 1", "YES")
    r.clock.advance(days=4, seconds=1)
    r.tick()
    got = table.deliver()
    mine = " ".join(text(table.one(got, "joe@rome.example", kind="judge")).split())
    assert "YES 1, NO 0 of 1 Senator entitled" in mine and "goes to the Emperor" in mine and "Dragons exist." in mine
    assert "[Judge] 1" in mine
    for n in ("ann", "ben"):
        assert "TO THE EMPEROR" in str(table.one(got, f"{n}@rome.example", kind="results")["Subject"])
