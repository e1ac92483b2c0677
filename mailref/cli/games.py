"""Commands that steer a game: create, list, show, set, start, pause and resume it; offices,
proposals, votes, rules, scores, deadlines and the GM's digest."""

from __future__ import annotations

import argparse
import re
from datetime import timedelta
from typing import TYPE_CHECKING

from mailref import config as config_mod
from mailref.cli.acting import act, deliver, warn_unverifiable
from mailref.cli.args import Usage, checked_address, kv, text_of
from mailref.cli.output import print_json, table
from mailref.engine.context import Refused
from mailref.safe import printable
from mailref.timeutil import TooLong, iso, parse_duration, parse_iso

if TYPE_CHECKING:
    from mailref.referee import Referee


def cmd_game_create(referee: Referee, args: argparse.Namespace, who: str) -> int:
    from mailref.engine.variants import VARIANTS

    ruleset = args.ruleset  # read and checked before the database was opened (cli/rulesets.py)
    if ruleset is not None:
        if args.variant:
            raise Usage("--ruleset names the game's mechanics: leave out --variant")
        args.variant = ruleset.variant
    if not args.variant:
        raise Usage("name the game's rules: --variant NAME or --ruleset FILE")
    if not args.address:
        raise Usage("the game needs its own mail address: --address ADDRESS")
    if args.variant not in VARIANTS:
        raise Refused("unknown_variant", variant=args.variant, known=sorted(VARIANTS))
    if not re.fullmatch(r"[a-z0-9][a-z0-9_-]{0,63}", args.slug):
        raise Refused("bad_slug", slug=args.slug)
    address = checked_address(args.address, "--address", ascii_local=True)
    gm = checked_address(args.gm, "--gm") if args.gm is not None else None
    cfg = config_mod.load(args.config)
    zone = args.timezone or cfg.timezone
    if not config_mod.valid_zone(zone):
        raise Refused("bad_timezone_option", zone=zone)
    referee.create_game(
        args.slug, args.variant, address, args.name, gm, zone, kv(args.set), ruleset
    )
    print(f"game {args.slug} ({args.variant}) created at {address}")
    warn_unverifiable(referee, args.slug)
    return 0


def cmd_game_list(referee: Referee, args: argparse.Namespace, who: str) -> int:
    from sqlalchemy import select

    from mailref.store import Game

    with referee.store() as s:
        games = [
            {
                "slug": g.slug,
                "name": g.state["name"],
                "variant": g.variant,
                "status": g.state["status"],
                "address": g.address,
                "players": len([p for p in g.state["players"] if p["status"] != "left"]),
            }
            for g in s.scalars(select(Game).order_by(Game.slug))
        ]
    if args.json:
        print_json(games)
        return 0
    table(
        ["SLUG", "VARIANT", "STATUS", "ADDRESS", "PLAYERS", "NAME"],
        [
            [g["slug"], g["variant"], g["status"], g["address"], g["players"], g["name"]]
            for g in games
        ],
    )
    return 0


def cmd_game_show(referee: Referee, args: argparse.Namespace, who: str) -> int:
    state = referee.state(args.slug)
    if args.json:
        from mailref.cli.dice import dice_chain
        from mailref.engine.public import public_view

        print_json({**public_view(state), "dice": dice_chain(referee, args.slug)})
        return 0
    from mailref.engine import get_variant

    print(printable(f"{state['name']} ({state['slug']}, {state['variant']}) at {state['address']}"))
    for line in get_variant(state["variant"]).status_lines(state):
        print(printable(line))
    return 0


def cmd_game_set(referee: Referee, args: argparse.Namespace, who: str) -> int:
    from mailref.engine.variants.admin import in_journal_order

    values = in_journal_order(kv(args.values))
    code = act(referee, args, who, {"type": "set", "values": values})
    if code == 0:
        warn_unverifiable(referee, args.slug)
    return code


def cmd_game_simple(referee: Referee, args: argparse.Namespace, who: str) -> int:
    return act(referee, args, who, {"type": args.sub})


def cmd_office(referee: Referee, args: argparse.Namespace, who: str) -> int:
    return act(referee, args, who, {"type": "office", "office": args.office, "holder": args.player})


def cmd_proposal(referee: Referee, args: argparse.Namespace, who: str) -> int:
    action = {"type": "decide", "number": args.number, "outcome": args.sub}
    if args.reopen:  # left out otherwise, so that earlier journals read alike
        action["reopen"] = True
    return act(referee, args, who, action)


def cmd_vote(referee: Referee, args: argparse.Namespace, who: str) -> int:
    from mailref.read import vote_meaning

    meaning = vote_meaning(args.vote)
    if meaning is None:
        raise Usage(f"{args.vote!r} is not a vote word")
    return act(
        referee,
        args,
        who,
        {
            "type": "vote_override",
            "number": args.number,
            "player": args.player,
            "vote": meaning,
            "word": args.vote,
        },
    )


def cmd_rule(referee: Referee, args: argparse.Namespace, who: str) -> int:
    from mailref.engine.change import RuleChange

    num = args.number.strip('"')
    ref = {"number": num} if re.fullmatch(r"\d+(\.\d+)*", num) else {"ref_title": num}
    change = {
        "add": lambda: RuleChange("enact", number=num, title=args.title, text=text_of(args.text)),
        "amend": lambda: RuleChange("amend", text=text_of(args.text), **ref),
        "repeal": lambda: RuleChange("repeal", **ref),
        "retitle": lambda: RuleChange("retitle", title=args.title, **ref),
    }[args.sub]()
    return act(referee, args, who, {"type": "rule", "changes": [change.as_dict()]})


def cmd_score(referee: Referee, args: argparse.Namespace, who: str) -> int:
    m = re.fullmatch(
        r"([+-])(\d+)|(=)(-?\d+)", args.change.strip()
    )  # =-5: scores go below zero (-5 a failed move)
    if not m or not (m := re.fullmatch(r"([+=-])(-?\d+)", args.change.strip())):
        raise Usage(f"{args.change!r}: write +N, -N or =N")
    return act(
        referee,
        args,
        who,
        {"type": "score", "player": args.player, "op": m.group(1), "amount": int(m.group(2))},
    )


def cmd_column_add(referee: Referee, args: argparse.Namespace, who: str) -> int:
    fields = {
        "kind": args.kind,
        "default": args.default,
        "min": args.min,
        "max": args.max,
        "max_len": args.max_len,
        "choices": [c.strip() for c in (args.choices or "").split(",") if c.strip()],
    }
    return act(referee, args, who, {"type": "column", "name": args.name, "fields": fields})


DEADLINE_AHEAD_MOST = timedelta(days=3653)  # ten years: further off, a date's arithmetic overflows


def cmd_deadline(referee: Referee, args: argparse.Namespace, who: str) -> int:
    ten_years = "a deadline is at most ten years away"
    if args.how == "extend":
        try:
            by = parse_duration(args.value)
        except TooLong:
            raise Usage(f"{args.value!r} is more than ten years; {ten_years}") from None
        except ValueError as e:
            raise Usage(str(e)) from None
        if by > DEADLINE_AHEAD_MOST:
            raise Usage(f"{args.value!r} is more than ten years; {ten_years}")
        return act(referee, args, who, {"type": "deadline", "extend": args.value})
    try:
        when = parse_iso(
            args.value if re.search(r"(Z|[+-]\d\d:?\d\d)$", args.value) else args.value + "Z"
        )
        far = when is not None and when - referee.clock() > DEADLINE_AHEAD_MOST
    except ValueError:
        raise Usage(f"{args.value!r} is not an ISO time like 2026-12-05T10:00:00Z") from None
    except OverflowError:  # 9999-12-31T23:00-05:00 is past the last date Python has
        far = True
    if far:
        raise Usage(f"{args.value!r} is more than ten years ahead; {ten_years}")
    return act(referee, args, who, {"type": "deadline", "when": iso(when)})


def cmd_digest(referee: Referee, args: argparse.Namespace, who: str) -> int:
    rc = act(referee, args, who, {"type": "digest"})
    deliver(referee, args)
    return rc
