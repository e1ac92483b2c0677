"""[Help] states the values the game runs by now: a rule amended, or a value the GM set, changes
what the help says, as it changes what the referee does."""

from __future__ import annotations

import pytest

from support import blognomic as bn
from support.helpers import Outbox, mail

pytestmark = pytest.mark.spec("2.5", "5.2")

IDLE_SIX_DAYS = (
    'In rule 1.3, replace "Idle within the previous four days" with '
    '"Idle within the previous six days".\n'
)


def _help(game, who: str) -> str:
    bn.send(game, who, "[Help]")
    got = [m for m in Outbox(game).all() if m["To"] == bn.addr(who)]
    return Outbox.body([m for m in got if m["X-Mailref-Kind"] == "help"][-1])


def test_blognomic_help_says_the_unidle_wait_of_rule_1_3_as_amended(blognomic_game):
    """The help said "no [Unidle] within 4 days of idling" after rule 1.3 was amended to six days
    and the referee ran it so (unidle_after = 6d): it says 6 days now."""
    game = blognomic_game
    assert "no [Unidle] within 4 days of idling" in _help(game, "Eve")
    bn.send(game, "Ann", "[Proposal] [Core] Longer rest", IDLE_SIX_DAYS)
    number = max(m["number"] for m in game.state("blog")["proposals"])
    for n in ("Ben", "Cat", "Dan"):
        bn.send(game, n, f"Re: [Proposal {number}] Longer rest", "FOR")
    bn.at(game, hours=12, seconds=1)
    assert game.state("blog")["parameters"]["unidle_after"] == "6d"
    said = _help(game, "Eve")
    assert "no [Unidle] within 6 days of idling" in said and "4 days" not in said, said


def test_imperial_help_names_the_b_rules_from_the_value_the_gm_set(referee, smtp):
    """The help said "rules 21 and up" whatever `first_b_rule` the game runs by."""
    address = "empire@ref.example"
    referee.create_game("empire", "imperial", address, name="Empire", gm="gm@ref.example")
    referee.admin("empire", {"type": "set", "values": {"first_b_rule": "31"}}, "gm")
    box = Outbox(referee)
    box.new()
    smtp(mail("stranger@x.org", address, "[Help]", ""), "stranger@x.org", address)
    (reply,) = box.new()
    said = Outbox.body(reply)
    assert "a playtest of the B rules (rules 31 and up)" in said and "21" not in said, said
    # Braces that name no parameter are the game's own words, kept as written.
    assert "{comments} are removed" in said, said
