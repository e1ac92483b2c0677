"""Mail in through the referee as a mail client sends it, for four-player Nomes, a BlogNomic and an
Imperial game."""

from __future__ import annotations

import pytest

from support.helpers import Outbox
from support.joining import confirm
from support.play import addr, send  # the same players' addresses, mail sent the same way

G = "nomes@ref.example"


BLOG = "blog@ref.example"


EMP = "emp@ref.example"


PLAYERS = ["alice", "bob", "carol", "zoe"]


def nomes(referee, **parameters) -> str:
    referee.create_game("nomes", "sidekick", G, gm="gm@ref.example", parameters=parameters or None)
    for p in PLAYERS:
        send(referee, p, "[Join]", f"Name: {p.title()}\n")
        confirm(referee, addr(p))
    return referee.state("nomes")["turn"]["player"]


def blog(referee) -> None:
    referee.create_game("blog", "blognomic", BLOG, gm="gm@ref.example")
    for p in PLAYERS + ["dan"]:
        send(referee, p, "[Join]", f"Name: {p.title()}\n", to=BLOG)
        confirm(referee, addr(p))


def propose_gold(referee) -> None:
    """Alice proposes the new rule "Gold" in the BlogNomic game (proposal 1 where none is open)."""
    send(
        referee,
        "alice",
        "[Proposal] Gold",
        'Enact a new rule "Gold":\nEach Wizard has Gold.\n',
        to=BLOG,
    )


@pytest.fixture
def dov_after_12h(referee, clock):
    """declare(AUTHOR, VOTES): BlogNomic's five Wizards, AUTHOR's DoV with the others' VOTES
    ({"alice": "FOR"}), and the 12 hours after which a DoV may be enacted gone by."""

    def declare(author: str, votes: dict[str, str]) -> None:
        blog(referee)
        send(referee, author, "[DoV] Most dragons", "Please vote FOR.", to=BLOG)
        for p, v in votes.items():
            send(referee, p, "[Vote] 1", v, to=BLOG)
        clock.advance(hours=12, seconds=1)
        referee.tick()

    return declare


def last(outbox: Outbox, who: str, kind: str | None = None, subject: str = ""):
    found = [m for m in outbox.to(who, kind=kind) if subject in str(m["Subject"])]
    assert found, (who, kind, subject)
    return found[-1]


def flowed(frm: str, to: str, subject: str, body: str, in_reply_to: str = "") -> bytes:
    """A mail as Thunderbird sends it: format=flowed, long lines cut at 72 with a trailing space."""
    head = (
        f"From: {frm}\r\nTo: {to}\r\nSubject: {subject}\r\nDate: Tue, 01 Dec 2026 10:00:00 "
        "+0000\r\n"
        f"Message-ID: <flowed.{abs(hash((subject, body)))}@players.example>\r\nMIME-Version: "
        "1.0\r\n"
        + (f"In-Reply-To: {in_reply_to}\r\nReferences: {in_reply_to}\r\n" if in_reply_to else "")
        + "Content-Type: text/plain; charset=UTF-8; format=flowed\r\n"
        "Content-Transfer-Encoding: 8bit\r\n"
        "User-Agent: Mozilla/5.0 Thunderbird/128.0\r\n\r\n"
    )
    return (head + body.replace("\n", "\r\n")).encode()
