"""A GM-adjudicated orders game at its deadline, for the tests of fair time (SPEC §2.1): the
game, a player's orders as mail, and what the players and the GM read."""

from __future__ import annotations

from datetime import datetime, timedelta

from mailref.timeutil import parse_iso
from support.helpers import Outbox, deliver, mail
from support.joining import confirm

DIPLO = "diplo@ref.example"
GM = "gm@ref.example"


def addr(name: str) -> str:
    return f"{name.lower()}@players.example"


def orders_game(referee, clock) -> datetime:
    """A GM-adjudicated game of Ann, Bob and Carol in turn 1, an hour before its deadline (the
    reminder sent); the deadline."""
    referee.create_game("diplo", "orders", DIPLO, gm=GM, parameters={"turn_length": "1d"})
    for name in ("Ann", "Bob", "Carol"):
        deliver(referee, mail(addr(name), DIPLO, "[Join]", f"Name: {name}"))
        confirm(referee, addr(name))
    assert referee.admin("diplo", {"type": "start"}, "gm").ok
    deadline = parse_iso(referee.state("diplo")["turn"]["deadline"])
    clock.now = deadline - timedelta(hours=1)
    assert referee.tick() == ["diplo"]
    return deadline


def orders(name: str, text: str) -> bytes:
    """NAME's [Orders] mail, TEXT in bold."""
    return mail(addr(name), DIPLO, "[Orders]", f"**{text}**")


def answer(outbox: Outbox, name: str) -> str:
    """The last answer (ack or error) NAME got."""
    kinds = ("ack", "error")
    mine = [m for m in outbox.all() if m["To"] == addr(name) and m["X-Mailref-Kind"] in kinds]
    return Outbox.body(mine[-1])


def turn_open(referee) -> bool:
    """Whether turn 1 still takes orders."""
    return bool(referee.state("diplo")["turn"].get("deadline"))


def gm_orders(outbox: Outbox) -> str:
    """The one mail that gives the GM the closed turn's orders."""
    digests = [
        m for m in outbox.all() if m["To"] == GM and "Orders of all players" in (m["Subject"] or "")
    ]
    assert len(digests) == 1
    return Outbox.body(digests[0])
