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


def test_a_passed_amendment_of_rule_22_changes_what_a_failed_proposal_scores(referee, outbox):
    """Proposal 1 replaces "-5 points" with "-3 points" in rule 22 and passes; proposal 2 fails.
    The referee used to score it -5 "(rules 21–22)", citing the rule it had just contradicted,
    and only alerted the GM. Now it runs rule 22 as it reads, says so, and the GM is told."""
    first = nomes(referee)
    send(referee, first, "[Proposal] Gentler failure", 'In rule 22, replace "-5 points" with "-3 points".\n\nCheers,\n' + first)
    for p in PLAYERS:
        if p.title() != first:
            send(referee, p, "[Vote] 1", "FOR")
    state = referee.state("nomes")
    assert state["parameters"]["fail_points"] == -3
    ruleset = [m for m in outbox.all() if m["X-Mailref-Kind"] == "ruleset" and m["To"] == addr(first)][-1]
    assert "a failed proposal scores -3 (fail_points: -5 -> -3)" in Outbox.body(ruleset)
    alerts = [Outbox.body(m) for m in outbox.all() if m["X-Mailref-Kind"] == "alert"]
    assert any("fail_points: -5 -> -3" in a and "mailref game set nomes fail_points=" in a for a in alerts), alerts

    second = state["turn"]["player"]
    send(referee, second, "[Proposal] Bad idea", 'Enact rule 30 "Bad":\nNobody may vote.\n')
    for p in PLAYERS:
        if p.title() != second:
            send(referee, p, "[Vote] 2", "AGAINST")
    results = [m for m in outbox.all() if m["X-Mailref-Kind"] == "results" and m["To"] == addr(first)][-1]
    assert f"{second} scores -3 (rules 21–22) and now has -3." in Outbox.body(results)
    assert next(p for p in referee.state("nomes")["players"] if p["name"] == second)["score"] == -3
    assert_replays(referee)
