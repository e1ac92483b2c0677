"""A game from the GM's own ruleset file (docs/rulesets.md): checked on load, every problem
one line with its line number; `--dry-run` shows the game it would make. A game exported as it
stands, and imported to go on here."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from mailref.cli.args import Usage
from mailref.engine.ruleset_file import TABLES, Ruleset, RulesetProblems, load
from mailref.safe import printable

if TYPE_CHECKING:
    from mailref.referee import Referee


def read_ruleset(path: str) -> Ruleset | None:
    """The ruleset in the file at PATH; None, with each problem printed on stderr, if any."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise Usage(f"--ruleset {path}: {e.strerror}") from None
    try:
        return load(text, path)
    except RulesetProblems as e:
        for line in e.problems:
            print(printable(f"{path}: {line}"), file=sys.stderr)
        return None


def game_lines(ruleset: Ruleset) -> list[str]:
    """The game a ruleset makes, as `--dry-run` prints it."""
    table = TABLES[ruleset.variant]
    lines = [
        f"name: {ruleset.name or '(the variant title)'}",
        f"mechanics: {', '.join(ruleset.mechanics)} (run as {ruleset.variant})",
    ]
    if ruleset.noun:
        lines.append(f"a player is called: {ruleset.noun}")
    lines.append("parameters:")
    for name, value in ruleset.values.items():
        stated = f"rule {ruleset.bindings[name]}" if name in ruleset.bindings else "set"
        lines.append(f"  {name} = {table.shown(name, value)}  ({stated})")  # type: ignore[arg-type]
    if ruleset.runs:
        lines.append("run by the referee's code:")
        lines += [f"  rule {n}: {what}" for n, what in ruleset.runs.items()]
    lines.append("judged by people:")
    lines += [f"  rule {r['number']} {r['title']}".rstrip() for r in ruleset.judged_by_people()]
    return lines


def dry_run(ruleset: Ruleset | None) -> int:
    """Print the game `game create --ruleset FILE` would make (none: the file's problems were
    printed); touch no database."""
    if ruleset is None:
        return 1
    for line in game_lines(ruleset):
        print(printable(line))
    return 0


def cmd_game_export(referee: Referee, args: argparse.Namespace, who: str) -> int:
    """The game as it stands, as a file `game import` reads (docs/rulesets.md)."""
    from mailref.engine import get_variant
    from mailref.engine.game_file import export, shown_values

    state = referee.state(args.slug)
    table = get_variant(state["variant"]).parameter_table
    values = state["parameters"]
    shown = shown_values(table, values)
    text = export(state, shown)
    if args.to:
        Path(args.to).write_text(text, encoding="utf-8")
        print(f"game {args.slug} written to {args.to}")
    else:
        sys.stdout.write(text)
    return 0


def cmd_game_import(referee: Referee, args: argparse.Namespace, who: str) -> int:
    """A game from the file `game export` wrote, going on here from where it stood."""
    from mailref.cli.args import checked_address
    from mailref.engine.game_file import parse

    try:
        text = Path(args.file).read_text(encoding="utf-8")
    except OSError as e:
        raise Usage(f"{args.file}: {e.strerror}") from None
    try:
        _, state = parse(text, args.file)
    except RulesetProblems as e:
        for line in e.problems:
            print(printable(f"{args.file}: {line}"), file=sys.stderr)
        return 1
    address = checked_address(args.address or state["address"], "--address", ascii_local=True)
    referee.import_game(args.slug, address, state, who)
    print(f"game {args.slug} ({state['variant']}) imported at {address}; its players are told")
    return 0
