"""`mailref journal` and `mailref undo`: the journal as the court record (SPEC §4.4)."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from mailref.cli.acting import done
from mailref.engine.context import Refused
from mailref.safe import printable

if TYPE_CHECKING:
    from mailref.referee import Referee


def journal_rows(referee: Referee, slug: str) -> list[dict[str, Any]]:
    """Every journal entry of the game SLUG: number, time, source, who, what it did in words."""
    from sqlalchemy import select

    from mailref.site.journal import row
    from mailref.store import Game, JournalEntry

    with referee.store() as s:
        game_id = s.scalar(select(Game.id).where(Game.slug == slug))
        if game_id is None:
            raise Refused("no_game", slug=slug)
        rows = s.scalars(
            select(JournalEntry).where(JournalEntry.game_id == game_id).order_by(JournalEntry.seq)
        )
        return [row(e.seq, e.at, e.source, e.action, e.summary) for e in rows]


def cmd_journal(referee: Referee, args: argparse.Namespace, who: str) -> int:
    rows = journal_rows(referee, args.slug)
    if args.json:
        print(json.dumps({"game": args.slug, "entries": rows}, ensure_ascii=False, indent=2))
        return 0
    for r in rows:
        head = f"{r['number']:>5}  {r['at']}  {r['source']:<5}  {r['who'] or '-'}"
        print(printable(f"{head}  {r['what'][0]}"))
        for line in r["what"][1:]:
            print(printable(f"{'':>5}  {'':20}  {'':5}  {'':{len(r['who'] or '-')}}  {line}"))
    return 0


def cmd_undo(referee: Referee, args: argparse.Namespace, who: str) -> int:
    action: dict[str, Any] = {"type": "undo", "entries": list(args.entries)}
    if args.reason:
        action["reason"] = args.reason
    outcome = referee.admin(args.slug, action, who, dry_run=args.dry_run)
    if args.dry_run and outcome.ok:
        print("Dry run: nothing is changed, and nobody is told.")
    return done(outcome)
