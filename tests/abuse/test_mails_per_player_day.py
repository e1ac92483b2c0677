"""No number of players together makes a game mail one player more than
`mails_per_player_day` a day (SPEC §2.2): past it that day's announcements wait in the
player's next digest, said once."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, mail

pytestmark = pytest.mark.spec("2.2")

G = "nomes@ref.example"
ALICE = "alice@example.org"


def _players(referee, names: list[str]) -> None:
    for n in names:
        referee.admin(
            "nomes",
            {"type": "player_add", "name": n, "address": f"{n.lower()}@x.example", "more": []},
            "admin",
        )


def test_twelve_throwaway_players_cannot_flood_a_real_player(referee, outbox, clock):
    """Twelve throwaway players each open ten CfJs and roll ten times: each stays within the
    caps one player has, and the real player Alice got 241 mails in a day. She gets at most
    `mails_per_player_day` (60), the last saying the rest come in her digest; the next
    morning's digest holds the rest, and the game goes on for her as before."""
    referee.create_game("nomes", "sidekick", G, gm="gm@ref.example")
    referee.admin(
        "nomes",
        {"type": "player_add", "name": "Alice", "address": ALICE, "more": []},
        "admin",
    )
    throwaways = [f"Spam{i}" for i in range(12)]
    _players(referee, throwaways)
    outbox.new()
    for n in throwaways:
        a = f"{n.lower()}@x.example"
        for i in range(10):
            referee.accept(mail(a, G, f"[CfJ] Question {i} of {n}", "Is it so?"), "smtp", a, [G])
            referee.accept(mail(a, G, "[Roll] d6"), "smtp", a, [G])
    outbox.new()
    to_alice = outbox.to(ALICE, outbox.all())  # that day's, her welcome and the joins included
    assert len(to_alice) == 60, len(to_alice)
    last = to_alice[-1]
    assert "further announcements come in your digest" in last["Subject"]
    assert "mails_per_player_day" in Outbox.body(last)
    assert sum("further announcements" in m["Subject"] for m in to_alice) == 1  # said once
    # Replies to one's own mail are not held: the last throwaway got the acks of all twenty.
    acks = outbox.to("spam11@x.example", outbox.all(), kind="ack")
    assert len(acks) == 20
    state = referee.state("nomes")
    alice = next(p for p in state["players"] if p["name"] == "Alice")
    assert len(alice["held"]) > 100
    clock.advance(days=1)  # the next morning, past digest_at
    referee.tick()
    (digest,) = outbox.to(ALICE, outbox.new(), kind="digest")
    body = Outbox.body(digest)
    assert "Question 9 of Spam11" in body and "mails_per_player_day" in body
    # A new day: an announcement reaches her at once again.
    a = "spam0@x.example"
    referee.accept(mail(a, G, "[CfJ] A new day", "Is it so?"), "smtp", a, [G])
    assert [m["X-Mailref-Kind"] for m in outbox.to(ALICE, outbox.new())] == ["announcement"]


def test_relayed_discussion_counts_towards_the_days_mail(referee, outbox):
    """The players' relayed words are mail from the game too: past the day's
    `mails_per_player_day` a reader gets no more of them that day."""
    referee.create_game(
        "nomes", "sidekick", G, gm="gm@ref.example", parameters={"mails_per_player_day": 10}
    )
    _players(referee, ["Alice", "Bob", "Carol"])
    outbox.new()
    before = len(outbox.to("alice@x.example", outbox.all()))  # her welcome, the joins
    for i in range(12):
        who = ("bob@x.example", "carol@x.example")[i % 2]
        referee.accept(mail(who, G, f"Thoughts {i}", "What do you think?"), "smtp", who, [G])
    to_alice = outbox.to("alice@x.example", outbox.new())
    assert [m["X-Mailref-Kind"] for m in to_alice] == ["discussion"] * (10 - before)
    # Carol, mailed less, read every word of Bob's.
    assert len(outbox.to("carol@x.example", outbox.all(), kind="discussion")) == 6
