"""`mailref replay`: each game rebuilt from its journal and compared with its live state.
Its start-up counts (SPEC §8), so it reads the database without the referee."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any, cast

from mailref.cli.opening import StoreOnly
from mailref.engine.context import Refused
from mailref.safe import printable

if TYPE_CHECKING:
    from mailref.engine.court import Entry
    from mailref.engine.state import GameState, Matter


def cmd_replay(referee: StoreOnly, args: argparse.Namespace, who: str) -> int:
    from mailref.engine.archive import merge
    from mailref.engine.replay import differences, replay
    from mailref.engine.schema import upgrade
    from mailref.engine.upgraded import set_apart
    from mailref.store.reads import replay_reads

    url = (
        referee.url
        if isinstance(referee, StoreOnly)
        else referee.store.engine.url.render_as_string(hide_password=False)
    )
    bad = 0
    with replay_reads(url, lambda: referee.store) as reads:
        games = reads.games(args.slug)
        if args.slug and not games:
            raise Refused("no_game", slug=args.slug)
        for g in games:
            entries = reads.journal(g.id)
            newer: list[str] = []
            try:
                # The store's JSON, in the shapes the engine declares for it
                cold: list[tuple[str, Matter]] = []
                rebuilt = replay(cast("GameState", g.initial), cast("list[Entry]", entries), cold)
                archived = cast("list[tuple[str, Matter]]", reads.archived(g.id))
                live = merge(upgrade(cast("GameState", g.state)), archived)
                compared: Any = merge(rebuilt, cold)
                diffs = differences(live, compared)
                # A game begun before states had a schema may hold what an older mailref wrote
                # differently; since then, each change of shape is a step of engine/schema.py.
                if diffs and "schema" not in g.initial:
                    compared, newer = set_apart(live, compared)
                    diffs = differences(live, compared)
            except Exception as e:
                diffs = [str(e)]
            if newer and not diffs:
                print(
                    f"{g.slug}: identical after {len(entries)} journal entries, but for what "
                    f"this version of mailref writes differently: {'; '.join(newer)}"
                )
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
