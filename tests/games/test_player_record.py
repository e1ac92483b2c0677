"""A player's record by mail: [Stats] NAME counts the turns a holder played, missed and sent
late, and their time away; [History] gives the game's results so far in one mail."""

from __future__ import annotations

from support.helpers import Outbox, assert_replays, last_to
from support.joining import confirm
from support.orders_play import DIPLO, EIRE, addr, play_eire, seat_eire, send
from support.sidekick import PROPOSAL, last_reply, mover, others, sidekick_game  # noqa: F401
from support.sidekick import send as sk_send

GM = "gm@ref.example"


def _answer(outbox, who: str) -> str:
    (mine,) = outbox.to(addr(who), outbox.new())
    return Outbox.body(mine)


def test_stats_counts_a_missed_turn_a_late_one_and_time_away(referee, outbox, clock):
    """Finn orders after the reminder and Maeve not at all: the deadline passes, and [Stats]
    says Finn played one turn, late, and Maeve missed one; Maeve's day away is counted."""
    seat_eire(referee)
    clock.advance(hours=37)  # past the reminder, 12 hours before the 2-day deadline
    referee.tick()
    send(referee, "Finn", EIRE, "[Orders]", "**Invest 5 Grain in Llanc.**")
    clock.advance(hours=12)
    referee.tick()  # the deadline passes without Maeve's orders
    assert referee.state("eire")["turn"]["number"] == 2
    send(referee, "Maeve", EIRE, "[Away]")
    clock.advance(days=1)
    send(referee, "Maeve", EIRE, "[Back]")
    outbox.new()

    send(referee, "Finn", EIRE, "[Stats] Maeve")
    said = _answer(outbox, "Finn")
    assert "Turns played: 0; missed: 1; late (after the reminder): 0." in said
    assert "Time away: 1 day." in said
    send(referee, "Maeve", EIRE, "[Stats]")  # without a name: the sender's own
    assert "missed: 1" in _answer(outbox, "Maeve")
    send(referee, "Maeve", EIRE, "[Stats] Finn")
    assert "Turns played: 1; missed: 0; late (after the reminder): 1." in _answer(outbox, "Maeve")
    send(referee, "Maeve", EIRE, "[Stats] Zed")
    (refused,) = outbox.to(addr("Maeve"), outbox.new())
    assert refused["X-Mailref-Refusal"] == "no_record"

    # In another game of the host, Maeve's [Stats] sums what her address did in Eire.
    referee.create_game("diplo", "orders", DIPLO, gm=GM)
    send(referee, "Maeve", DIPLO, "[Join]", "Name: Maeve")
    confirm(referee, addr("Maeve"))
    outbox.new()
    send(referee, "Maeve", DIPLO, "[Stats]")
    said = _answer(outbox, "Maeve")
    assert "Turns played: 0; missed: 0;" in said
    assert (
        "In the host's 1 other game from the same address: turns played 0, missed 1, late 0; "
        "votes cast 0, abstentions 0; time away 1 day; won 0." in said
    )
    assert_replays(referee)


def test_history_lists_the_results_so_far(referee, outbox, clock):
    """[History] in a GM-adjudicated game: each turn, who ordered, and the GM's results."""
    referee.create_game("diplo", "orders", DIPLO, gm=GM)
    for name in ("Ann", "Bob"):
        send(referee, name, DIPLO, "[Join]", f"Name: {name}")
        confirm(referee, addr(name))
    assert referee.admin("diplo", {"type": "start"}, "gm").ok
    send(referee, "Ann", DIPLO, "[Orders]", "**Army Paris holds.**")
    send(referee, "Bob", DIPLO, "[Orders]", "**Fleet Kiel holds.**")
    said = "Turn 1\nEvery unit held; nobody moved."
    send(referee, GM, DIPLO, "[Results]", said, in_reply_to=last_to(referee, GM, DIPLO))
    outbox.new()
    send(referee, "Bob", DIPLO, "[History]")
    said = _answer(outbox, "Bob")
    assert "The history of" in said
    assert "Turn 1: orders from Ann, Bob." in said
    assert "Every unit held; nobody moved." in said
    assert_replays(referee)


def test_history_of_an_ended_game_names_its_winner(referee, outbox, clock):
    play_eire(referee, clock)
    outbox.new()
    send(referee, "Maeve", EIRE, "[History]")
    said = _answer(outbox, "Maeve")
    assert "Turn 3: orders from Bran, Finn, Maeve, Oisin." in said
    assert "Won by Finn." in said


def test_stats_in_a_nomic_counts_votes_cast_and_abstentions(sidekick_game, outbox):  # noqa: F811
    """A decided proposal: one voter's AGAINST is a vote cast, the other's ABSTAIN an
    abstention; the mover's own proposal counts for neither."""
    m = mover(sidekick_game)
    sk_send(sidekick_game, m, "[Proposal] Tie", PROPOSAL)
    a, b = others(sidekick_game)
    sk_send(sidekick_game, a, "[Vote] 1", "AGAINST")
    sk_send(sidekick_game, b, "[Vote] 1", "ABSTAIN")
    assert sidekick_game.state("nomes")["proposals"][0]["status"] == "failed"
    outbox.new()
    sk_send(sidekick_game, m, f"[Stats] {a}")
    assert "Votes cast: 1; abstentions: 0." in Outbox.body(last_reply(outbox, m))
    sk_send(sidekick_game, m, f"[Stats] {b}")
    assert "Votes cast: 0; abstentions: 1." in Outbox.body(last_reply(outbox, m))
    sk_send(sidekick_game, a, f"[Stats] {m}")
    assert "Votes cast: 0; abstentions: 0." in Outbox.body(last_reply(outbox, a))
    sk_send(sidekick_game, a, "[History]")
    assert "Proposal 1 (Tie) by" in Outbox.body(last_reply(outbox, a))
