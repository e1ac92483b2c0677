"""The columns a rule's text declares, read from the common sentence forms when unmistakable
(SPEC §5.2, the gamestate): sentence in, declaration out."""

from __future__ import annotations

import pytest

from mailref.engine.mechanics import columns
from mailref.engine.ruleset_file import shipped_rules

FORMS = [
    (
        "Each Wizard has an amount of Thaum, which is a nonnegative integer, tracked in the GNDT.",
        [{"slug": "thaum", "kind": "integer", "min": 0, "default": 0}],
    ),
    (
        "Each Wizard has an amount of Gold, which is a nonnegative integer, tracked in the GNDT. "
        "Gold defaults to 10.",
        [{"slug": "gold", "kind": "integer", "min": 0, "default": 10}],
    ),
    (
        "Each Wizard has an amount of Debt, which is an integer, tracked in the GNDT.",
        [{"slug": "debt", "kind": "integer", "min": None, "default": 0}],
    ),
    (
        "A Wizard may have up to four cards in their hand; the contents of each Wizard’s hand are "
        "tracked as a comma-delineated list in the field “Hand” in the GNDT.",
        [{"slug": "hand", "kind": "list", "max_len": 4, "default": []}],
    ),
    (
        'Items are tracked as a comma-delineated list in the field "Bag" in the GNDT.',
        [{"slug": "bag", "kind": "list", "max_len": None, "default": []}],
    ),
    (
        "Each Wizard has a Home, tracked in the GNDT - a Wizard’s Home is a Community, defaulting "
        "to the Wilderness if it exists.",
        [{"slug": "home", "kind": "text", "default": "Wilderness"}],
    ),
    (
        "Each Wizard has a Mood, which is one of Happy, Sad or Angry, tracked in the GNDT.",
        [
            {
                "slug": "mood",
                "kind": "choice",
                "choices": ["Happy", "Sad", "Angry"],
                "default": "Happy",
            }
        ],
    ),
    (
        "Each Wizard has a Patron, which is the name of a Wizard, tracked in the GNDT.",
        [{"slug": "patron", "kind": "player", "default": ""}],
    ),
    (
        "Each Wizard has an amount of Coins, which is an asset. Coins defaults to 10.",
        [{"slug": "coins", "kind": "asset", "min": 0, "default": 10}],
    ),
    (
        "Each Player has an amount of Spendies, which is a currency, tracked in the GNDT.",
        [{"slug": "spendies", "kind": "asset", "min": 0, "default": 0}],
    ),
    # Not unmistakable: nothing is declared.
    ("Each Wizard has 3 Gold.", []),
    ("Each Community has a Name (between one and two words).", []),
    ("Each Wizard has a Secret, which is whatever they like, tracked in the GNDT.", []),
]


@pytest.mark.parametrize(("text", "want"), FORMS)
def test_a_sentence_form_declares_its_column(text, want):
    got = columns.declared("2.9", text)
    assert [{k: c.get(k) for k in w} for c, w in zip(got, want, strict=False)] == want
    assert len(got) == len(want)
    assert all(c["rule"] == "2.9" for c in got)


def test_the_seed_dynasty_declares_thaum_hand_and_home():
    rules = shipped_rules("blognomic")
    got = {c["slug"]: c for c in columns.from_rules(rules)}
    assert sorted(got) == ["hand", "home", "thaum"]
    assert (got["hand"]["max_len"], got["home"]["default"], got["thaum"]["min"]) == (
        4,
        "Wilderness",
        0,
    )


def test_a_rule_read_again_declares_the_same_columns_each_its_own():
    rules = shipped_rules("blognomic")
    first = columns.from_rules(rules)
    read_anew = [
        c
        for r in rules
        for c in columns._declared.__wrapped__(str(r.get("number", "")), str(r.get("text") or ""))
    ]
    assert first == read_anew
    first[0]["default"] = "changed by its caller"
    hand = next(c for c in first if c["slug"] == "hand")
    hand["max_len"] = 99
    again = columns.from_rules(rules)
    assert again == read_anew
    assert all(a is not b for a, b in zip(first, again, strict=True))


@pytest.mark.parametrize(
    ("column", "value", "code"),
    [
        ({"name": "Thaum", "kind": "integer", "min": 0}, -1, "column_below"),
        ({"name": "Thaum", "kind": "integer", "min": 0, "max": 9}, 10, "column_above"),
        (
            {"name": "Hand", "kind": "list", "max_len": 4},
            ["a", "b", "c", "d", "e"],
            "column_too_long",
        ),
        ({"name": "Hand", "kind": "list", "max_len": 4}, ["Fox", "fox"], "column_repeats"),
        ({"name": "Mood", "kind": "choice", "choices": ["Happy"]}, "Sad", "column_not_a_choice"),
        ({"name": "Patron", "kind": "player"}, "Zed", "column_not_a_player"),
    ],
)
def test_a_value_its_column_forbids_is_faulted(column, value, code):
    assert columns.fault(column, value, ["Ann", "Bob"]).code == code


def test_a_value_its_column_allows_is_not_faulted():
    assert columns.fault({"name": "Hand", "kind": "list", "max_len": 4}, ["a"] * 0, []) is None
    assert columns.fault({"name": "Patron", "kind": "player"}, "ann", ["Ann"]) is None
