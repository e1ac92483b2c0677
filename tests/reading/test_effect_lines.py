"""The effect lines of a ruling, a CfJ or a Proclamation (SPEC §4.4), read from their own lines."""

from __future__ import annotations

import pytest

from mailref.read.effects import read_effects, without_effects

pytestmark = pytest.mark.spec("4.4")


def test_each_form_of_effect_line_is_read():
    text = (
        "The move broke rule 9.\n"
        "Undo entry 5, 6 and #7\n"
        "Undo proposal 3.\n"
        "Undo the vote of Bob Smith on proposal 3\n"
        "Score Alice -10\n"
        "score of Al: +5 points\n"
        "Score Bob \u2212 3\n"
    )
    assert read_effects(text) == [
        {"entry": 5},
        {"entry": 6},
        {"entry": 7},
        {"proposal": 3},
        {"vote": 3, "player": "Bob Smith"},
        {"score": "Alice", "amount": -10},
        {"score": "Al", "amount": 5},
        {"score": "Bob", "amount": -3},
    ]


def test_prose_that_mentions_undoing_is_not_an_effect_line():
    """Only a line that is wholly an effect line counts: a wrong guess undoes a move."""
    text = "I would undo proposal 3 if I could.\nScore Alice -10 seems harsh, but\nUndo it all!"
    assert read_effects(text) == []


def test_rule_changes_are_read_without_the_effect_lines():
    text = 'Enact rule 24 "Tea":\nAll drink tea.\nScore Alice -10\n'
    assert without_effects(text) == 'Enact rule 24 "Tea":\nAll drink tea.'


def test_a_long_line_is_read_as_no_effect():
    assert read_effects("undo entry " + "1, " * 5000 + "x") == []
    assert read_effects("Score " + "a " * 10000 + "x") == []


def test_a_set_line_names_a_column_a_player_and_a_value():
    from mailref.read.effects import read_effects, without_effects

    text = "Bob lost it.\nSet Thaum of Bob to 5.\nSet Hand of Ann to Fox, Owl"
    assert read_effects(text) == [
        {"set": "Thaum", "player": "Bob", "value": "5"},
        {"set": "Hand", "player": "Ann", "value": "Fox, Owl"},
    ]
    assert without_effects(text) == "Bob lost it."
