"""`game bind` in a game of a shipped ruleset: a parameter is bound to a rule of the game's own
rule list (one its players enacted), its value read there and followed when that rule is
amended; the other parameters stay bound where the shipped ruleset binds them. An orders game
keeps no rules, and says so."""

from __future__ import annotations

from support.helpers import assert_replays
from support.play import PLAYERS, nomes, send


def passed(referee, mover: str, title: str, text: str, number: int) -> None:
    send(referee, mover, f"[Proposal] {title}", text)
    for p in PLAYERS:
        if p.title() != mover:
            send(referee, p, f"[Vote] {number}", "FOR")
    assert referee.state("nomes")["proposals"][number - 1]["status"] == "passed"


def test_a_shipped_game_binds_a_parameter_to_a_rule_its_players_enacted(referee):
    mover = nomes(referee)
    rule = 'Enact rule 301 "Quicker victory":\nThe first player to reach 60 points wins.\n'
    passed(referee, mover, "Quicker victory", rule, 1)
    assert referee.state("nomes")["parameters"]["win_score"] == 100  # rule 23 still says it
    done = referee.admin("nomes", {"type": "bind", "key": "win_score", "rule": "301"}, "gm")
    assert done.ok, done
    state = referee.state("nomes")
    assert state["parameters"]["win_score"] == 60
    assert state["ruleset"]["bindings"]["win_score"] == "301"
    assert state["ruleset"]["bindings"]["fail_points"] == "22"  # the others as shipped
    passed(
        referee,
        state["turn"]["player"],
        "Quicker still",
        'In rule 301, replace "60 points" with "45 points".\n',
        2,
    )
    assert referee.state("nomes")["parameters"]["win_score"] == 45
    assert_replays(referee)


def test_a_rule_that_does_not_state_it_is_refused_in_a_shipped_game(referee):
    nomes(referee)
    done = referee.admin("nomes", {"type": "bind", "key": "win_score", "rule": "1"}, "gm")
    assert not done.ok
    assert "rule 1 does not state win_score once and plainly" in done.reason
    assert "ruleset" not in referee.state("nomes")


def test_an_orders_game_has_no_rules_to_bind(referee):
    referee.create_game("eire", "eire", "eire@ref.example", gm="gm@ref.example")
    done = referee.admin("eire", {"type": "bind", "key": "start_grain", "rule": "1"}, "gm")
    assert not done.ok
    assert "eire is an orders game: it keeps no rules to bind a parameter to" == done.reason
