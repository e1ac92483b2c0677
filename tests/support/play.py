"""Mail in through the referee as a mail client sends it, from three players of a Nomic."""

from __future__ import annotations

from support.helpers import Outbox, send_mail
from support.joining import confirm

G = "nomes@ref.example"


PLAYERS = ["alice", "bob", "carol"]


def addr(name: str) -> str:
    return f"{name.lower()}@players.example"


def send(referee, who: str, subject: str, body: str = "", to: str = G, **kw):
    return send_mail(referee, addr(who), to, subject, body, **kw)


def nomes(referee, **parameters) -> str:
    referee.create_game("nomes", "sidekick", G, gm="gm@ref.example", parameters=parameters or None)
    for p in PLAYERS:
        send(referee, p, "[Join]", f"Name: {p.title()}\n")
        confirm(referee, addr(p))
    return referee.state("nomes")["turn"]["player"]


def kinds(outbox: Outbox, msgs, kind: str) -> list[str]:
    return [m["To"] for m in msgs if m["X-Mailref-Kind"] == kind]
