"""A ruleset file a GM writes (docs/rulesets.md): read whole, each problem one line with its
line number and what to write instead."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mailref.engine.ruleset_file import RulesetProblems, load
from support.cli import run as cli

PEBBLE = Path(__file__).parents[2] / "examples" / "pebble.nomic"

GOOD = """\
name: Tiny
mechanics: turn-order
bind turn_timeout: 2
set vote_timeout: 2d

## 1 Obey
Obey the rules.

## 2 Moving
A mover who does not move within five days loses the turn.
"""


def problems(text: str) -> list[str]:
    with pytest.raises(RulesetProblems) as e:
        load(text, "bad.nomic")
    return e.value.problems


def test_a_ruleset_file_gives_rules_mechanics_and_bound_values():
    r = load(PEBBLE.read_text())
    assert r.name == "Pebble Nomic" and r.variant == "sidekick"
    assert r.values["win_score"] == 40 and r.bindings["win_score"] == "7"
    assert (r.values["pass_points"], r.values["fail_points"]) == (10, -5)
    assert [x["number"] for x in r.judged_by_people()] == ["1", "2", "3", "10"]
    two = next(x for x in r.rules if x["number"] == "2")
    assert two["title"] == "Changing the rules"
    assert two["text"] == (
        "A rule change is the enactment, repeal or amendment of a rule. Every rule change is "
        "made by a\nproposal that passes."
    )


def test_a_small_file_sets_what_no_rule_states():
    r = load(GOOD)
    assert r.values == {"turn_timeout": "5d", "vote_timeout": "2d"}
    assert [x["number"] for x in r.judged_by_people()] == ["1"]


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            ("bind turn_timeout: 2", "bind turn_timeout: 1"),
            "line 3: rule 1 does not state turn_timeout once and plainly: bind turn_timeout to "
            "the rule that does, or `set` it",
        ),
        (
            ("bind turn_timeout: 2", "bind turn_timeout: 9"),
            "line 3: turn_timeout is bound to rule 9, not in the file",
        ),
        (
            ("set vote_timeout: 2d\n", ""),
            "line 2: turn-order needs vote_timeout: write `bind vote_timeout: RULE` for the "
            "rule that states it, or `set vote_timeout: VALUE`",
        ),
        (
            ("## 2 Moving", "## 1 Moving"),
            "line 9: rule 1 is numbered twice (first at line 6): give this rule a number of its "
            "own",
        ),
        (
            ("## 2 Moving", "## two Moving"),
            "line 9: 'two' is not a rule number: write `## 7 Title`, or `## 7.2 Title` for a "
            "sub-rule",
        ),
        (
            ("mechanics: turn-order", "mechanics: turn-order, wands"),
            "line 2: no mechanic 'wands': write some of turn-order, concurrent-matters, senate, "
            "points, judges, absence, dice, offices",
        ),
        (
            ("mechanics: turn-order", "mechanics: turn-order, senate"),
            "line 2: name exactly one of turn-order, concurrent-matters, senate in `mechanics:`",
        ),
        (
            ("set vote_timeout: 2d", "set vote_timeout: soon"),
            "line 4: 'soon' is no value of vote_timeout: write one as `mailref game set` takes "
            "it, e.g. `set vote_timeout: 5d`",
        ),
        (
            ("name: Tiny", "title = Tiny"),
            "line 1: 'title = Tiny' is not a header line: write one of `name: ...`, "
            "`mechanics: ...`, `noun: ...`, `bind PARAM: RULE`, `set PARAM: VALUE`, "
            "`runs RULE: what the referee does`, or start the rules with `## 1 Title`",
        ),
    ],
)
def test_each_bad_file_gets_one_line_per_problem_with_its_line_number(change, expected):
    assert problems(GOOD.replace(*change)) == [expected]


def test_a_file_with_several_problems_lists_each_once():
    text = GOOD.replace("## 2 Moving", "## 1 Moving").replace("set vote_timeout: 2d\n", "")
    assert problems(text) == [
        "line 8: rule 1 is numbered twice (first at line 5): give this rule a number of its own",
        "line 2: turn-order needs vote_timeout: write `bind vote_timeout: RULE` for the rule "
        "that states it, or `set vote_timeout: VALUE`",
    ]


def test_dry_run_prints_mechanics_parameters_and_rules_judged_by_people(tmp_path):
    run = subprocess.run(
        [sys.executable, "-m", "mailref", "game", "create", "pebble"]
        + ["--ruleset", str(PEBBLE), "--dry-run"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "mechanics: turn-order, points, judges, absence, dice (run as sidekick)" in out
    assert "  win_score = 40  (rule 7)" in out
    assert "  founders = 2  (set)" in out
    assert "judged by people:\n  rule 1 Obedience\n" in out
    assert "  rule 10 Courtesy" in out
    assert not list(tmp_path.iterdir())  # no database made


def test_a_bad_file_is_refused_by_the_cli_with_its_lines(tmp_path):
    bad = tmp_path / "bad.nomic"
    bad.write_text(GOOD.replace("## 2 Moving", "## 1 Moving"))
    run = subprocess.run(
        [sys.executable, "-m", "mailref", "game", "create", "tiny"]
        + ["--ruleset", str(bad), "--address", "tiny@example.org"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert run.returncode == 1
    assert run.stderr.splitlines() == [
        f"{bad}: line 9: rule 1 is numbered twice (first at line 6): give this rule a number of "
        "its own",
    ]


def test_game_create_from_a_ruleset_file_makes_its_game(tmp_path):
    assert cli(tmp_path, "init").returncode == 0
    made = cli(
        tmp_path, "game", "create", "pebble", "--ruleset", str(PEBBLE), "--address", "p@x.org"
    )
    assert made.returncode == 0, made.stderr
    assert "game pebble (sidekick) created at p@x.org" in made.stdout
    shown = json.loads(cli(tmp_path, "game", "show", "pebble", "--json").stdout)
    assert shown["name"] == "Pebble Nomic"
    assert shown["parameters"]["win_score"] == 40
    assert [r["title"] for r in shown["rules"]][-1] == "Courtesy"
    both = cli(tmp_path, "game", "create", "p2", "--ruleset", str(PEBBLE), "--variant", "sidekick")
    assert both.returncode == 2
