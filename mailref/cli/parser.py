"""The command line's grammar: every command, subcommand and option, each with its help line."""

from __future__ import annotations

import argparse


def row_id(value: str) -> int:
    """A row number as SQLite and PostgreSQL can hold it."""
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a number") from None
    if not 0 < n < 2**63:
        raise argparse.ArgumentTypeError(f"{value} is not a row number (1 to {2**63 - 1})")
    return n


def _help(
    parent: argparse._SubParsersAction[argparse.ArgumentParser],
    name: str,
    help: str,
    parents: list[argparse.ArgumentParser],
) -> argparse.ArgumentParser:
    """A subcommand; its one-line help shows in the parent's --help and as its own description."""
    return parent.add_parser(name, parents=parents, help=help, description=help)


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    # SUPPRESS: an option given before the command is not reset by the subcommand's parser.
    common.add_argument(
        "--config",
        default=argparse.SUPPRESS,
        help="mailref.toml (default: $MAILREF_CONFIG, ./mailref.toml, embedded defaults)",
    )
    common.add_argument(
        "--reason",
        default=argparse.SUPPRESS,
        help="why; recorded in the journal and told to the players",
    )
    common.add_argument(
        "--as",
        dest="who",
        default=argparse.SUPPRESS,
        help="who does this (default: the login name)",
    )
    p = argparse.ArgumentParser(
        prog="mailref", description="mail referee for play-by-email games", parents=[common]
    )
    sub = p.add_subparsers(dest="cmd", required=True, metavar="COMMAND")

    def cmd(
        parent: argparse._SubParsersAction[argparse.ArgumentParser], name: str, help: str
    ) -> argparse.ArgumentParser:
        return _help(parent, name, help, [common])

    def group(name: str, help: str) -> argparse._SubParsersAction[argparse.ArgumentParser]:
        return cmd(sub, name, help).add_subparsers(dest="sub", required=True, metavar="SUBCOMMAND")

    def json_flag(c: argparse.ArgumentParser) -> None:
        c.add_argument(
            "--json", action="store_true", help="print one JSON document instead of a table"
        )

    slug_help = "the game's short name"
    c = cmd(
        sub,
        "init",
        "write a commented mailref.toml (state under /var/lib/mailref when DIR is under /etc)",
    )
    c.add_argument(
        "dir", nargs="?", default=".", help="the folder for mailref.toml (default: here)"
    )
    cmd(sub, "serve", "run the daemon: SMTP listener, IMAP poller, deadlines, delivery")
    cmd(sub, "check", "check the configuration and connect to each server it names")
    db = group("db", "the database schema")
    cmd(db, "upgrade", "bring the database to the newest schema")
    cmd(
        db, "backup", "copy the SQLite database to FILE, consistent, while the daemon runs"
    ).add_argument("file", help="a new file for the copy")

    game = group("game", "create, list, show and steer games")
    c = cmd(game, "create", "create a game at its own mail address")
    c.add_argument("slug", help="short name: lower-case letters, digits, - and _")
    c.add_argument("--variant", help="the rules: sidekick, blognomic, imperial, eire or orders")
    c.add_argument(
        "--ruleset", metavar="FILE", help="the game's own ruleset file (docs/rulesets.md)"
    )
    c.add_argument(
        "--dry-run",
        action="store_true",
        help="with --ruleset: print the game it would make, and make none",
    )
    c.add_argument("--address", help="the game's own mail address, where players write")
    c.add_argument("--name", help="the game's display name (default: the variant's title)")
    c.add_argument("--gm", help="the game master's mail address (digests and alerts)")
    c.add_argument(
        "--timezone",
        help="the zone deadlines are shown in, e.g. Europe/Paris (default: the configuration's)",
    )
    c.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game parameter; repeatable",
    )
    json_flag(cmd(game, "list", "list the games"))
    c = cmd(game, "export", "write the game as it stands: its ruleset, players and open matters")
    c.add_argument("slug", help=slug_help)
    c.add_argument("--to", metavar="FILE", help="the file to write (default: standard output)")
    c = cmd(game, "import", "make a game from the file `game export` wrote; it goes on here")
    c.add_argument("slug", help="short name: lower-case letters, digits, - and _")
    c.add_argument("file", nargs="?", help="the game's file, as `game export` wrote it")
    c.add_argument("--address", help="the game's mail address here (default: the file's)")
    c.add_argument(
        "--from-text",
        metavar="RULES",
        help="a new game from a plain ruleset (numbered or headed rules), each judged by people",
    )
    c.add_argument("--variant", help="with --from-text: the engine (default: sidekick)")
    c.add_argument("--name", help="with --from-text: the game's name")
    c.add_argument("--gm", help="with --from-text: the game master's mail address")
    c.add_argument(
        "--dry-run", action="store_true", help="with --from-text: print what was read, make none"
    )
    c = cmd(game, "bind", "bind a parameter to the rule of the game's rule list that states it")
    c.add_argument("slug", help=slug_help)
    c.add_argument("param", help="the parameter, e.g. win_score")
    c.add_argument("rule", help="the rule's number")
    c = cmd(game, "show", "show a game's state")
    c.add_argument("slug", help=slug_help)
    c.add_argument(
        "--json", action="store_true", help="the stable machine-readable state (SPEC 1.5)"
    )
    c = cmd(game, "set", "change game parameters")
    c.add_argument("slug", help=slug_help)
    c.add_argument("values", nargs="+", metavar="KEY=VALUE", help="parameters to change")
    for name, text in (
        ("start", "open the first turn of a forming game"),
        ("pause", "pause a game's deadlines"),
        ("resume", "resume a paused game"),
    ):
        cmd(game, name, text).add_argument("slug", help=slug_help)

    player = group("player", "add players and change their status")
    c = cmd(player, "add", "add a player")
    c.add_argument("slug", help=slug_help)
    c.add_argument("name", help="the player's name in the game")
    c.add_argument("email", help="the player's mail address")
    c.add_argument(
        "--email",
        dest="more",
        action="append",
        default=[],
        help="another address of the player; repeatable",
    )
    c.add_argument(
        "--choice",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="variant choices (Eire: color, tribe, origin)",
    )
    for name, text in (
        ("remove", "remove a player from the game"),
        ("away", "mark a player away (no deadlines)"),
        ("back", "mark an away or idle player active again"),
        ("idle", "mark a player idle"),
    ):
        c = cmd(player, name, text)
        c.add_argument("slug", help=slug_help)
        c.add_argument("name", help="the player's name")
        if name == "away":
            c.add_argument(
                "--until",
                metavar="DATE",
                help="the day the absence ends by itself, as a player writes it in [Away] "
                'until DATE ("6 Jan", "2027-01-06"); at most max_absence ahead',
            )
    c = cmd(player, "vacate", "open a player's seat to a substitute's [Takeover]")
    c.add_argument("slug", help=slug_help)
    c.add_argument("name", help="the seat's name (the player who holds it)")

    c = cmd(sub, "office", "assign or vacate an office (admin, gm, historian, emperor, scribe ...)")
    c.add_argument("slug", help=slug_help)
    c.add_argument("office", help="the office's name")
    c.add_argument("player", nargs="?", help="who holds it from now on (omit to vacate)")

    prop = group("proposal", "decide a proposal by hand")
    for name in ("enact", "fail", "veto"):
        c = cmd(prop, name, f"{name} a proposal now")
        c.add_argument("slug", help=slug_help)
        c.add_argument("number", type=int, help="the proposal's number")
        c.add_argument(
            "--reopen",
            action="store_true",
            help="reverse a result the referee already closed (a fail into a pass, or a pass "
            "into a fail); every player is told",
        )

    c = cmd(sub, "vote", "set or override a player's ballot")
    c.add_argument("slug", help=slug_help)
    c.add_argument("number", type=int, help="the proposal's number")
    c.add_argument("player", help="whose ballot")
    c.add_argument("vote", help="the vote word, e.g. FOR, AGAINST, DEF")

    rule = group("rule", "proclamations and GM corrections to the ruleset")
    c = cmd(rule, "add", "enact a new rule")
    c.add_argument("slug", help=slug_help)
    c.add_argument("number", help="the rule's number")
    c.add_argument("title", help="the rule's title")
    c.add_argument("text", help="the rule's text, or - to read it from standard input")
    c = cmd(rule, "amend", "replace a rule's text")
    c.add_argument("slug", help=slug_help)
    c.add_argument("number", help="the rule's number or title")
    c.add_argument("text", help="the new text, or - for standard input")
    c = cmd(rule, "repeal", "repeal a rule")
    c.add_argument("slug", help=slug_help)
    c.add_argument("number", help="the rule's number or title")
    c = cmd(rule, "retitle", "give a rule a new title")
    c.add_argument("slug", help=slug_help)
    c.add_argument("number", help="the rule's number or title")
    c.add_argument("title", help="the new title")

    c = cmd(sub, "score", "change a player's score")
    c.add_argument("slug", help=slug_help)
    c.add_argument("player", help="whose score")
    c.add_argument("change", help="+N, -N or =N")
    column = group("column", "the gamestate's columns: per-player values the rules track")
    c = cmd(column, "add", "declare a column no rule's sentence declares")
    c.add_argument("slug", help=slug_help)
    c.add_argument("name", help="the column's name, one word: Gold")
    c.add_argument(
        "kind",
        choices=["integer", "asset", "text", "list", "choice", "player"],
        help="what its values are: a whole number, an asset (moved by [Transfer], never below "
        "0), words, a list, one of --choices, a player",
    )
    c.add_argument("--default", help="the value every player starts with")
    c.add_argument("--min", type=int, help="integer: the least value (0: nonnegative)")
    c.add_argument("--max", type=int, help="integer: the greatest value")
    c.add_argument("--max-len", type=int, help="list: the most items")
    c.add_argument("--choices", help="choice: the values, comma-separated")
    c = cmd(sub, "deadline", "extend or set the current deadline")
    c.add_argument("slug", help=slug_help)
    c.add_argument("how", choices=["extend", "set"], help="extend by a duration, or set a time")
    c.add_argument(
        "value",
        help="a duration like 1d12h (extend) or an ISO time like 2026-12-05T10:00:00Z (set)",
    )

    mail = group("mail", "the inbox: every mail received, kept raw")
    c = cmd(mail, "list", "list received mail, newest first")
    c.add_argument(
        "--status",
        choices=["new", "processed", "ignored", "failed"],
        help="only this status: new, processed, ignored or failed",
    )
    c.add_argument("--limit", type=int, default=50, help="at most this many (default 50)")
    json_flag(c)
    cmd(mail, "show", "show one received mail, raw").add_argument(
        "id", type=row_id, help="the inbox number (#ID)"
    )
    cmd(mail, "reprocess", "process a failed mail again").add_argument(
        "id", type=row_id, help="the inbox number (#ID)"
    )

    out = group("outbox", "the outbox: every mail sent or waiting")
    c = cmd(out, "list", "list outgoing mail, newest first")
    c.add_argument(
        "--status",
        choices=["queued", "sending", "sent", "failed", "dropped"],
        help="only this status: queued, sending, sent, failed or dropped",
    )
    c.add_argument("--limit", type=int, default=50, help="at most this many (default 50)")
    json_flag(c)
    cmd(out, "retry", "send failed or waiting mail now").add_argument(
        "id",
        type=row_id,
        nargs="?",
        help="only this outgoing mail (default: every failed or waiting one)",
    )
    cmd(
        out, "drop", "give up an outgoing mail for good (recorded with --as and --reason)"
    ).add_argument("id", type=row_id, help="the outgoing mail's number (#ID)")

    cmd(sub, "digest", "send the GM's digest now").add_argument("slug", help=slug_help)
    cmd(
        sub, "replay", "rebuild games from their journal and compare with the live state"
    ).add_argument("slug", nargs="?", help="only this game (default: every game)")
    c = cmd(sub, "journal", "the game's journal: entry number, time, source, who, what it did")
    c.add_argument("slug", help=slug_help)
    json_flag(c)
    c = cmd(sub, "undo", "void journal entries and replay the rest of the journal (SPEC 4.4)")
    c.add_argument("slug", help=slug_help)
    c.add_argument(
        "entries", type=row_id, nargs="+", metavar="ENTRY", help="a journal entry's number"
    )
    c.add_argument(
        "--dry-run", action="store_true", help="print what would change, and change nothing"
    )
    site = group("site", "the published pages (SPEC 4.5)")
    cmd(site, "build", "rebuild the published site now (every game, or SLUG)").add_argument(
        "slug", nargs="?", help="only this game (default: every game)"
    )
    dice = group("dice", "dice players can check (SPEC 4.4)")
    cmd(dice, "verify", "recompute every draw of a game from its revealed seeds").add_argument(
        "slug", help=slug_help
    )
    cmd(
        dice, "reveal", "reveal the seed in use, commit the next, and tell the players"
    ).add_argument("slug", help=slug_help)
    turn = group("turn", "the turn of an orders game")
    cmd(
        turn, "publish", "send the results the GM is previewing to every player (SPEC 5.4)"
    ).add_argument("slug", help=slug_help)
    return p
