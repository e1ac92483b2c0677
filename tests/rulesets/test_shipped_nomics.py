"""The shipped Nomics are ruleset files of the format a GM writes (data/VARIANT.nomic): each
loads clean, its mechanics make its variant, and each parameter it binds is bound to the rule
the variant's table names."""

from __future__ import annotations

import pytest

from mailref import resource
from mailref.engine.ruleset_file import load
from mailref.engine.variants import get_variant


@pytest.mark.parametrize("variant", ["sidekick", "blognomic", "imperial"])
def test_a_shipped_nomic_is_a_ruleset_file_agreeing_with_its_table(variant):
    ruleset = load((resource("data") / f"{variant}.nomic").read_text(), variant)
    v = get_variant(variant)
    assert ruleset.variant == variant
    assert ruleset.bindings == {p.name: p.rule for p in v.parameter_table if p.rule}
    assert v.initial_rules() == ruleset.rules
    for name in ruleset.bindings:  # the rules state what a new game starts with
        assert v.check_param(name, ruleset.values[name]) == v.check_param(
            name, v.parameter_table[name].default
        )


def test_blognomic_rules_keep_their_sections():
    rules = get_variant("blognomic").initial_rules()
    assert {r["number"]: r["section"] for r in rules}["2.1"] == "dynastic"
    assert rules[0]["section"] == "core" and rules[-1]["section"] == "appendix"
