"""What the play-through of session 6 found, played again as the players and the GM did:
mail in through the referee (as a mail client sends it), the replies read back."""

from __future__ import annotations

from helpers import Outbox, assert_replays, mail

G = "nomes@ref.example"
PLAYERS = ["alice", "bob", "carol"]


def addr(name: str) -> str:
    return f"{name.lower()}@players.example"


def send(referee, who: str, subject: str, body: str = "", to: str = G, **kw):
    return referee.accept(mail(addr(who), to, subject, body, **kw), "smtp", addr(who), [to])


def nomes(referee, **parameters) -> str:
    referee.create_game("nomes", "sidekick", G, gm="gm@ref.example", parameters=parameters or None)
    for p in PLAYERS:
        send(referee, p, "[Join]", f"Name: {p.title()}\n")
    return referee.state("nomes")["turn"]["player"]


def kinds(outbox: Outbox, msgs, kind: str) -> list[str]:
    return [m["To"] for m in msgs if m["X-Mailref-Kind"] == kind]


def test_a_one_day_turn_is_not_reminded_with_the_mail_that_opens_it(referee, outbox, clock):
    """A GM runs 1-day turns and votes (the reminder's default is 1 day ahead): the reminder
    used to arrive together with "Your move" and with the proposal it repeats. It now comes
    halfway through, to those who have not acted."""
    mover = nomes(referee, turn_timeout="1d", vote_timeout="1d")
    opened = outbox.all()
    assert kinds(outbox, opened, "turn") == [addr(mover)]
    assert kinds(outbox, opened, "reminder") == []
    clock.advance(hours=11)
    referee.tick()
    assert kinds(outbox, outbox.new(), "reminder") == []
    clock.advance(hours=1, seconds=1)
    referee.tick()
    assert kinds(outbox, outbox.new(), "reminder") == [addr(mover)]

    send(referee, mover, "[Proposal] Quick", 'Enact rule 24 "Quick":\nBe quick.\n')
    voters = [p.title() for p in PLAYERS if p.title() != mover]
    send(referee, voters[0], "[Vote] 1", "FOR")
    assert kinds(outbox, outbox.new(), "reminder") == []
    clock.advance(hours=12, seconds=1)
    referee.tick()
    assert kinds(outbox, outbox.new(), "reminder") == [addr(voters[1])]
    assert_replays(referee)
