"""A ruleset as groups publish it, read for the GM to confirm (`game import --from-text`): the
four seed texts and two other common shapes, every word kept verbatim, every rule judged by
people until `game bind` binds a parameter to it."""

from __future__ import annotations

from pathlib import Path

import pytest

from mailref.engine.rules_text import read_rules
from support.cli import run as cli

SEED_DIRS = [Path(__file__).parents[1] / "games" / "seeds", Path("/work/shared/seeds")]

RULES_MD = """\
# Our Nomic

The rules of our little game, as the repository keeps them.

## Immutability
These rules are hard to change.

## Proposals
Any player may open a pull request proposing a change.
It passes with two approvals.

## Winning
The first player to reach 50 points wins.
"""

RULE_COLON = """\
Rule 101: Obedience
All players must always abide by all the rules.

Rule 102: Votes
A proposal is adopted when more than half of the votes cast are FOR it.

Rule 103: Winning
A player who reaches 30 points wins the game.

Rule 101: Obedience again
A rule numbered twice by mistake keeps its words.
"""


def seed(name: str) -> str:
    for d in SEED_DIRS:
        if (d / name).exists():
            return (d / name).read_text(encoding="utf-8")
    pytest.skip(f"the seed text {name} is not on this machine")


def words(text: str) -> str:
    return "".join(text.split())


@pytest.mark.parametrize(
    ("name", "count", "first"),
    [
        ("004_d3239d30721e5133.txt", 23, ("1", "")),  # Sidekick: numbered rules, no titles
        ("000_bf224c4d4f24310b.txt", 26, ("1", "")),  # Imperial: numbers that start again
        ("002_ccc576e043ebf04a.txt", 57, ("1", "Ruleset")),  # BlogNomic: a wiki page's headings
        ("001_463f0ac7c9d711cb.txt", 8, ("1", "INTRODUCTION")),  # Eire: headings in capitals
    ],
)
def test_each_seed_text_is_read_whole_and_verbatim(name, count, first):
    text = seed(name)
    read = read_rules(text)
    assert len(read.rules) == count
    assert (read.rules[0]["number"], read.rules[0]["title"]) == first
    assert words(read.verbatim()) == words(text)
    numbers = [r["number"] for r in read.rules]
    assert len(set(numbers)) == len(numbers)


def test_numbers_written_again_get_the_next_free_number_and_say_so():
    read = read_rules(seed("000_bf224c4d4f24310b.txt"))
    seventh = read.rules[6]
    assert (seventh["number"], seventh["written"]) == ("7", "1")
    assert seventh["text"].startswith("All rules are deemed to be of one of two types")
    assert [r["number"] for r in read.rules][12:15] == ["21", "21.1", "21.2"]


def test_a_github_rules_md_is_read_by_its_headings():
    read = read_rules(RULES_MD)
    assert [(r["number"], r["title"]) for r in read.rules] == [
        ("1", "Our Nomic"),
        ("2", "Immutability"),
        ("3", "Proposals"),
        ("4", "Winning"),
    ]
    assert read.rules[2]["text"] == (
        "Any player may open a pull request proposing a change.\nIt passes with two approvals."
    )
    assert words(read.verbatim()) == words(RULES_MD)


def test_rules_written_rule_number_colon_title_keep_their_numbers():
    read = read_rules(RULE_COLON)
    assert [(r["number"], r["title"]) for r in read.rules] == [
        ("101", "Obedience"),
        ("102", "Votes"),
        ("103", "Winning"),
        ("104", "Obedience again"),
    ]
    assert read.rules[3]["written"] == "101"
    assert words(read.verbatim()) == words(RULE_COLON)


def test_a_game_from_text_runs_every_rule_by_people_until_the_gm_binds_one(tmp_path):
    rules = tmp_path / "rules.txt"
    rules.write_text(RULE_COLON)
    dry = cli(tmp_path, "game", "import", "ours", "--from-text", str(rules), "--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert dry.stdout.splitlines()[:2] == [
        "4 rules, each kept verbatim and judged by people until `mailref game bind`",
        "  rule 101 Obedience",
    ]
    assert "  rule 104 Obedience again (written as 101)" in dry.stdout
    assert not list(tmp_path.glob("var"))  # nothing made
    assert cli(tmp_path, "init").returncode == 0
    made = cli(
        tmp_path, "game", "import", "ours", "--from-text", str(rules), "--address", "o@x.org"
    )
    assert made.returncode == 0, made.stderr
    refused = cli(tmp_path, "game", "bind", "ours", "win_score", "102")
    assert refused.returncode == 1
    assert "rule 102 does not state win_score once and plainly" in refused.stderr
    bound = cli(tmp_path, "game", "bind", "ours", "win_score", "103")
    assert bound.returncode == 0, bound.stderr
    assert "win_score is stated by rule 103: the first to reach 30 points wins." in bound.stdout
    replay = cli(tmp_path, "replay")
    assert replay.returncode == 0 and "identical" in replay.stdout
