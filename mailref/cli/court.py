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

    from mailref.court import describe_entry
    from mailref.store import Game, JournalEntry

    with referee.store() as s:
        game_id = s.scalar(select(Game.id).where(Game.slug == slug))
        if game_id is None:
            raise Refused(f"there is no game {slug!r}")
        rows = s.scalars(
            select(JournalEntry).where(JournalEntry.game_id == game_id).order_by(JournalEntry.seq)
        )
        return [_row(e.seq, e.at, e.source, e.action, e.summary, describe_entry) for e in rows]


def _row(seq: int, at: Any, source: str, action: dict, summary: str, words: Any) -> dict:
    kind, _, detail = source.partition(":")
    who = action.get("player") or (detail if kind == "admin" else "") or action.get("by") or ""
    return {
        "number": seq,
        "at": at.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "source": kind,
        "source_detail": detail,
        "who": str(who),
        "action": action.get("type"),
        "what": [line for line in (summary or "").splitlines() if line.strip()]
        or [words(action, "")],
    }


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
