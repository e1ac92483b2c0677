"""docs/operating.md names every command the CLI has, each with its help line: the operator's
list of commands, the ones added after SPEC's list too."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path

from mailref.cli.parser import build_parser

OPERATING = Path(__file__).parents[2] / "docs" / "operating.md"


def commands(parser: argparse.ArgumentParser, words: tuple[str, ...] = ()) -> Iterator[tuple]:
    """Each command the parser runs, as its words and its help line."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                nested = any(isinstance(a, argparse._SubParsersAction) for a in sub._actions)
                if nested:
                    yield from commands(sub, (*words, name))
                else:
                    yield (*words, name), sub.description


def test_operating_md_lists_every_command_with_its_help_line():
    text = OPERATING.read_text(encoding="utf-8")
    found = list(commands(build_parser()))
    assert ("game", "export") in [words for words, _ in found]
    missing = [
        " ".join(words)
        for words, does in found
        if f"| `mailref {' '.join(words)}` | {does.replace('|', '/')} |" not in text
    ]
    assert not missing, f"docs/operating.md's 'Every command' lacks: {missing}"
