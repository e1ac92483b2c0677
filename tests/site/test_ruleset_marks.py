"""The ruleset page marks the sentences the referee runs by a parameter, with the value."""

from __future__ import annotations

import pytest

from mailref.config import SiteConfig
from mailref.site import rebuild
from support.helpers import make_referee

pytestmark = pytest.mark.spec("4.5")


def test_the_ruleset_page_marks_the_sentences_the_referee_runs_and_their_values(
    tmp_path, clock, browser
):
    """Sidekick rule 22 read as fail_points, changed by `mailref rule` to -3: the page marks
    the sentence with "a failed proposal scores -3 (fail_points = -3)"; a rule the referee does
    not run by a parameter (rule 1) has no mark."""
    referee = make_referee(tmp_path, clock)
    referee.create_game("nomes", "sidekick", "nomes@ref.example")
    referee.admin(
        "nomes",
        {
            "type": "rule",
            "changes": [
                {"kind": "replace", "number": "22", "old": "-5 points", "new": "-3 points"}
            ],
        },
        "gm",
    )
    assert referee.state("nomes")["parameters"]["fail_points"] == -3
    assert rebuild(referee.store, SiteConfig(tmp_path / "site")) == ["nomes"]
    browser.open(tmp_path / "site" / "nomes" / "rules.html")
    marks = browser.evaluate("""[...document.querySelectorAll('section.rule mark')].map(m =>
        [m.closest('section').id, m.textContent, m.title])""")
    by_rule = {rule: (text, title) for rule, text, title in marks}
    marked_rules = {"rule-4", "rule-8", "rule-11", "rule-12", "rule-17", "rule-21", "rule-22"}
    marked_rules.add("rule-23")
    assert set(by_rule) == marked_rules, marks
    assert "a rule broken costs -10 points" in by_rule["rule-4"][1]
    assert "a tie fails (tie = fails)" in by_rule["rule-12"][1]
    assert "the judge is the nearest present player before the mover" in by_rule["rule-17"][1]
    text, title = by_rule["rule-22"]
    assert "-3 points" in text and "a failed proposal scores -3 (fail_points = -3)" in title
    assert "a mover has 5d to move (turn_timeout = 5d)" in by_rule["rule-8"][1]
