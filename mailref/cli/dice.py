"""`mailref dice verify|reveal` and `mailref turn publish`: dice players can check (SPEC §4.4)
and the results a GM is previewing (§5.4)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from mailref.cli.acting import act
from mailref.engine.context import Refused
from mailref.safe import printable

if TYPE_CHECKING:
    from mailref.referee import Referee


def cmd_dice_verify(referee: Referee, args: argparse.Namespace, who: str) -> int:
    """Exit 0 when every revealed draw recomputes to what was recorded, 1 when one does not."""
    from sqlalchemy import select

    from mailref.site.dice import verify
    from mailref.store import Game

    with referee.store() as s:
        game = s.scalar(select(Game).where(Game.slug == args.slug))
        if game is None:
            raise Refused("no_game", slug=args.slug)
        report = verify(s, game)
    for line in report.lines():
        print(printable(line))
    return 0 if report.ok else 1


def cmd_dice_reveal(referee: Referee, args: argparse.Namespace, who: str) -> int:
    return act(referee, args, who, {"type": "dice_reveal"})


def cmd_turn_publish(referee: Referee, args: argparse.Namespace, who: str) -> int:
    return act(referee, args, who, {"type": "publish"})


def dice_chain(referee: Referee, slug: str) -> dict[str, Any]:
    """The game's seed chain as anyone may know it: each SHA-256, each seed once revealed."""
    from sqlalchemy import select

    from mailref.store import Game
    from mailref.store import dice as dice_store

    with referee.store() as s:
        game_id = s.scalar(select(Game.id).where(Game.slug == slug))
        if game_id is None:
            raise Refused("no_game", slug=slug)
        return dice_store.public(s, game_id)
