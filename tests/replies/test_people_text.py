"""What people read (SPEC §2.6): deadlines for people, no repeated subjects, plurals, dice
notation, hints that work, a help that does not tell you to ask for help."""

from __future__ import annotations

import smtplib
from datetime import UTC, datetime

import pytest

from mailref.timeutil import when
from support.helpers import Outbox, mail
from support.joining import confirm_waiting
from support.listener import listening
from support.snapshots import play_once

pytestmark = pytest.mark.spec("2.6")

G = "nomes@ref.example"
NOW = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)


def test_deadlines_are_written_for_people_in_the_games_zone():
    assert when("2026-12-05T10:00:00Z", "UTC", NOW) == "Sat 5 Dec 2026 10:00 UTC, in 4 days"
    assert (
        when("2026-12-05T10:00:00Z", "Europe/Paris", NOW)
        == "Sat 5 Dec 2026 11:00 CET (10:00 UTC), in 4 days"
    )
    assert when("2026-12-01T15:00:00Z", "UTC", NOW) == "Tue 1 Dec 2026 15:00 UTC, in 5 hours"
    assert when("2026-11-29T07:00:00Z", "UTC", NOW).endswith(", 2 days ago")
    assert when("2026-12-05T10:00:00Z") == "Sat 5 Dec 2026 10:00 UTC"


@pytest.fixture
def listener(referee):
    """The players write through a real SMTP session to the referee's listener."""
    with listening(referee) as port:
        referee.smtp_port = port
        yield port


@pytest.fixture
def nomes(request, referee, listener):
    def opening() -> None:
        referee.create_game("nomes", "sidekick", G, name="Nomes")
        for who in ("alice", "bob", "carol"):
            send(referee, who, "[Join]", f"Name: {who.title()}")
            confirm_waiting(referee)

    play_once(request, referee, opening)
    return referee


def send(r, who: str, subject: str, body: str = "", to: str = G) -> None:
    with smtplib.SMTP("127.0.0.1", r.smtp_port) as c:
        c.sendmail(f"{who}@x.org", [to], mail(f"{who}@x.org", to, subject, body))


def test_a_proposal_announcement_gives_the_deadline_for_people(nomes, outbox):
    mover = nomes.state("nomes")["turn"]["player"].lower()
    send(nomes, mover, "[Proposal] Tea", 'Enact rule 301 "Tea":\nTea for all.\n')
    ann = [
        m
        for m in outbox.all()
        if m["X-Mailref-Kind"] == "announcement" and "Proposal 1" in m["Subject"]
    ]
    assert ann and "Voting closes Sun 6 Dec 2026 10:00 UTC, in 5 days." in Outbox.body(ann[0])
    assert "2026-12-06T10:00:00Z" not in Outbox.body(ann[0])
    turn = [m for m in outbox.all() if m["X-Mailref-Kind"] == "turn"][0]
    assert "before Sun 6 Dec 2026 10:00 UTC, in 5 days" in " ".join(Outbox.body(turn).split())


def test_roll_takes_ndm_plus_k(nomes, outbox):
    send(nomes, "alice", "[Roll] 2d6+1 for the weather")
    ack = outbox.to("alice@x.org", kind="ack")[-1]
    body = Outbox.body(ack)
    assert "Alice rolled 2d6+1:" in body and "(total " in body
    roll = nomes.state("nomes")["rolls"][-1]
    assert roll["dice"] == "2d6+1" and roll["why"] == "for the weather"
    send(nomes, "alice", "[Roll] 3d8 - 2")
    assert nomes.state("nomes")["rolls"][-1]["dice"] == "3d8-2"


def test_an_announcement_body_does_not_repeat_its_subject(nomes, outbox):
    send(nomes, "bob", "[Away]")
    (ann,) = [m for m in outbox.to("carol@x.org", kind="announcement") if "away" in m["Subject"]]
    assert ann["Subject"] == "[Nomes] Bob is away."
    assert Outbox.body(ann).count("Bob is away.") == 1


def test_the_help_does_not_tell_you_to_send_help(nomes, outbox):
    send(nomes, "alice", "[Help]")
    body = Outbox.body(outbox.to("alice@x.org", kind="help")[-1])
    assert "Send [Help] for the commands" not in body and "[Proposal]" in body
    send(nomes, "alice", "[Status]")
    assert "Send [Help] for the commands" in Outbox.body(
        outbox.to("alice@x.org", kind="status")[-1]
    )


def test_the_digest_lists_as_late_only_those_past_their_deadline(nomes, outbox, clock):
    mover = nomes.state("nomes")["turn"]["player"]
    nomes.admin("nomes", {"type": "digest"}, "gm")
    digest = Outbox.body([m for m in outbox.all() if m["X-Mailref-Kind"] == "digest"][-1])
    waiting, late = digest.split("Waiting for (deadline ahead):")[1].split(
        "Late (deadline passed):"
    )
    assert f"{mover} has not moved (turn 1, due Sun 6 Dec 2026 10:00 UTC)" in waiting
    assert late.split()[0] == "nobody"


def test_eire_join_hint_suggests_an_origin_the_tribe_may_take(referee, listener, outbox):
    referee.create_game("eire", "eire", "eire@ref.example")
    send(
        referee,
        "finn",
        "[Join]",
        "Name: Finn\nColor: Green\nTribe: Woodkin\nOrigin: Donal",
        to="eire@ref.example",
    )
    confirm_waiting(referee)
    body = " ".join(Outbox.body(outbox.to("finn@x.org", kind="error")[-1]).split())
    import re

    suggested = re.search(r"`Origin: ([^`]+)`", body).group(1)
    land = next(x for x in referee.state("eire")["lands"] if x["name"] == suggested)
    assert land["type"] == "Deep Forest" and land["owner"] is None


def test_the_author_of_a_command_gets_one_reply_and_the_announcement_everybody_gets(nomes, outbox):
    """SPEC §2.6: exactly one reply; an announcement the command sets off reaches its author
    too, as the same mail, and the ack names it without repeating it."""
    mover = nomes.state("nomes")["turn"]["player"]
    others = [n for n in ("Alice", "Bob", "Carol") if n != mover]
    outbox.new()
    send(nomes, mover.lower(), "[Proposal] Tea", 'Enact rule 301 "Tea":\nTea for all.\n')
    new = outbox.new()
    mine = [m for m in new if m["To"] == f"{mover.lower()}@x.org"]
    assert sorted(m["X-Mailref-Kind"] for m in mine) == ["ack", "announcement"]
    body = Outbox.body(next(m for m in mine if m["X-Mailref-Kind"] == "ack"))
    assert '"[Nomes] [Proposal 1] Tea", sent to all players, you included' in body
    assert "Voting closes" not in body
    for n in others:
        assert [m["X-Mailref-Kind"] for m in new if m["To"] == f"{n.lower()}@x.org"] == [
            "announcement"
        ]
    send(nomes, others[0].lower(), "Re: [Nomes] [Proposal 1] Tea", "FOR")
    send(nomes, others[1].lower(), "Re: [Nomes] [Proposal 1] Tea", "FOR")
    new = outbox.new()
    last = [m for m in new if m["To"] == f"{others[1].lower()}@x.org"]
    assert "ack" in [m["X-Mailref-Kind"] for m in last], [m["Subject"] for m in last]
    assert len([m for m in last if m["X-Mailref-Kind"] == "ack"]) == 1
    ack = next(m for m in last if m["X-Mailref-Kind"] == "ack")
    assert "PASSED" in Outbox.body(ack) and "Vote recorded" in Outbox.body(ack)
    assert any(m["X-Mailref-Kind"] == "results" for m in new if m["To"] == f"{mover.lower()}@x.org")


def test_an_error_reads_as_paragraphs_and_its_hint_as_a_sentence():
    from mailref.render import render

    game = {"name": "Nomes"}
    with_hint = render(
        "error.txt", reason="no title", hint="write the subject as: [Proposal] Title", game=game
    )
    assert with_hint.startswith(
        "Not done: no title.\n\nHow to write it:\n  Write the subject as: [Proposal] Title\n\n"
        "Your mail is kept"
    )
    bare = render("error.txt", reason="judgement 1 was already decided", hint="", game=game)
    assert bare.startswith("Not done: judgement 1 was already decided.\n\nYour mail is kept")
