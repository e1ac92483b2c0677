"""`mailref replay`: each game rebuilt from its journal and compared with its live state.
Its start-up counts (SPEC §8), so it reads the database without the referee."""

from __future__ import annotations

import argparse
import sys

from mailref.cli.opening import StoreOnly
from mailref.engine.context import Refused
from mailref.safe import printable


def cmd_replay(referee: StoreOnly, args: argparse.Namespace, who: str) -> int:
    from mailref.engine.archive import merge
    from mailref.engine.replay import differences, replay
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
