"""The five variants played by mail as real clients write it (support/clients.py)."""

from __future__ import annotations

import email

from support import clients
from support.helpers import Outbox, deliver
from support.joining import confirm
from support.play import addr

NOMES = "nomes@ref.example"


def play(referee, raw: bytes) -> None:
    msg = email.message_from_bytes(raw)
    frm = email.utils.parseaddr(msg["From"])[1]
    deliver(referee, raw, "smtp", frm, [email.utils.parseaddr(msg["To"])[1]])


def last(outbox: Outbox, who: str, kind: str | None = None, subject: str = ""):
    found = [m for m in outbox.to(addr(who), kind=kind) if subject in str(m["Subject"])]
    assert found, (who, kind, subject)
    return found[-1]


def sidekick(referee, players=("Alice", "Bob", "Carol")) -> tuple[str, list[str]]:
    """A Sidekick game whose mover has proposed rule 24; returns the mover and the voters."""
    referee.create_game("nomes", "sidekick", NOMES, gm="gm@ref.example")
    for p in players:
        play(referee, clients.fresh(addr(p), p, NOMES, "[Join]", f"Name: {p}\n"))
        confirm(referee, addr(p))
    mover = referee.state("nomes")["turn"]["player"]
    play(
        referee,
        clients.fresh(
            addr(mover),
            mover,
            NOMES,
            "[Proposal] Tea time",
            'Enact rule 24 "Tea":\nEvery player shall drink tea.\n',
        ),
    )
    return mover, [p for p in players if p != mover]


def _ids(outbox: Outbox) -> list[str]:
    return [m["Message-ID"] for m in outbox.all()]


BLOG = "blog@ref.example"


WIZARDS = ("Alice", "Bob", "Carol", "Dan", "Eve")


def blognomic(referee) -> None:
    referee.create_game("blog", "blognomic", BLOG, gm="gm@ref.example")
    for p in WIZARDS:
        play(referee, clients.fresh(addr(p), p, BLOG, "[Join]", f"Name: {p}\n"))
        confirm(referee, addr(p))
