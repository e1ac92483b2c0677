"""A game from the GM's own ruleset file (docs/rulesets.md): checked on load, every problem
one line with its line number; `--dry-run` shows the game it would make. A game exported as it
stands, and imported to go on here."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mailref.cli.args import Usage
from mailref.safe import printable

# The ruleset readers load the variants: imported where a command uses them, so that
# `mailref --help` and the other commands start without them (tests/operating/test_startup.py).
if TYPE_CHECKING:
    from mailref.engine.ruleset_file import Ruleset
    from mailref.referee import Referee


def read_ruleset(path: str) -> Ruleset | None:
    """The ruleset in the file at PATH; None, with each problem printed on stderr, if any."""
    from mailref.engine.ruleset_file import RulesetProblems, load

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
    from mailref.engine.ruleset_file import TABLES

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
    text = export(state, shown, dice_in_use(referee, args.slug))
    if args.to:
        Path(args.to).write_text(text, encoding="utf-8")
        print(f"game {args.slug} written to {args.to}")
    else:
        sys.stdout.write(text)
    return 0


def dice_in_use(referee: Referee, slug: str) -> dict[str, Any] | None:
    """The game's unrevealed seed and the entries drawn by: the file's dice part, secret as the
    orders of the turn are (the file is the GM's, as the database is the host's)."""
    from sqlalchemy import select

    from mailref.engine.game_file import seed_in_use
    from mailref.store import Game
    from mailref.store import dice as dice_store

    with referee.store() as s:
        game = s.scalar(select(Game).where(Game.slug == slug))
        if game is None:
            return None
        unrevealed = [x for x in dice_store.seeds(s, game.id) if x.revealed_at is None]
        if not unrevealed:
            return None
        before = game.state.get("entries_before")
        return seed_in_use(game.version, before, unrevealed[-1].number, unrevealed[-1].seed)


def cmd_game_import(referee: Referee, args: argparse.Namespace, who: str) -> int:
    """A game from the file `game export` wrote, going on here from where it stood; or, with
    --from-text, a new game from a plain published ruleset."""
    from mailref.cli.args import checked_address

    if args.from_text:
        return cmd_game_import_text(referee, args, who)
    if not args.file:
        raise Usage("name the game's file, or --from-text RULES.txt")
    from mailref.engine.game_file import parse
    from mailref.engine.ruleset_file import RulesetProblems

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


def from_text(args: argparse.Namespace) -> Ruleset:
    """The ruleset of a plain published text (engine/rules_text.py), every rule judged by people
    until the GM binds parameters to them (`game bind`)."""
    from mailref.engine.rules_text import read_rules
    from mailref.engine.ruleset_file import MECHANICS, Ruleset

    try:
        read = read_rules(Path(args.from_text).read_text(encoding="utf-8"))
    except OSError as e:
        raise Usage(f"--from-text {args.from_text}: {e.strerror}") from None
    if not read.rules:
        raise Usage(f"--from-text {args.from_text}: no numbered or headed rules in it")
    variant = args.variant or "sidekick"
    main = next((k for k, m in MECHANICS.items() if m.main and variant in m.variants), None)
    if main is None:
        raise Usage(f"--variant {variant}: a text makes a Nomic: sidekick, blognomic or imperial")
    rules = [{k: r[k] for k in ("number", "title", "text")} for r in read.rules]
    lines = [
        f"  rule {r['number']} " + (r["title"] or '"' + " ".join(r["text"].split()[:8]) + ' ..."')
        for r in read.rules
    ]
    kept = f"; the words before rule {rules[0]['number']} kept as the preamble"
    args.read_lines = [
        f"{len(rules)} rules, each kept verbatim and judged by people until `mailref game bind`"
        + (kept if read.preamble else ""),
        *(
            line + (f" (written as {r['written']})" if r.get("written") else "")
            for line, r in zip(lines, read.rules, strict=True)
        ),
    ]
    return Ruleset(
        name=args.name or "",
        mechanics=[main],
        variant=variant,
        rules=rules,
        preamble=read.preamble,
    )


def cmd_game_import_text(referee: Referee, args: argparse.Namespace, who: str) -> int:
    """A new game from a plain published ruleset, its players joining by mail."""
    from mailref.cli.args import checked_address

    ruleset = args.from_text
    if not args.address:
        raise Usage("the game needs its own mail address: --address ADDRESS")
    address = checked_address(args.address, "--address", ascii_local=True)
    gm = checked_address(args.gm, "--gm") if args.gm is not None else None
    referee.create_game(args.slug, ruleset.variant, address, args.name, gm, "UTC", {}, ruleset)
    print(f"game {args.slug} ({ruleset.variant}) created at {address} from the text")
    for line in args.read_lines[:1]:
        print(printable(line))
    return 0


def cmd_game_bind(referee: Referee, args: argparse.Namespace, who: str) -> int:
    """Parameter PARAM is stated by RULE: the game runs by the value the rule says."""
    from mailref.cli.acting import act

    return act(referee, args, who, {"type": "bind", "key": args.param, "rule": args.rule})
