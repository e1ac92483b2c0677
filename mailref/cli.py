"""`mailref`: the admin's face. Every command that changes a game goes through the same
door as mail, records who did it, and announces what players would expect to be told.
Exit 0 on success, 1 on a refused action (one line saying why), 2 on usage."""

from __future__ import annotations

import argparse
import getpass
import json
import os
import re
import sys
from typing import Any

from sqlalchemy import select

from mailref import config as config_mod
from mailref.engine import Refused, public_view
from mailref.read import RuleChange
from mailref.safe import printable
from mailref.timeutil import iso, parse_duration, parse_iso, utcnow


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


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    # SUPPRESS: an option given before the command is not reset by the subcommand's parser.
    common.add_argument("--config", default=argparse.SUPPRESS,
                        help="mailref.toml (default: $MAILREF_CONFIG, ./mailref.toml, embedded defaults)")
    common.add_argument("--reason", default=argparse.SUPPRESS, help="why; recorded in the journal and told to the players")
    common.add_argument("--as", dest="who", default=argparse.SUPPRESS, help="who does this (default: the login name)")
    p = argparse.ArgumentParser(prog="mailref", description="mail referee for play-by-email games", parents=[common])
    sub = p.add_subparsers(dest="cmd", required=True)

    def cmd(parent, name: str, **kw) -> argparse.ArgumentParser:
        return parent.add_parser(name, parents=[common], **kw)

    c = cmd(sub, "init", help="write a commented mailref.toml")
    c.add_argument("dir", nargs="?", default=".")
    cmd(sub, "serve", help="run the daemon")
    db = sub.add_parser("db", parents=[common]).add_subparsers(dest="sub", required=True)
    cmd(db, "upgrade")

    game = sub.add_parser("game", parents=[common]).add_subparsers(dest="sub", required=True)
    c = cmd(game, "create")
    c.add_argument("slug")
    c.add_argument("--variant", required=True)
    c.add_argument("--address", required=True)
    c.add_argument("--name")
    c.add_argument("--gm")
    c.add_argument("--timezone")
    c.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    cmd(game, "list")
    c = cmd(game, "show")
    c.add_argument("slug")
    c.add_argument("--json", action="store_true")
    c = cmd(game, "set")
    c.add_argument("slug")
    c.add_argument("values", nargs="+", metavar="KEY=VALUE")
    for name in ("start", "pause", "resume"):
        cmd(game, name).add_argument("slug")

    player = sub.add_parser("player", parents=[common]).add_subparsers(dest="sub", required=True)
    c = cmd(player, "add")
    c.add_argument("slug")
    c.add_argument("name")
    c.add_argument("email")
    c.add_argument("--email", dest="more", action="append", default=[])
    c.add_argument("--choice", action="append", default=[], metavar="KEY=VALUE", help="variant choices (Eire: color, tribe, origin)")
    for name in ("remove", "away", "back", "idle"):
        c = cmd(player, name)
        c.add_argument("slug")
        c.add_argument("name")

    c = cmd(sub, "office")
    c.add_argument("slug")
    c.add_argument("office")
    c.add_argument("player", nargs="?")

    prop = sub.add_parser("proposal", parents=[common]).add_subparsers(dest="sub", required=True)
    for name in ("enact", "fail", "veto"):
        c = cmd(prop, name)
        c.add_argument("slug")
        c.add_argument("number", type=int)

    c = cmd(sub, "vote")
    c.add_argument("slug")
    c.add_argument("number", type=int)
    c.add_argument("player")
    c.add_argument("vote")

    rule = sub.add_parser("rule", parents=[common]).add_subparsers(dest="sub", required=True)
    c = cmd(rule, "add")
    c.add_argument("slug")
    c.add_argument("number")
    c.add_argument("title")
    c.add_argument("text", help="the rule's text, or - to read it from standard input")
    c = cmd(rule, "amend")
    c.add_argument("slug")
    c.add_argument("number")
    c.add_argument("text", help="the new text, or - for standard input")
    c = cmd(rule, "repeal")
    c.add_argument("slug")
    c.add_argument("number")
    c = cmd(rule, "retitle")
    c.add_argument("slug")
    c.add_argument("number")
    c.add_argument("title")

    c = cmd(sub, "score")
    c.add_argument("slug")
    c.add_argument("player")
    c.add_argument("change", help="+N, -N or =N")
    c = cmd(sub, "deadline")
    c.add_argument("slug")
    c.add_argument("how", choices=["extend", "set"])
    c.add_argument("value", help="a duration (extend) or an ISO time (set)")

    mail = sub.add_parser("mail", parents=[common]).add_subparsers(dest="sub", required=True)
    c = cmd(mail, "list")
    c.add_argument("--status")
    c.add_argument("--limit", type=int, default=50)
    cmd(mail, "show").add_argument("id", type=int)
    cmd(mail, "reprocess").add_argument("id", type=int)

    out = sub.add_parser("outbox", parents=[common]).add_subparsers(dest="sub", required=True)
    c = cmd(out, "list")
    c.add_argument("--status")
    c.add_argument("--limit", type=int, default=50)
    cmd(out, "retry").add_argument("id", type=int, nargs="?")
    cmd(out, "drop").add_argument("id", type=int)

    cmd(sub, "digest").add_argument("slug")
    site = sub.add_parser("site", parents=[common], help="the published pages (§4.5)").add_subparsers(dest="sub", required=True)
    cmd(site, "build", help="rebuild the published site now (every game, or SLUG)").add_argument(
        "slug", nargs="?", help="one game (default: every game)")
    cmd(sub, "replay").add_argument("slug", nargs="?")
    return p


def main(argv: list[str] | None = None) -> int:
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
        print(f"mailref: {e}", file=sys.stderr)
        return 2
    except (Refused, config_mod.ConfigError) as e:
        reason = e.reason if isinstance(e, Refused) else str(e)
        print(f"mailref: refused: {printable(reason)}", file=sys.stderr)
        return 1
    except Exception as e:
        # Operational errors (a locked or read-only database, a port in use) are one line.
        from mailref.daemon import Fatal
        from mailref.store.faults import describe, is_store_fault

        if isinstance(e, Fatal):
            print(f"mailref: {printable(e)}", file=sys.stderr)
            return 1
        if is_store_fault(e):
            print(f"mailref: {printable(describe(e))}", file=sys.stderr)
            return 1
        raise


def run(args: argparse.Namespace) -> int:
    if args.cmd == "init":
        path = config_mod.init(args.dir)
        print(f"wrote {path}")
        return 0
    cfg = config_mod.load(args.config)
    if args.cmd == "serve":
        from mailref.daemon import serve

        return serve(cfg)
    from mailref.referee import Referee

    referee = Referee.from_config(cfg)
    who = args.who or os.environ.get("SUDO_USER") or getpass.getuser()
    handler = COMMANDS.get((args.cmd, getattr(args, "sub", None))) or COMMANDS.get((args.cmd, None))
    return handler(referee, args, who)


def _done(outcome) -> int:
    if not outcome.ok:
        print(f"mailref: refused: {outcome.reason}", file=sys.stderr)
        return 1
    for line in outcome.lines:
        print(line)
    return 0


def _act(referee, args, who: str, action: dict[str, Any]) -> int:
    if args.reason:
        action["reason"] = args.reason
    return _done(referee.admin(args.slug, action, who))


def _text(value: str) -> str:
    return sys.stdin.read().strip() if value == "-" else value


def cmd_db_upgrade(referee, args, who):
    print("database is at the newest schema")
    return 0


def cmd_game_create(referee, args, who):
    from mailref.engine import VARIANTS

    if args.variant not in VARIANTS:
        raise Refused(f"unknown variant {args.variant!r} (known: {', '.join(sorted(VARIANTS))})")
    if not re.fullmatch(r"[a-z0-9][a-z0-9_-]{0,63}", args.slug):
        raise Refused(f"{args.slug!r} is not a slug (lower-case letters, digits, - and _)")
    if "@" not in args.address:
        raise Refused(f"{args.address!r} is not a mail address")
    cfg = config_mod.load(args.config)
    referee.create_game(args.slug, args.variant, args.address, args.name, args.gm,
                        args.timezone or cfg.timezone, _kv(args.set))
    print(f"game {args.slug} ({args.variant}) created at {args.address}")
    return 0


def cmd_game_list(referee, args, who):
    from mailref.store import Game

    with referee.store() as s:
        for g in s.scalars(select(Game).order_by(Game.slug)):
            st = g.state
            print(f"{g.slug}\t{g.variant}\t{st['status']}\t{g.address}\t{len([p for p in st['players'] if p['status'] != 'left'])} players")
    return 0


def cmd_game_show(referee, args, who):
    state = referee.state(args.slug)
    if args.json:
        print(json.dumps(public_view(state), indent=2, ensure_ascii=False))
        return 0
    from mailref.engine import get_variant

    print(f"{state['name']} ({state['slug']}, {state['variant']}) at {state['address']}")
    for line in get_variant(state["variant"]).status_lines(state):
        print(line)
    return 0


def cmd_game_set(referee, args, who):
    return _act(referee, args, who, {"type": "set", "values": _kv(args.values)})


def cmd_game_simple(referee, args, who):
    return _act(referee, args, who, {"type": args.sub})


def cmd_player_add(referee, args, who):
    return _act(referee, args, who, {"type": "player_add", "name": args.name, "address": args.email,
                                     "more": args.more, "choices": {k.lower(): v for k, v in _kv(args.choice).items()}})


def cmd_player_status(referee, args, who):
    if args.sub == "remove":
        return _act(referee, args, who, {"type": "player_remove", "player": args.name})
    status = {"away": "away", "back": "active", "idle": "idle"}[args.sub]
    return _act(referee, args, who, {"type": "player_status", "name": args.name, "status": status})


def cmd_office(referee, args, who):
    return _act(referee, args, who, {"type": "office", "office": args.office, "holder": args.player})


def cmd_proposal(referee, args, who):
    return _act(referee, args, who, {"type": "decide", "number": args.number, "outcome": args.sub})


def cmd_vote(referee, args, who):
    from mailref.read import vote_meaning

    meaning = vote_meaning(args.vote)
    if meaning is None:
        raise Usage(f"{args.vote!r} is not a vote word")
    return _act(referee, args, who, {"type": "vote_override", "number": args.number, "player": args.player,
                                     "vote": meaning, "word": args.vote})


def cmd_rule(referee, args, who):
    num = args.number.strip('"')
    ref = {"number": num} if re.fullmatch(r"\d+(\.\d+)*", num) else {"ref_title": num}
    change = {
        "add": lambda: RuleChange("enact", number=num, title=args.title, text=_text(args.text)),
        "amend": lambda: RuleChange("amend", text=_text(args.text), **ref),
        "repeal": lambda: RuleChange("repeal", **ref),
        "retitle": lambda: RuleChange("retitle", title=args.title, **ref),
    }[args.sub]()
    return _act(referee, args, who, {"type": "rule", "changes": [change.as_dict()]})


def cmd_score(referee, args, who):
    m = re.fullmatch(r"([+=-])(\d+)", args.change.strip())
    if not m:
        raise Usage(f"{args.change!r}: write +N, -N or =N")
    return _act(referee, args, who, {"type": "score", "player": args.player, "op": m.group(1), "amount": int(m.group(2))})


def cmd_deadline(referee, args, who):
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


def cmd_digest(referee, args, who):
    rc = _act(referee, args, who, {"type": "digest"})
    _deliver(referee, args)
    return rc


def _newest(referee, model, args) -> list:
    """The newest rows of the inbox or outbox table, optionally of one status."""
    with referee.store() as s:
        q = select(model).order_by(model.id.desc()).limit(args.limit)
        if args.status:
            q = q.where(model.status == args.status)
        return list(s.scalars(q))


def cmd_mail_list(referee, args, who):
    from mailref.store import InboxMessage

    for m in _newest(referee, InboxMessage, args):
        print(f"#{m.id}\t{m.status}\t{iso(m.received_at)}\t{m.game_slug or '-'}\t{m.sender or m.mail_from or '-'}\t{m.subject}\t{m.verdict[:80]}")
    return 0


def cmd_mail_show(referee, args, who):
    from mailref.store import InboxMessage

    with referee.store() as s:
        m = s.get(InboxMessage, args.id)
        if m is None:
            raise Refused(f"there is no message #{args.id}")
        for k in ("id", "status", "source", "message_id", "sender", "subject", "game_slug", "attempts", "verdict", "error"):
            print(f"{k}: {getattr(m, k)}")
        print(f"received_at: {iso(m.received_at)}\nsize: {m.size}\n")
        print(m.raw.decode("utf-8", "replace"))
    return 0


def cmd_mail_reprocess(referee, args, who):
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


def cmd_outbox_list(referee, args, who):
    from mailref.store import OutboxMessage

    for m in _newest(referee, OutboxMessage, args):
        print(f"#{m.id}\t{m.status}\t{m.kind}\t{','.join(m.recipients)}\t{m.subject}\tattempts={m.attempts}\t{m.last_error[:60]}")
    return 0


def _deliver(referee, args, only: int | None = None):
    from mailref.mail.outbox import Deliverer

    cfg = config_mod.load(args.config)
    return Deliverer(referee.store, cfg.from_address, cfg.smtp_out, cfg.outbox_maildir, cfg.admin_address).deliver(utcnow(), only)


def cmd_outbox_retry(referee, args, who):
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
    sent, failed = _deliver(referee, args, args.id)
    print(f"{len(rows)} queued for retry; {sent} delivered now, {failed} still failing")
    return 0


def cmd_outbox_drop(referee, args, who):
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
    print(f"outgoing message #{args.id} dropped by {who}" + (f": {args.reason}" if args.reason else ""))
    return 0


def cmd_replay(referee, args, who):
    from mailref.engine.replay import differences, replay
    from mailref.store import Game, JournalEntry

    bad = 0
    with referee.store() as s:
        games = s.scalars(select(Game).where(Game.slug == args.slug) if args.slug else select(Game)).all()
        if args.slug and not games:
            raise Refused(f"there is no game {args.slug!r}")
        for g in games:
            entries = [(e.action, e.at, e.draws) for e in
                       s.scalars(select(JournalEntry).where(JournalEntry.game_id == g.id).order_by(JournalEntry.seq))]
            try:
                rebuilt = replay(g.initial, entries)
                diffs = differences(g.state, rebuilt)
            except Exception as e:
                diffs = [str(e)]
            if diffs:
                bad += 1
                print(f"{g.slug}: DIFFERS after {len(entries)} journal entries")
                for d in diffs:
                    print(f"  {d}")
            else:
                print(f"{g.slug}: identical after {len(entries)} journal entries")
    if bad:
        print(f"mailref: refused: {bad} game(s) do not replay to their live state", file=sys.stderr)
    return 1 if bad else 0


def cmd_site_build(referee, args, who):
    from mailref import site

    cfg = config_mod.load(args.config)
    if cfg.site is None:
        raise Refused(f"{cfg.path or 'the configuration'} has no [site] table; add one with dir = \"var/site\"")
    written = site.rebuild(referee.store, cfg.site, args.slug, referee.clock())
    if args.slug and not written:
        raise Refused(f"there is no game {args.slug!r}")
    for slug in written:
        print(f"{slug}: {cfg.site.dir / slug / 'index.html'}")
    print(f"site: {cfg.site.dir / 'index.html'}")
    return 0


COMMANDS = {
    ("db", "upgrade"): cmd_db_upgrade,
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
}
