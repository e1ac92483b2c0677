"""`mailref`: the admin's face. Every command that changes a game goes through the same
door as mail, records who did it, and announces what players would expect to be told.
Exit 0 on success, 1 on a refused action (one line saying why), 2 on usage."""

from __future__ import annotations

import sys

from mailref import stopsignal

if stopsignal.serving(sys.argv):  # before any other import: a SIGTERM from here on stops the daemon cleanly
    stopsignal.catch()

import argparse  # noqa: E402
import getpass  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import re  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import TYPE_CHECKING, Any  # noqa: E402

# Light imports only: each command imports what it uses, so that a command's start-up
# (`mailref replay`, SPEC §8) does not pay for the daemon, mail, templates or the site.
from mailref import config as config_mod  # noqa: E402
from mailref.engine.context import Refused  # noqa: E402
from mailref.safe import printable  # noqa: E402
from mailref.timeutil import iso, parse_duration, parse_iso, utcnow  # noqa: E402

if TYPE_CHECKING:
    from mailref.referee import Referee
    from mailref.store import Store


class Usage(Exception):
    pass


def _kv(items: list[str]) -> dict[str, str]:
    out = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise Usage(f"{item!r} is not KEY=VALUE")
        out[key.strip()] = value.strip()
    return out


def _id(value: str) -> int:
    """A row number as SQLite and PostgreSQL can hold it."""
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a number") from None
    if not 0 < n < 2**63:
        raise argparse.ArgumentTypeError(f"{value} is not a row number (1 to {2**63 - 1})")
    return n


def _help(parent, name: str, help: str, parents: list) -> argparse.ArgumentParser:
    """A subcommand; its one-line help shows in the parent's --help and as its own description."""
    return parent.add_parser(name, parents=parents, help=help, description=help)


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    # SUPPRESS: an option given before the command is not reset by the subcommand's parser.
    common.add_argument("--config", default=argparse.SUPPRESS,
                        help="mailref.toml (default: $MAILREF_CONFIG, ./mailref.toml, embedded defaults)")
    common.add_argument("--reason", default=argparse.SUPPRESS, help="why; recorded in the journal and told to the players")
    common.add_argument("--as", dest="who", default=argparse.SUPPRESS, help="who does this (default: the login name)")
    p = argparse.ArgumentParser(prog="mailref", description="mail referee for play-by-email games", parents=[common])
    sub = p.add_subparsers(dest="cmd", required=True, metavar="COMMAND")

    def cmd(parent: argparse._SubParsersAction, name: str, help: str) -> argparse.ArgumentParser:
        return _help(parent, name, help, [common])

    def group(name: str, help: str) -> argparse._SubParsersAction:
        return cmd(sub, name, help).add_subparsers(dest="sub", required=True, metavar="SUBCOMMAND")

    def json_flag(c: argparse.ArgumentParser) -> None:
        c.add_argument("--json", action="store_true", help="print one JSON document instead of a table")

    slug_help = "the game's short name"
    c = cmd(sub, "init", "write a commented mailref.toml (state under /var/lib/mailref when DIR is under /etc)")
    c.add_argument("dir", nargs="?", default=".", help="the folder for mailref.toml (default: here)")
    cmd(sub, "serve", "run the daemon: SMTP listener, IMAP poller, deadlines, delivery")
    cmd(sub, "check", "check the configuration and connect to each server it names")
    db = group("db", "the database schema")
    cmd(db, "upgrade", "bring the database to the newest schema")
    cmd(db, "backup", "copy the SQLite database to FILE, consistent, while the daemon runs").add_argument(
        "file", help="a new file for the copy")

    game = group("game", "create, list, show and steer games")
    c = cmd(game, "create", "create a game at its own mail address")
    c.add_argument("slug", help="short name: lower-case letters, digits, - and _")
    c.add_argument("--variant", required=True, help="the rules: sidekick, blognomic, imperial, eire or orders")
    c.add_argument("--address", required=True, help="the game's own mail address, where players write")
    c.add_argument("--name", help="the game's display name (default: the variant's title)")
    c.add_argument("--gm", help="the game master's mail address (digests and alerts)")
    c.add_argument("--timezone", help="the zone deadlines are shown in, e.g. Europe/Paris (default: the configuration's)")
    c.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="a game parameter; repeatable")
    json_flag(cmd(game, "list", "list the games"))
    c = cmd(game, "show", "show a game's state")
    c.add_argument("slug", help=slug_help)
    c.add_argument("--json", action="store_true", help="the stable machine-readable state (SPEC 1.5)")
    c = cmd(game, "set", "change game parameters")
    c.add_argument("slug", help=slug_help)
    c.add_argument("values", nargs="+", metavar="KEY=VALUE", help="parameters to change")
    for name, text in (("start", "open the first turn of a forming game"), ("pause", "pause a game's deadlines"),
                       ("resume", "resume a paused game")):
        cmd(game, name, text).add_argument("slug", help=slug_help)

    player = group("player", "add players and change their status")
    c = cmd(player, "add", "add a player")
    c.add_argument("slug", help=slug_help)
    c.add_argument("name", help="the player's name in the game")
    c.add_argument("email", help="the player's mail address")
    c.add_argument("--email", dest="more", action="append", default=[], help="another address of the player; repeatable")
    c.add_argument("--choice", action="append", default=[], metavar="KEY=VALUE", help="variant choices (Eire: color, tribe, origin)")
    for name, text in (("remove", "remove a player from the game"), ("away", "mark a player away (no deadlines)"),
                       ("back", "mark an away or idle player active again"), ("idle", "mark a player idle")):
        c = cmd(player, name, text)
        c.add_argument("slug", help=slug_help)
        c.add_argument("name", help="the player's name")

    c = cmd(sub, "office", "assign or vacate an office (admin, gm, historian, emperor, scribe ...)")
    c.add_argument("slug", help=slug_help)
    c.add_argument("office", help="the office's name")
    c.add_argument("player", nargs="?", help="who holds it from now on (omit to vacate)")

    prop = group("proposal", "decide a proposal by hand")
    for name in ("enact", "fail", "veto"):
        c = cmd(prop, name, f"{name} a proposal now")
        c.add_argument("slug", help=slug_help)
        c.add_argument("number", type=int, help="the proposal's number")

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
    c = cmd(sub, "deadline", "extend or set the current deadline")
    c.add_argument("slug", help=slug_help)
    c.add_argument("how", choices=["extend", "set"], help="extend by a duration, or set a time")
    c.add_argument("value", help="a duration like 1d12h (extend) or an ISO time like 2026-12-05T10:00:00Z (set)")

    mail = group("mail", "the inbox: every mail received, kept raw")
    c = cmd(mail, "list", "list received mail, newest first")
    c.add_argument("--status", choices=["new", "processed", "ignored", "failed"],
                   help="only this status: new, processed, ignored or failed")
    c.add_argument("--limit", type=int, default=50, help="at most this many (default 50)")
    json_flag(c)
    cmd(mail, "show", "show one received mail, raw").add_argument("id", type=_id, help="the inbox number (#ID)")
    cmd(mail, "reprocess", "process a failed mail again").add_argument("id", type=_id, help="the inbox number (#ID)")

    out = group("outbox", "the outbox: every mail sent or waiting")
    c = cmd(out, "list", "list outgoing mail, newest first")
    c.add_argument("--status", choices=["queued", "sending", "sent", "failed", "dropped"],
                   help="only this status: queued, sending, sent, failed or dropped")
    c.add_argument("--limit", type=int, default=50, help="at most this many (default 50)")
    json_flag(c)
    cmd(out, "retry", "send failed or waiting mail now").add_argument(
        "id", type=_id, nargs="?", help="only this outgoing mail (default: every failed or waiting one)")
    cmd(out, "drop", "give up an outgoing mail for good (recorded with --as and --reason)").add_argument(
        "id", type=_id, help="the outgoing mail's number (#ID)")

    cmd(sub, "digest", "send the GM's digest now").add_argument("slug", help=slug_help)
    cmd(sub, "replay", "rebuild games from their journal and compare with the live state").add_argument(
        "slug", nargs="?", help="only this game (default: every game)")
    site = group("site", "the published pages (SPEC 4.5)")
    cmd(site, "build", "rebuild the published site now (every game, or SLUG)").add_argument(
        "slug", nargs="?", help="only this game (default: every game)")
    dice = group("dice", "dice players can check (SPEC 4.4)")
    cmd(dice, "verify", "recompute every draw of a game from its revealed seeds").add_argument("slug", help=slug_help)
    cmd(dice, "reveal", "reveal the seed in use, commit the next, and tell the players").add_argument(
        "slug", help=slug_help)
    turn = group("turn", "the turn of an orders game")
    cmd(turn, "publish", "send the results the GM is previewing to every player (SPEC 5.4)").add_argument(
        "slug", help=slug_help)
    return p


def main(argv: list[str] | None = None) -> int:
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
            from mailref.cli_words import for_operator

            return _refused(*for_operator(e.reason, e.hint))
        return _refused(str(e))
    except BrokenPipeError:
        # `mailref mail list | head`: the reader had enough. Quietly, like any Unix tool (this
        # was "mailref: BrokenPipeError: ..." from the store-fault path, OSError being one).
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


def _database_path(args):
    from mailref.config import sqlite_path

    try:
        return sqlite_path(config_mod.load(args.config).database)
    except config_mod.ConfigError:
        return None


def _refused(reason: str, hint: str = "") -> int:
    # One line (SPEC 1.4): the engine's hint, e.g. the known keys, follows the reason.
    print(f"mailref: refused: {printable(reason)}" + (f"; {printable(hint)}" if hint.strip() else ""), file=sys.stderr)
    return 1


# Commands that only read: they never create a database (SPEC 1.4).
READ_ONLY = {("game", "list"), ("game", "show"), ("mail", "list"), ("mail", "show"), ("outbox", "list"),
             ("replay", None), ("site", "build"), ("db", "backup"), ("dice", "verify")}
# Commands that may create the database (serve and check are not routed here).
CREATES = {("game", "create"), ("db", "upgrade")}
# Commands that need the database and nothing of the referee (mail, templates, the site):
# their start-up counts (SPEC §8: replay, start-up included, ≥ 5,000 journal entries/s).
STORE_ONLY = {("replay", None), ("db", "backup")}


class _StoreOnly:
    """What a command that reads only the database is handed instead of the referee: the
    database's URL, and `store`, opened on first use (replay on SQLite does not use it)."""

    def __init__(self, url: str):
        self.url = url
        self._store = None

    @property
    def store(self) -> Store:
        if self._store is None:
            from mailref.store import open_store

            self._store = open_store(self.url)
        return self._store

    def close(self) -> None:
        if self._store is not None:
            self._store.dispose()


def _open_referee(cfg, key: tuple[str, str | None]):
    """The referee on the configured database. A command that only reads refuses when there is
    none (a wrong directory or --config would otherwise show an empty, new one); a changing
    command that creates one says so."""
    from mailref.config import sqlite_path

    path = sqlite_path(cfg.database)
    if path is not None and not path.exists():
        where = f" (configuration {cfg.path})" if cfg.path else f" ({config_mod.defaults_note(cfg)})"
        if key in READ_ONLY:
            raise Refused(f"there is no database at {path}{where}")
        if key not in CREATES:
            # Every other command acts on a game or a row that an empty database cannot hold: run
            # in the wrong folder, it made a stray database only to say "there is no game".
            raise Refused(f"there is no database at {path}{where}",
                          "`mailref game create` or `mailref serve` creates it")
    if key in STORE_ONLY:
        return _StoreOnly(cfg.database)
    from mailref.referee import Referee

    if path is not None and not path.exists():
        referee = Referee.from_config(cfg)
        print(f"mailref: created a new database at {path}" + (f" ({config_mod.defaults_note(cfg)})" if cfg.path is None else ""),
              file=sys.stderr)
        return referee
    return Referee.from_config(cfg)


def run(args: argparse.Namespace) -> int:
    if args.cmd == "init":
        path = config_mod.init(args.dir)
        print(f"wrote {path}")
        if path.parent.resolve() != Path.cwd().resolve():  # commands look for ./mailref.toml only
            print(f"commands read it with --config {path} or MAILREF_CONFIG={path} in their environment")
        return 0
    cfg = config_mod.load(args.config)
    if args.cmd == "serve":
        from mailref.daemon import serve

        return serve(cfg)
    if args.cmd == "check":
        from mailref import check

        return check.run(cfg, lambda line: print(printable(line)))
    key = (args.cmd, getattr(args, "sub", None))
    handler = COMMANDS.get(key) or COMMANDS.get((args.cmd, None))
    referee = _open_referee(cfg, key if key in COMMANDS else (args.cmd, None))
    who = args.who or os.environ.get("SUDO_USER") or getpass.getuser()
    try:
        return handler(referee, args, who)
    finally:
        if isinstance(referee, _StoreOnly):
            referee.close()
        else:
            referee.store.dispose()


def _done(outcome) -> int:
    if not outcome.ok:
        from mailref.cli_words import for_operator

        return _refused(*for_operator(outcome.reason, outcome.hint))
    for line in outcome.lines:
        print(printable(line))
    return 0


def _json(doc: Any) -> None:
    """One JSON document; control characters escaped even where JSON would allow them raw."""
    text = json.dumps(doc, indent=2, ensure_ascii=False, default=str)
    print(_RAW_IN_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", text))


_RAW_IN_JSON = re.compile("[\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")


def _table(headers: list[str], rows: list[list[Any]]) -> None:
    """Columns under a header row; every cell escaped, so mail text cannot drive the terminal."""
    cells = [[printable(c) for c in r] for r in rows]
    widths = [max([len(h)] + [len(r[i]) for r in cells]) for i, h in enumerate(headers)]
    for r in [headers, *cells]:
        print("  ".join(c.ljust(w) for c, w in zip(r[:-1], widths[:-1], strict=True)) + ("  " if len(r) > 1 else "") + r[-1])


def _address(value: str, what: str, ascii_local: bool = False) -> str:
    """VALUE checked, its domain in IDNA form; ASCII_LOCAL for the game's own address (every
    mail is From it, so a relay without SMTPUTF8 must take it)."""
    from mailref.write.address import check

    try:
        return check(value, what, ascii_local)
    except ValueError as e:
        raise Refused(str(e)) from None


def _act(referee, args, who: str, action: dict[str, Any]) -> int:
    if args.reason:
        action["reason"] = args.reason
    return _done(referee.admin(args.slug, action, who))


def _text(value: str) -> str:
    return sys.stdin.read().strip() if value == "-" else value


def cmd_db_upgrade(referee: Referee, args: argparse.Namespace, who: str) -> int:
    print("database is at the newest schema")
    return 0


def cmd_db_backup(referee: _StoreOnly, args: argparse.Namespace, who: str) -> int:
    from pathlib import Path

    from mailref.backup import backup_sqlite

    print(backup_sqlite(config_mod.load(args.config).database, Path(args.file)))
    return 0


def cmd_game_create(referee: Referee, args: argparse.Namespace, who: str) -> int:
    from mailref.engine import VARIANTS

    if args.variant not in VARIANTS:
        raise Refused(f"unknown variant {args.variant!r} (known: {', '.join(sorted(VARIANTS))})")
    if not re.fullmatch(r"[a-z0-9][a-z0-9_-]{0,63}", args.slug):
        raise Refused(f"{args.slug!r} is not a slug (lower-case letters, digits, - and _)")
    address = _address(args.address, "--address", ascii_local=True)
    gm = _address(args.gm, "--gm") if args.gm is not None else None
    cfg = config_mod.load(args.config)
    zone = args.timezone or cfg.timezone
    if not config_mod.valid_zone(zone):
        raise Refused(f"--timezone {zone!r} is not a time zone (write e.g. Europe/Paris or UTC)")
    referee.create_game(args.slug, args.variant, address, args.name, gm, zone, _kv(args.set))
    print(f"game {args.slug} ({args.variant}) created at {address}")
    _warn_unverifiable(referee, args.slug)
    return 0


def cmd_game_list(referee: Referee, args: argparse.Namespace, who: str) -> int:
    from sqlalchemy import select

    from mailref.store import Game

    with referee.store() as s:
        games = [{"slug": g.slug, "name": g.state["name"], "variant": g.variant, "status": g.state["status"],
                  "address": g.address, "players": len([p for p in g.state["players"] if p["status"] != "left"])}
                 for g in s.scalars(select(Game).order_by(Game.slug))]
    if args.json:
        _json(games)
        return 0
    _table(["SLUG", "VARIANT", "STATUS", "ADDRESS", "PLAYERS", "NAME"],
           [[g["slug"], g["variant"], g["status"], g["address"], g["players"], g["name"]] for g in games])
    return 0


def cmd_game_show(referee: Referee, args: argparse.Namespace, who: str) -> int:
    state = referee.state(args.slug)
    if args.json:
        from mailref.engine.public import public_view

        _json({**public_view(state), "dice": _dice_chain(referee, args.slug)})
        return 0
    from mailref.engine import get_variant

    print(printable(f"{state['name']} ({state['slug']}, {state['variant']}) at {state['address']}"))
    for line in get_variant(state["variant"]).status_lines(state):
        print(printable(line))
    return 0


def cmd_game_set(referee: Referee, args: argparse.Namespace, who: str) -> int:
    code = _act(referee, args, who, {"type": "set", "values": _kv(args.values)})
    if code == 0:
        _warn_unverifiable(referee, args.slug)
    return code


def _warn_unverifiable(referee: Referee, slug: str) -> None:
    """require_auth=on with no [auth] trusted_authserv_ids: no mail can ever be verified (SPEC §2.7),
    so every player's command would be refused; the GM who set it is told at once, not by players."""
    if referee.settings.trusted_authserv_ids or not referee.state(slug)["parameters"].get("require_auth"):
        return
    print("note: this configuration trusts no authentication server ([auth] trusted_authserv_ids is empty), "
          "so no mail can be verified: every player's command in this game is refused until that is set "
          f"(or `mailref game set {slug} require_auth=off`)")


def cmd_game_simple(referee: Referee, args: argparse.Namespace, who: str) -> int:
    return _act(referee, args, who, {"type": args.sub})


def cmd_player_add(referee: Referee, args: argparse.Namespace, who: str) -> int:
    email = _address(args.email, "address")
    more = [_address(a, "--email") for a in args.more]
    return _act(referee, args, who, {"type": "player_add", "name": args.name, "address": email,
                                     "more": more, "choices": {k.lower(): v for k, v in _kv(args.choice).items()}})


def cmd_player_status(referee: Referee, args: argparse.Namespace, who: str) -> int:
    if args.sub == "remove":
        return _act(referee, args, who, {"type": "player_remove", "player": args.name})
    status = {"away": "away", "back": "active", "idle": "idle"}[args.sub]
    return _act(referee, args, who, {"type": "player_status", "name": args.name, "status": status})


def cmd_office(referee: Referee, args: argparse.Namespace, who: str) -> int:
    return _act(referee, args, who, {"type": "office", "office": args.office, "holder": args.player})


def cmd_proposal(referee: Referee, args: argparse.Namespace, who: str) -> int:
    return _act(referee, args, who, {"type": "decide", "number": args.number, "outcome": args.sub})


def cmd_vote(referee: Referee, args: argparse.Namespace, who: str) -> int:
    from mailref.read import vote_meaning

    meaning = vote_meaning(args.vote)
    if meaning is None:
        raise Usage(f"{args.vote!r} is not a vote word")
    return _act(referee, args, who, {"type": "vote_override", "number": args.number, "player": args.player,
                                     "vote": meaning, "word": args.vote})


def cmd_rule(referee: Referee, args: argparse.Namespace, who: str) -> int:
    from mailref.engine.change import RuleChange

    num = args.number.strip('"')
    ref = {"number": num} if re.fullmatch(r"\d+(\.\d+)*", num) else {"ref_title": num}
    change = {
        "add": lambda: RuleChange("enact", number=num, title=args.title, text=_text(args.text)),
        "amend": lambda: RuleChange("amend", text=_text(args.text), **ref),
        "repeal": lambda: RuleChange("repeal", **ref),
        "retitle": lambda: RuleChange("retitle", title=args.title, **ref),
    }[args.sub]()
    return _act(referee, args, who, {"type": "rule", "changes": [change.as_dict()]})


def cmd_score(referee: Referee, args: argparse.Namespace, who: str) -> int:
    m = re.fullmatch(r"([+-])(\d+)|(=)(-?\d+)", args.change.strip())  # =-5: scores go below zero (-5 a failed move)
    if not m:
        raise Usage(f"{args.change!r}: write +N, -N or =N")
    m = re.fullmatch(r"([+=-])(-?\d+)", args.change.strip())
    return _act(referee, args, who, {"type": "score", "player": args.player, "op": m.group(1), "amount": int(m.group(2))})


def cmd_deadline(referee: Referee, args: argparse.Namespace, who: str) -> int:
    if args.how == "extend":
        try:
            parse_duration(args.value)
        except ValueError as e:
            raise Usage(str(e)) from None
        return _act(referee, args, who, {"type": "deadline", "extend": args.value})
    try:
        when = parse_iso(args.value if re.search(r"(Z|[+-]\d\d:?\d\d)$", args.value) else args.value + "Z")
    except ValueError:
        raise Usage(f"{args.value!r} is not an ISO time like 2026-12-05T10:00:00Z") from None
    return _act(referee, args, who, {"type": "deadline", "when": iso(when)})


def cmd_digest(referee: Referee, args: argparse.Namespace, who: str) -> int:
    rc = _act(referee, args, who, {"type": "digest"})
    _deliver(referee, args)
    return rc


def _newest(referee, model, args) -> list:
    """The newest rows of the inbox or outbox table, optionally of one status, without their
    raw bytes: a listing shows none, and 50 stranger's mails of 10 MB took it to 600 MB."""
    from sqlalchemy import select
    from sqlalchemy.orm import defer

    with referee.store() as s:
        q = select(model).options(defer(model.raw)).order_by(model.id.desc()).limit(args.limit)
        if args.status:
            q = q.where(model.status == args.status)
        return list(s.scalars(q))


def cmd_mail_list(referee: Referee, args: argparse.Namespace, who: str) -> int:
    from mailref.store import InboxMessage

    mails = [{"id": m.id, "status": m.status, "received_at": iso(m.received_at), "game": m.game_slug,
              "sender": m.sender or m.mail_from, "subject": m.subject, "verdict": m.verdict}
             for m in _newest(referee, InboxMessage, args)]
    if args.json:
        _json(mails)
        return 0
    _table(["ID", "STATUS", "RECEIVED", "GAME", "SENDER", "SUBJECT", "VERDICT"],
           [[f"#{m['id']}", m["status"], m["received_at"], m["game"] or "-", m["sender"] or "-",
             _cut(m["subject"], 50), _cut(m["verdict"], 80)] for m in mails])
    return 0


def _cut(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def cmd_mail_show(referee: Referee, args: argparse.Namespace, who: str) -> int:
    from mailref.store import InboxMessage

    with referee.store() as s:
        m = s.get(InboxMessage, args.id)
        if m is None:
            raise Refused(f"there is no message #{args.id}")
        for k in ("id", "status", "source", "message_id", "sender", "subject", "game_slug", "attempts", "verdict", "error"):
            print(printable(f"{k}: {getattr(m, k)}", keep_newlines=k == "error"))
        print(f"received_at: {iso(m.received_at)}\nsize: {m.size}\n")
        print(printable(m.raw.decode("utf-8", "replace").replace("\r\n", "\n"), keep_newlines=True))
    return 0


def cmd_mail_reprocess(referee: Referee, args: argparse.Namespace, who: str) -> int:
    from mailref.store import InboxMessage

    with referee.store() as s, s.begin():
        m = s.get(InboxMessage, args.id)
        if m is None:
            raise Refused(f"there is no message #{args.id}")
        if m.status not in ("failed", "new"):
            raise Refused(f"message #{args.id} is {m.status}; only failed messages are reprocessed (no effect twice)")
        m.status, m.error = "new", ""
    status = referee.process(args.id)
    print(f"message #{args.id}: {status}")
    _deliver(referee, args)
    return 0 if status != "failed" else 1


def cmd_outbox_list(referee: Referee, args: argparse.Namespace, who: str) -> int:
    from mailref.store import OutboxMessage

    rows = [{"id": m.id, "status": m.status, "kind": m.kind, "game": m.game_slug, "recipients": m.recipients,
             "subject": m.subject, "attempts": m.attempts, "created_at": iso(m.created_at),
             "sent_at": iso(m.sent_at) if m.sent_at else None, "last_error": m.last_error,
             "claimed_by": m.claimed_by, "dropped_by": m.dropped_by, "drop_reason": m.drop_reason or None}
            for m in _newest(referee, OutboxMessage, args)]
    if args.json:
        _json(rows)
        return 0
    _table(["ID", "STATUS", "KIND", "TO", "ATTEMPTS", "SUBJECT", "LAST ERROR"],
           [[f"#{m['id']}", m["status"], m["kind"], ",".join(m["recipients"]), m["attempts"], _cut(m["subject"], 50),
             _cut(m["last_error"] or (f"dropped by {m['dropped_by']}: {m['drop_reason'] or ''}" if m["dropped_by"] else ""), 60)]
            for m in rows])
    return 0


def _deliver(referee, args, only: int | None = None):
    from mailref.mail.outbox import Deliverer

    cfg = config_mod.load(args.config)
    return Deliverer(referee.store, cfg.from_address, cfg.smtp_out, cfg.outbox_maildir, cfg.admin_address).deliver(utcnow(), only)


def cmd_outbox_retry(referee: Referee, args: argparse.Namespace, who: str) -> int:
    from sqlalchemy import select

    from mailref.store import OutboxMessage

    now = utcnow()
    with referee.store() as s, s.begin():
        if args.id is not None:
            r = s.get(OutboxMessage, args.id)
            if r is None:
                raise Refused(f"there is no outgoing message #{args.id}")
            if r.status in ("sent", "dropped"):
                raise Refused(f"outgoing message #{args.id} is {r.status}; it is not sent again")
            if r.status == "sending" and r.lease_until and r.lease_until > now:
                raise Refused(f"outgoing message #{args.id} is being sent by {r.claimed_by} right now")
            rows = [r]
        else:
            # Failed and waiting rows; never one another process has claimed.
            rows = list(s.scalars(select(OutboxMessage).where(OutboxMessage.status.in_(("queued", "failed")))))
        for r in rows:
            if r.status != "sending":
                r.status, r.next_attempt_at = "queued", now
    # A batch at a time until the relay fails or nothing is left: one batch (50) used to be all,
    # and "0 delivered now, 50 still failing" of 300 left the operator to guess about the rest.
    sent = failed = 0
    while True:
        batch_sent, batch_failed = _deliver(referee, args, args.id)
        sent, failed = sent + batch_sent, failed + batch_failed
        if args.id is not None or batch_failed or not batch_sent:
            break
    said = f"{len(rows)} queued for retry; {sent} delivered now"
    if failed:
        said += f"; {failed} failed again and wait for their next attempt (with back-off)"
    if len(rows) - sent - failed > 0:
        said += f"; {len(rows) - sent - failed} left for the daemon"
    print(said)
    return 0


def cmd_outbox_drop(referee: Referee, args: argparse.Namespace, who: str) -> int:
    from mailref.store import OutboxMessage

    now = utcnow()
    with referee.store() as s, s.begin():
        r = s.get(OutboxMessage, args.id)
        if r is None:
            raise Refused(f"there is no outgoing message #{args.id}")
        if r.status in ("sent", "dropped"):
            raise Refused(f"outgoing message #{args.id} is {r.status} already")
        if r.status == "sending" and r.lease_until and r.lease_until > now:
            raise Refused(f"outgoing message #{args.id} is being sent by {r.claimed_by} right now; try again in a minute")
        r.status, r.dropped_by, r.dropped_at, r.drop_reason = "dropped", who, now, args.reason or ""
        r.claimed_by = r.lease_until = None
    print(printable(f"outgoing message #{args.id} dropped by {who}" + (f": {args.reason}" if args.reason else "")))
    return 0


def cmd_replay(referee: _StoreOnly, args: argparse.Namespace, who: str) -> int:
    from mailref.engine.archive import merge
    from mailref.engine.replay import differences, replay
    from mailref.engine.upgraded import set_apart
    from mailref.store.reads import replay_reads

    url = referee.url if isinstance(referee, _StoreOnly) else \
        referee.store.engine.url.render_as_string(hide_password=False)
    bad = 0
    with replay_reads(url, lambda: referee.store) as reads:
        games = reads.games(args.slug)
        if args.slug and not games:
            raise Refused(f"there is no game {args.slug!r}")
        for g in games:
            entries = reads.journal(g.id)
            newer: list[str] = []
            try:
                cold: list = []
                rebuilt = replay(g.initial, entries, cold)
                live, rebuilt = merge(g.state, reads.archived(g.id)), merge(rebuilt, cold)
                diffs = differences(live, rebuilt)
                if diffs:  # an older mailref wrote the live state: what this one writes differently
                    rebuilt, newer = set_apart(live, rebuilt)
                    diffs = differences(live, rebuilt)
            except Exception as e:
                diffs = [str(e)]
            if newer and not diffs:
                print(f"{g.slug}: identical after {len(entries)} journal entries, but for what this version "
                      f"of mailref writes differently: {'; '.join(newer)}")
                continue
            if diffs:
                bad += 1
                print(f"{g.slug}: DIFFERS after {len(entries)} journal entries")
                for d in diffs:
                    print(f"  {printable(d)}")
            else:
                print(f"{g.slug}: identical after {len(entries)} journal entries")
    if bad:
        print(f"mailref: refused: {bad} game(s) do not replay to their live state", file=sys.stderr)
    return 1 if bad else 0


def cmd_site_build(referee: Referee, args: argparse.Namespace, who: str) -> int:
    from mailref import site

    cfg = config_mod.load(args.config)
    if cfg.site is None:
        raise Refused(f"{cfg.path or 'the configuration'} has no [site] table; add one with dir = \"var/site\"")
    try:
        written = site.rebuild(referee.store, cfg.site, args.slug, referee.clock())
    except OSError as e:
        from mailref.site.trouble import why
        raise Refused(f"cannot write the pages in {cfg.site.dir} ([site] dir): {why(e, cfg.site.dir)}") from None
    if args.slug and not written:
        raise Refused(f"there is no game {args.slug!r}")
    for slug in written:
        print(f"{slug}: {cfg.site.dir / slug / 'index.html'}")
    print(f"site: {cfg.site.dir / 'index.html'}")
    return 0


COMMANDS = {
    ("db", "upgrade"): cmd_db_upgrade, ("db", "backup"): cmd_db_backup,
    ("game", "create"): cmd_game_create, ("game", "list"): cmd_game_list, ("game", "show"): cmd_game_show,
    ("game", "set"): cmd_game_set, ("game", "start"): cmd_game_simple, ("game", "pause"): cmd_game_simple,
    ("game", "resume"): cmd_game_simple,
    ("player", "add"): cmd_player_add, ("player", "remove"): cmd_player_status, ("player", "away"): cmd_player_status,
    ("player", "back"): cmd_player_status, ("player", "idle"): cmd_player_status,
    ("office", None): cmd_office, ("proposal", None): cmd_proposal, ("vote", None): cmd_vote,
    ("rule", None): cmd_rule, ("score", None): cmd_score, ("deadline", None): cmd_deadline,
    ("mail", "list"): cmd_mail_list, ("mail", "show"): cmd_mail_show, ("mail", "reprocess"): cmd_mail_reprocess,
    ("outbox", "list"): cmd_outbox_list, ("outbox", "retry"): cmd_outbox_retry,
    ("outbox", "drop"): cmd_outbox_drop,
    ("digest", None): cmd_digest, ("replay", None): cmd_replay, ("site", "build"): cmd_site_build,
    ("dice", "verify"): lambda r, a, w: cmd_dice_verify(r, a, w),
    ("dice", "reveal"): lambda r, a, w: _act(r, a, w, {"type": "dice_reveal"}),
    ("turn", "publish"): lambda r, a, w: _act(r, a, w, {"type": "publish"}),
}


def _dice_chain(referee: Referee, slug: str) -> dict:
    """The game's seed chain as anyone may know it: each SHA-256, each seed once revealed."""
    from sqlalchemy import select

    from mailref.store import Game
    from mailref.store import dice as dice_store

    with referee.store() as s:
        return dice_store.public(s, s.scalar(select(Game.id).where(Game.slug == slug)))


def cmd_dice_verify(referee: Referee, args: argparse.Namespace, who: str) -> int:
    """Exit 0 when every revealed draw recomputes to what was recorded, 1 when one does not."""
    from sqlalchemy import select

    from mailref.site.dice import verify
    from mailref.store import Game

    with referee.store() as s:
        game = s.scalar(select(Game).where(Game.slug == args.slug))
        if game is None:
            raise Refused(f"there is no game {args.slug!r}")
        report = verify(s, game)
    for line in report.lines():
        print(printable(line))
    return 0 if report.ok else 1
