"""What a refused rule change tells its author: a hint's rule number is one that is free, and every
fault of the mail is named, not only the first (SPEC §2.6)."""

from __future__ import annotations

import pytest

from support import imperial
from support.helpers import Outbox
from support.sidekick import addr, mover, others, send

pytestmark = pytest.mark.spec("2.6")


def last_error(outbox: Outbox, who: str, address=addr) -> str:
    errors = [m for m in outbox.all() if m["To"] == address(who) and m["X-Mailref-Kind"] == "error"]
    return Outbox.body(errors[-1])


def enact_24_to_26(game) -> None:
    """The first mover's proposal enacts rules 24, 25 and 26 and passes."""
    first = mover(game)
    body = "".join(f'Enact rule {n} "R{n}":\nText {n}.\n\n' for n in (24, 25, 26))
    send(game, first.lower(), "[Proposal] Three rules", body)
    for o in others(game):
        send(game, o.lower(), "Re: [Proposal 1] Three rules", "FOR")
    assert {"24", "25", "26"} <= {r["number"] for r in game.state("nomes")["rules"]}
    assert mover(game) != first


def test_the_reference_number_hint_names_a_free_rule_number(sidekick_game, outbox):
    """With rules 24 to 26 in the ruleset, a new rule without a number is told to take 27."""
    enact_24_to_26(sidekick_game)
    now = mover(sidekick_game).lower()
    send(sidekick_game, now, "[Proposal] Tea", 'Enact rule "Tea":\nTea is served at four.\n')
    body = last_error(outbox, now)
    assert 'new rule "Tea" needs a reference number (rule 10)' in body, body
    assert 'Enact rule 27 "Tea":' in body and "rule 24" not in body, body
    assert not sidekick_game.state("nomes")["turn"]["proposal"]


def test_a_taken_rule_number_is_answered_with_a_free_one(sidekick_game, outbox):
    """Enacting rule 25 when 24 to 26 exist names 27 as an unused number."""
    enact_24_to_26(sidekick_game)
    now = mover(sidekick_game).lower()
    send(sidekick_game, now, "[Proposal] Tea", 'Enact rule 25 "Tea":\nTea is served at four.\n')
    body = last_error(outbox, now)
    assert "rule 25 already exists" in body and "an unused number, such as 27" in body, body


def test_a_sidekick_move_with_two_bad_changes_hears_of_both(sidekick_game, outbox):
    """An amendment of a rule that does not exist and a new rule on a taken number: one error
    names both (and the mover may still move)."""
    m = mover(sidekick_game).lower()
    send(
        sidekick_game,
        m,
        "[Proposal] Two slips",
        'Amend rule 99 to read:\nNinety-nine.\n\nEnact rule 5 "Five":\nA fifth rule.\n',
    )
    body = last_error(outbox, m)
    assert "2 faults" in body and "there is no rule 99" in body, body
    assert "rule 5 already exists" in body and "such as 24" in body, body
    assert not sidekick_game.state("nomes")["turn"]["proposal"]


def test_a_move_with_an_unnumbered_rule_and_a_bad_amendment_hears_of_both(sidekick_game, outbox):
    m = mover(sidekick_game).lower()
    send(
        sidekick_game,
        m,
        "[Proposal] Two slips",
        'Enact rule "Tea":\nTea at four.\n\nIn rule 1, replace "no such words" with "other".\n',
    )
    body = last_error(outbox, m)
    assert 'new rule "Tea" needs a reference number' in body, body
    assert 'rule 1 does not contain the words "no such words"' in body, body


def test_two_unreadable_rule_changes_are_both_named(sidekick_game, outbox):
    """Two lines that start like rule changes but follow no form: the error names both lines,
    and its example names a free rule number."""
    m = mover(sidekick_game).lower()
    send(
        sidekick_game,
        m,
        "[Proposal] Garbled",
        "Enact rule 24 without a title\nSome text.\n\nRepeal rule twelve please.\n",
    )
    body = last_error(outbox, m)
    assert "I could not read 2 rule changes" in body, body
    assert "on line 1" in body and "on line 4" in body, body
    assert 'Enact rule 24 "Title":' in body  # 24 is free in a fresh game


def test_imperial_unused_number_names_one(imperial_game, outbox):
    """Rules run to 26.6 in a fresh Imperial game: a new rule 21 is told 27 is unused, and a
    second bad change in the same proposal is named too."""
    imperial.send(
        imperial_game,
        "Ann",
        "[Proposal] Roads",
        'Enact rule 21 "Roads":\nRoads are good.\n\nRepeal rule 77.\n',
    )
    body = last_error(outbox, "Ann", imperial.addr)
    assert "rule 21 already exists" in body and "an unused number, such as 27" in body, body
    assert "there is no rule 77" in body, body
    assert not imperial_game.state("empire")["proposals"]
