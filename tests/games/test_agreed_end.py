"""An agreed end of an orders game: a [Draw] or [Concede] is put to every surviving player, who
votes by Reply; every YES ends the game with the winners it names, one NO refuses it, and a
deadline passed without every YES lets it expire. The result is announced whichever way it
goes, to the players, the watchers and the GM, with the counts only where the game says so."""

from __future__ import annotations

from support.helpers import Outbox, assert_replays
from support.orders_play import EIRE, addr, seat_eire, send

GM = "gm@ref.example"
WANDA = "wanda@watch.example"
PLAYERS = ("Finn", "Maeve", "Oisin")


def _eire(referee, outbox, **parameters) -> None:
    seat_eire(referee, len(PLAYERS), watcher=WANDA, **parameters)
    outbox.new()


def _ballot_mail(outbox, sent, who: str):
    (ballot,) = outbox.to(addr(who), sent, "ending")
    return ballot


def _reply(referee, who: str, ballot, word: str) -> None:
    send(referee, who, EIRE, f"Re: {ballot['Subject']}", f"{word}\n\n> quoted")


def test_a_draw_accepted_by_every_survivor_ends_the_game_with_them_as_winners(referee, outbox):
    """Finn's [Draw] names nobody: it is shared by every survivor. Maeve and Oisin are asked
    (Finn's own YES is counted), the watcher is not; their YES ends the game, announced to
    everybody with the winners; orders are then refused as the game has ended."""
    _eire(referee, outbox)
    send(referee, "Finn", EIRE, "[Draw]")
    sent = outbox.new()
    assert outbox.to(WANDA, sent) == [] and outbox.to(GM, sent) == []
    (ack,) = outbox.to(addr("Finn"), sent, "ack")
    assert "Draw 1 proposed" in Outbox.body(ack)
    ballots = {who: _ballot_mail(outbox, sent, who) for who in ("Maeve", "Oisin")}
    assert "[Draw 1]" in ballots["Maeve"]["Subject"]
    assert "shared by Finn, Maeve, Oisin" in Outbox.body(ballots["Maeve"])
    _reply(referee, "Maeve", ballots["Maeve"], "Yes")
    (ack,) = outbox.to(addr("Maeve"), outbox.new())
    assert "Your YES on draw 1 is recorded" in Outbox.body(ack)
    assert referee.state("eire")["status"] == "active"
    _reply(referee, "Oisin", ballots["Oisin"], "YES, gladly")
    state = referee.state("eire")
    assert state["status"] == "ended" and state["winners"] == list(PLAYERS)
    sent = outbox.new()
    for to in (addr("Finn"), addr("Maeve"), WANDA, GM):
        (news,) = [m for m in outbox.to(to, sent) if "Accepted" in m["Subject"]]
        assert "[Draw 1] Accepted: the game ends" in news["Subject"]
        assert "Finn, Maeve, Oisin share it" in Outbox.body(news)
        assert "YES" not in Outbox.body(news).split("\n-- \n")[0]  # secret: the outcome alone
    send(referee, "Finn", EIRE, "[Orders]", "**Invest 5 Grain in Llanc.**")
    (refused,) = outbox.new()
    assert refused["X-Mailref-Refusal"] == "game_ended"
    assert_replays(referee)


def test_a_draw_refused_by_one_no_is_announced_and_the_game_goes_on(referee, outbox):
    """Oisin's NO refuses the draw between Finn and Maeve at once: announced to all, the game
    goes on, and a new proposal may follow."""
    _eire(referee, outbox)
    send(referee, "Finn", EIRE, "[Draw] Finn, Maeve")
    sent = outbox.new()
    assert "shared by Finn, Maeve" in Outbox.body(_ballot_mail(outbox, sent, "Oisin"))
    _reply(referee, "Oisin", _ballot_mail(outbox, sent, "Oisin"), "No")
    sent = outbox.new()
    for to in (addr("Finn"), addr("Maeve"), addr("Oisin"), WANDA):
        (news,) = outbox.to(to, sent, "announcement")
        assert "[Draw 1] Refused: the game goes on" in news["Subject"]
    state = referee.state("eire")
    assert state["status"] == "active" and state["winners"] == []
    send(referee, "Maeve", EIRE, "[Concede] to Oisin")
    assert outbox.to(addr("Maeve"), outbox.new(), "ack")
    assert referee.state("eire")["endings"][-1]["status"] == "open"
    assert_replays(referee)


def test_a_concession_without_every_yes_expires_at_its_deadline(referee, outbox, clock):
    """`draw_ballots=counts`: Finn concedes to Maeve, Maeve says yes, Oisin says nothing; [Status]
    says it is open and how many have voted, and Oisin is reminded once. At the deadline (the
    game's clock) it expires, announced with the counts and nobody's name."""
    _eire(referee, outbox, draw_ballots="counts", draw_length="1d", turn_length="5d")
    send(referee, "Finn", EIRE, "[Concede] to Maeve")
    sent = outbox.new()
    _reply(referee, "Maeve", _ballot_mail(outbox, sent, "Maeve"), "yes")
    outbox.new()
    send(referee, "Oisin", EIRE, "[Status]")
    (status,) = outbox.to(addr("Oisin"), outbox.new())
    assert "Concede 1 (Finn concedes to Maeve) is open to votes until" in Outbox.body(status)
    assert "2 of 3 have voted" in Outbox.body(status)
    clock.advance(hours=12)
    referee.tick()
    # Half its time gone: the one who has not voted is reminded, once; the others are not.
    (reminder,) = outbox.new()
    assert reminder["To"] == addr("Oisin") and reminder["X-Mailref-Kind"] == "reminder"
    assert "[Concede 1] Reminder" in reminder["Subject"]
    clock.advance(hours=11)
    referee.tick()
    assert not [m for m in outbox.new() if "Reminder" in m["Subject"]]
    clock.advance(hours=2)
    referee.tick()
    sent = outbox.new()
    for to in (addr("Finn"), addr("Oisin"), WANDA, GM):
        (news,) = [m for m in outbox.to(to, sent) if "Expired" in m["Subject"]]
        assert "[Concede 1] Expired: the game goes on" in news["Subject"]
        body = Outbox.body(news)
        assert "2 YES, 0 NO, 1 without a ballot" in body
        assert "Oisin" not in body.split("\n-- \n")[0]
    assert referee.state("eire")["status"] == "active"
    assert_replays(referee)


def test_a_watchers_ballot_and_a_stray_one_are_refused(referee, outbox):
    """A watcher has no vote on a draw; a ballot without YES or NO is asked again."""
    _eire(referee, outbox)
    send(referee, "Finn", EIRE, "[Draw]")
    sent = outbox.new()
    ballot = _ballot_mail(outbox, sent, "Maeve")
    send(referee, WANDA, EIRE, f"Re: {ballot['Subject']}", "yes")
    (refused,) = outbox.new()
    assert refused["X-Mailref-Refusal"] == "watchers_do_not_play"
    _reply(referee, "Maeve", ballot, "Hmm, let me think")
    (refused,) = outbox.new()
    assert refused["X-Mailref-Refusal"] == "no_end_ballot"
    assert referee.state("eire")["endings"][0]["votes"] == {"Finn": "yes"}


def test_a_draw_waiting_only_for_one_who_leaves_is_accepted_when_they_leave(referee, outbox):
    """Every survivor's YES is all a draw needs: when Oisin, the one it waits for, quits, the
    draw between Finn and Maeve is accepted at once."""
    _eire(referee, outbox)
    send(referee, "Finn", EIRE, "[Draw] Finn, Maeve")
    _reply(referee, "Maeve", _ballot_mail(outbox, outbox.new(), "Maeve"), "yes")
    assert referee.state("eire")["status"] == "active"
    send(referee, "Oisin", EIRE, "[Quit]")
    state = referee.state("eire")
    assert state["status"] == "ended" and state["winners"] == ["Finn", "Maeve"]
    (news,) = [m for m in outbox.to(addr("Finn"), outbox.new()) if "Accepted" in m["Subject"]]
    assert "Finn, Maeve share it" in Outbox.body(news)
    assert_replays(referee)


def test_a_pause_moves_a_draws_deadline_with_the_turns(referee, outbox, clock):
    """Deadlines stop while a game is paused: a draw open then keeps the time it had left."""
    _eire(referee, outbox, draw_length="1d", turn_length="5d")
    send(referee, "Finn", EIRE, "[Draw]")
    clock.advance(hours=12)
    referee.admin("eire", {"type": "pause"}, "gm")
    clock.advance(days=3)
    referee.tick()
    referee.admin("eire", {"type": "resume"}, "gm")
    referee.tick()
    assert referee.state("eire")["endings"][0]["status"] == "open"
    clock.advance(hours=11)
    referee.tick()
    assert referee.state("eire")["endings"][0]["status"] == "open"
    clock.advance(hours=2)
    referee.tick()
    assert referee.state("eire")["endings"][0]["status"] == "expired"
    assert_replays(referee)
