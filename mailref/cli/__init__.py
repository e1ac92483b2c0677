"""`mailref`: the admin's face. Every command that changes a game goes through the same
door as mail, records who did it, and announces what players would expect to be told.
Exit 0 on success, 1 on a refused action (one line saying why), 2 on usage."""

from __future__ import annotations

import sys

from mailref import stopsignal

if stopsignal.serving(
    sys.argv
):  # before any other import: a SIGTERM from here on stops the daemon cleanly
    stopsignal.catch()

import argparse  # noqa: E402
import getpass  # noqa: E402
import os  # noqa: E402
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

# Light imports only: each command imports what it uses, so that a command's start-up
# (`mailref replay`, SPEC §8) does not pay for the daemon, mail, templates or the site.
from mailref import config as config_mod  # noqa: E402
from mailref.cli import (  # noqa: E402
    court,
    db,
    dice,
    games,
    inbox,
    outbox,
    players,
    replay,
    rulesets,
    site,
)
from mailref.cli.args import Usage  # noqa: E402
from mailref.cli.opening import StoreOnly, open_referee  # noqa: E402
from mailref.cli.output import refused  # noqa: E402
from mailref.cli.parser import build_parser  # noqa: E402
from mailref.engine.context import Refused  # noqa: E402
from mailref.safe import printable  # noqa: E402

__all__ = ["build_parser", "main", "run"]


def main(argv: list[str] | None = None) -> int:
    """Run the command line ARGV (default: the process's); returns the exit code."""
    if stopsignal.command_word(sys.argv[1:] if argv is None else argv) == "serve":
        stopsignal.catch()  # done at import for `mailref serve`; this is for main(["serve"])
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:
        return int(e.code or 0)
    for key in ("config", "reason", "who"):
        if not hasattr(args, key):
            setattr(args, key, None)
    try:
        return run(args)
    except Usage as e:
        print(f"mailref: {printable(e)}", file=sys.stderr)
        return 2
    except (Refused, config_mod.ConfigError) as e:
        if isinstance(e, Refused):
            return refused(e)
        return refused(str(e))
    except BrokenPipeError:
        # `mailref mail list | head`: the reader had enough. Quietly, like any Unix tool, and
        # before the store faults below (a BrokenPipeError is an OSError).
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as e:
        # Operational errors (a locked or read-only database, a port in use) are one line.
        from mailref.daemon import Fatal
        from mailref.store.faults import describe, is_store_fault

        if isinstance(e, Fatal):
            print(f"mailref: {printable(e)}", file=sys.stderr)
            return 1
        if is_store_fault(e):
            print(f"mailref: {printable(describe(e, _database_path(args)))}", file=sys.stderr)
            return 1
        raise


def _database_path(args: argparse.Namespace) -> Path | None:
    """The SQLite file the configuration names, for a store fault's message."""
    from mailref.config import sqlite_path

    try:
        return sqlite_path(config_mod.load(args.config).database)
    except config_mod.ConfigError:
        return None


def run(args: argparse.Namespace) -> int:
    """Run the parsed command ARGS; returns the exit code."""
    if args.cmd == "init":
        path = config_mod.init(args.dir)
        print(f"wrote {path}")
        if path.parent.resolve() != Path.cwd().resolve():  # commands look for ./mailref.toml only
            print(
                f"commands read it with --config {path} or MAILREF_CONFIG={path} "
                "in their environment"
            )
        return 0
    if args.cmd == "game" and getattr(args, "from_text", None):  # read before any database
        args.from_text = rulesets.from_text(args)
        if args.dry_run:
            for line in args.read_lines:
                print(printable(line))
            return 0
    if args.cmd == "game" and getattr(args, "ruleset", None):  # checked before any database
        args.ruleset = rulesets.read_ruleset(args.ruleset)
        if args.ruleset is None or args.dry_run:
            return rulesets.dry_run(args.ruleset)
    cfg = config_mod.load(args.config)
    if args.cmd == "serve":
        from mailref.daemon import serve

        return serve(cfg)
    if args.cmd == "check":
        from mailref import check

        return check.run(cfg, lambda line: print(printable(line)))
    key = (args.cmd, getattr(args, "sub", None))
    handler = COMMANDS.get(key) or COMMANDS[(args.cmd, None)]
    referee = open_referee(cfg, key if key in COMMANDS else (args.cmd, None))
    who = args.who or os.environ.get("SUDO_USER") or getpass.getuser()
    try:
        return handler(referee, args, who)
    finally:
        if isinstance(referee, StoreOnly):
            referee.close()
        else:
            referee.store.dispose()


# Each command: the referee (or StoreOnly, for those that need only the database), the
# arguments, who gave it; its exit status.
COMMANDS: dict[tuple[str, str | None], Callable[[Any, argparse.Namespace, str], int]] = {
    ("db", "upgrade"): db.cmd_db_upgrade,
    ("db", "backup"): db.cmd_db_backup,
    ("game", "create"): games.cmd_game_create,
    ("game", "list"): games.cmd_game_list,
    ("game", "export"): rulesets.cmd_game_export,
    ("game", "import"): rulesets.cmd_game_import,
    ("game", "bind"): rulesets.cmd_game_bind,
    ("game", "show"): games.cmd_game_show,
    ("game", "set"): games.cmd_game_set,
    ("game", "start"): games.cmd_game_simple,
    ("game", "pause"): games.cmd_game_simple,
    ("game", "resume"): games.cmd_game_simple,
    ("player", "add"): players.cmd_player_add,
    ("player", "remove"): players.cmd_player_status,
    ("player", "away"): players.cmd_player_status,
    ("player", "back"): players.cmd_player_status,
    ("player", "idle"): players.cmd_player_status,
    ("player", "vacate"): players.cmd_player_vacate,
    ("office", None): games.cmd_office,
    ("proposal", None): games.cmd_proposal,
    ("vote", None): games.cmd_vote,
    ("rule", None): games.cmd_rule,
    ("score", None): games.cmd_score,
    ("column", "add"): games.cmd_column_add,
    ("deadline", None): games.cmd_deadline,
    ("mail", "list"): inbox.cmd_mail_list,
    ("mail", "show"): inbox.cmd_mail_show,
    ("mail", "reprocess"): inbox.cmd_mail_reprocess,
    ("outbox", "list"): outbox.cmd_outbox_list,
    ("outbox", "retry"): outbox.cmd_outbox_retry,
    ("outbox", "drop"): outbox.cmd_outbox_drop,
    ("digest", None): games.cmd_digest,
    ("replay", None): replay.cmd_replay,
    ("journal", None): court.cmd_journal,
    ("undo", None): court.cmd_undo,
    ("site", "build"): site.cmd_site_build,
    ("dice", "verify"): dice.cmd_dice_verify,
    ("dice", "reveal"): dice.cmd_dice_reveal,
    ("turn", "publish"): dice.cmd_turn_publish,
}
