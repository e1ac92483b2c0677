"""Commands on a game's players: add one, remove one, mark one away, back or idle, open a
seat to a substitute."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from mailref.cli.acting import act
from mailref.cli.args import checked_address, kv

if TYPE_CHECKING:
    from mailref.referee import Referee


def cmd_player_add(referee: Referee, args: argparse.Namespace, who: str) -> int:
    email = checked_address(args.email, "address")
    more = [checked_address(a, "--email") for a in args.more]
    return act(
        referee,
        args,
        who,
        {
            "type": "player_add",
            "name": args.name,
            "address": email,
            "more": more,
            "choices": {k.lower(): v for k, v in kv(args.choice).items()},
        },
    )


def cmd_player_vacate(referee: Referee, args: argparse.Namespace, who: str) -> int:
    return act(referee, args, who, {"type": "vacate", "name": args.name})


def cmd_player_status(referee: Referee, args: argparse.Namespace, who: str) -> int:
    if args.sub == "remove":
        return act(referee, args, who, {"type": "player_remove", "player": args.name})
    if args.sub == "away" and args.until:  # a dated absence, read as [Away] until DATE is
        return act(
            referee, args, who, {"type": "away", "name": args.name, "dates": f"until {args.until}"}
        )
    status = {"away": "away", "back": "active", "idle": "idle"}[args.sub]
    return act(referee, args, who, {"type": "player_status", "name": args.name, "status": status})
