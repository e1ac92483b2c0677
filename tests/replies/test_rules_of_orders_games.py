"""[Rules] in an orders game says what governs it, not an empty rule list."""

from __future__ import annotations

import re

import pytest

from support.helpers import EIRE_PLAYERS, Outbox, mail, player_addr
from support.host_fixture import EIRE
from support.joining import confirm_waiting
from support.orders_games import ORDERS

pytestmark = pytest.mark.spec("2.5")


def test_rules_in_an_orders_game_say_what_governs_it_not_an_empty_rule_list(
    referee, smtp, tmp_path
):
    """SPEC §2.5: [Rules] is "the current ruleset". In Eire and a GM's orders game it listed an
    empty rule list and everybody's score of 0 ("The rule list of Eire / Scores: Finn: 0"), and
    the site's rules page (§4.5) said "The ruleset is empty."; both now say the game has no rule
    list that proposals change, what governs it, and its parameters."""
    from support.site import publish_after_each_change, valid

    site = tmp_path / "site"
    publish_after_each_change(referee, site)
    referee.create_game("eire", "eire", EIRE, name="Eire", gm="gm@ref.example")
    referee.create_game("diplo", "orders", ORDERS, name="Diplo", gm="gm@ref.example")
    for name, choices in EIRE_PLAYERS.items():
        smtp(
            mail(player_addr(name), EIRE, "[Join]", f"Name: {name}\n{choices}\n"),
            player_addr(name),
            EIRE,
        )
        confirm_waiting(referee)
    finn = player_addr("Finn")
    smtp(mail(finn, ORDERS, "[Join]", "Name: Finn"), finn, ORDERS)
    confirm_waiting(referee)
    box = Outbox(referee)
    box.new()
    smtp(mail(finn, EIRE, "[Rules]", ""), finn, EIRE)
    (reply,) = box.new()
    said = Outbox.body(reply)
    assert reply["X-Mailref-Kind"] == "ruleset" and "Scores:" not in said, said
    assert "Eire has no rule list that proposals change." in said, said
    assert "docs/games/eire.md" in said and "Victory: Dominion (22 contiguous lands)" in said, said
    assert "  turn_length = 2d" in said and "  walk_in = on" in said, said
    smtp(mail(finn, ORDERS, "[Rules]", ""), finn, ORDERS)
    (reply,) = box.new()
    said = Outbox.body(reply)
    assert (
        "Diplo has no rule list that proposals change." in said
        and "The GM adjudicates every turn" in said
    ), said
    assert "  orders_final = replace" in said and "Scores:" not in said, said
    smtp(mail(finn, ORDERS, "[Help]", ""), finn, ORDERS)
    assert "[Status], [Rules], [Help], [Quit]" in Outbox.body(box.new()[0])
    for slug, said in (
        ("eire", "Eire has no rule list that proposals change. It is played by the rules of Eire"),
        ("diplo", "Diplo has no rule list that proposals change. The GM adjudicates every turn"),
    ):
        valid(site, slug)
        page = " ".join(re.sub(r"<[^>]+>", " ", (site / slug / "rules.html").read_text()).split())
        assert (
            said in page
            and "The ruleset is empty" not in page
            and "The current ruleset" not in page
        ), page
        assert "Parameters" in page and "turn_length = 2d" in page, page
