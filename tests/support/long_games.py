"""Long games by mail through the referee as a mail client sends it: Nomes, BlogNomic, Imperial and
Eire."""

from __future__ import annotations

from support.helpers import Outbox
from support.joining import confirm
from support.play import addr, send  # the same players' addresses, mail sent the same way

BLOG = "blog@ref.example"


EMP = "emp@ref.example"


EIRE = "eire@ref.example"


def blog(referee, players=("alice", "bob", "carol", "dan", "eve")) -> None:
    referee.create_game("blog", "blognomic", BLOG, gm="gm@ref.example")
    for p in players:
        send(referee, p, "[Join]", f"Name: {p.title()}\n", to=BLOG)
        confirm(referee, addr(p))


def last(outbox: Outbox, who: str, kind: str | None = None, subject: str = ""):
    found = [m for m in outbox.to(who, kind=kind) if subject in str(m["Subject"])]
    assert found, (who, kind, subject)
    return found[-1]


def new_rule(title: str, text: str) -> str:
    return f'Enact a new rule entitled "{title}" with the following text:\n{text}\n'


def eire(referee, **players) -> None:
    referee.create_game("eire", "eire", EIRE, gm="gm@ref.example", parameters={"turn_length": "2d"})
    for name, choices in players.items():
        send(referee, name.lower(), "[Join]", f"Name: {name}\n{choices}\n", to=EIRE)
        confirm(referee, addr(name.lower()))
    referee.admin("eire", {"type": "start"}, "gm@ref.example")


G = "nomes@ref.example"


def nomes(referee, players=("alice", "bob", "carol")) -> str:
    referee.create_game("nomes", "sidekick", G, gm="gm@ref.example")
    for p in players:
        send(referee, p, "[Join]", f"Name: {p.title()}\n")
        confirm(referee, addr(p))
    return referee.state("nomes")["turn"]["player"]


def mail_from_gm(subject: str, body: str, in_reply_to: str) -> bytes:
    from support.helpers import mail

    return mail("gm@ref.example", G, subject, body, in_reply_to=in_reply_to)
