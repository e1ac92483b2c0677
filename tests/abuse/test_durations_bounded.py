"""Every length and date read from mail or rule text is bounded (SPEC §2.5): a length past the
calendar (`[Deadline] +999999999999999999999d`, `[Away] for 999999999d`) is refused with the
bound, and a passed amendment saying "within 999999 weeks" leaves the parameter as it was and
tells the GM, where each came back quarantined with an OverflowError and the game stopped."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, assert_replays, mail
from support.hostile_smtp import ALICE, BOB, G, mover

pytestmark = pytest.mark.spec("2.5")

GM = "gm@ref.example"


def _answers(outbox: Outbox) -> list:
    new = outbox.new()
    assert not [m for m in new if "quarantined" in str(m["Subject"])], [Outbox.body(m) for m in new]
    return new


@pytest.mark.parametrize(
    "who, subject, words",
    [
        (ALICE, "[Deadline] +999999999999999999999d", "a deadline moves by mail at most 365 days"),
        (ALICE, "[Deadline] +99999999d", "a deadline moves by mail at most 365 days"),
        (GM, "[Deadline] +999999999999999999999d", "a deadline moves by mail at most 365 days"),
        (ALICE, "[Away] for 999999999d", "an absence is at most 30d (max_absence)"),
        (ALICE, "[Away] for 99999999999999999999999d", "an absence is at most 30d (max_absence)"),
        (ALICE, "[Away] until 31 Dec 9999", "an absence is at most 30d"),
        (ALICE, "[Away] from 30 Dec 9999 to 31 Dec 9999", "past the dates a game keeps"),
    ],
)
def test_a_length_past_the_calendar_is_refused_with_its_bound(
    game, smtp, outbox, who, subject, words
):
    outbox.new()
    before = game.state("nomes")
    # The GM's [Deadline] is the GM's as a Reply to the game's mail to the GM (SPEC §2.2).
    gms = [m["Message-ID"] for m in outbox.to(GM) if "is open at" in str(m["Subject"])]
    smtp(mail(who, G, subject, in_reply_to=gms[0] if who == GM else None), who)
    (reply,) = outbox.to(who, _answers(outbox))
    assert reply["X-Mailref-Kind"] == "error" and words in Outbox.body(reply), Outbox.body(reply)
    after = game.state("nomes")
    assert after["turn"] == before["turn"] and after["players"] == before["players"]
    assert_replays(game)


def test_a_passed_rule_saying_999999_weeks_keeps_the_game_running(game, smtp, outbox, clock):
    name, who = mover(game)
    other = BOB if who == ALICE else ALICE
    body = (
        "Amend rule 8 to read:\nA move consists of emailing one proposal to the group. If, after "
        "it becomes a player's turn, that player does not move within 999999 weeks, his or her "
        "turn is skipped that round.\n"
    )
    smtp(mail(who, G, "[Proposal] Slow turns", body), who)
    outbox.new()
    smtp(mail(other, G, "[Vote] 1", "FOR"), other)
    new = _answers(outbox)
    state = game.state("nomes")
    assert state["parameters"]["turn_timeout"] == "5d"
    assert state["turn"]["number"] == 2 and state["turn"]["player"] != name
    (alert,) = [m for m in outbox.to(GM, new) if m["X-Mailref-Kind"] == "alert"]
    assert "longer than a year" in Outbox.body(alert) and "turn_timeout" in Outbox.body(alert)
    # The turn runs on five days: the timer fires, and skips the mover who does not move.
    clock.advance(days=5, seconds=1)
    game.tick()
    assert game.state("nomes")["turn"]["number"] == 3
    assert_replays(game)


def test_the_gm_cannot_set_a_span_of_centuries(game):
    out = game.admin("nomes", {"type": "set", "values": {"turn_timeout": "999999w"}}, "gm")
    assert not out.ok and "longer than a year" in out.reason
    assert game.state("nomes")["parameters"]["turn_timeout"] == "5d"
