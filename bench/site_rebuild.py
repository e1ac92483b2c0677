"""The site's pages after one more turn, alone: the passing game of bench/passing_rules.py
played through the door, and at turn 10 and at turn N (default 1,000) the CPU of bringing the
pages up to date after each of SAMPLE more turns (a proposal and the vote that passes it, by
mail), as the daemon does after a change (`site.rebuild` without force); six hours of the
game's time a turn, as bench/long_game.py plays it (`--hours 0`: half a minute, as that bench
plays it in real time).

    .venv/bin/python bench/site_rebuild.py [--turns 1000] [--sample 20] [--hours 6] [--profile]

Prints the median and the mean CPU ms at each point and their ratio, and the garbage
collector's CPU in each turn timed (its mail and its rebuild). Nothing here asserts."""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from passing_rules import PASSING  # noqa: E402
from turns import Turn, mail_cost, play, start_game  # noqa: E402

from support.helpers import Clock, make_referee  # noqa: E402

# Half a minute a turn, as the daemon's bench plays it in real time (bench/long_game.py
# --hours 0): a thousand turns end within the eight days after which ended matters leave the
# hot state, so every matter is read from it and compared at every build.
QUICK = Turn(PASSING.text, PASSING.vote, timedelta(seconds=30), tick=False)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--turns", type=int, default=1000, help="the late turn")
    ap.add_argument("--sample", type=int, default=20, help="turns timed at each point")
    ap.add_argument("--profile", action="store_true", help="profile the late builds")
    ap.add_argument("--hours", type=float, default=6, help="the game's hours a turn (0: 30 s)")
    a = ap.parse_args()
    turn = Turn(PASSING.text, PASSING.vote, timedelta(hours=a.hours), False) if a.hours else QUICK
    from mailref.config import SiteConfig
    from mailref.referee.threads import lent_state
    from mailref.site import rebuild

    with tempfile.TemporaryDirectory() as tmp:
        clock = Clock()
        r = make_referee(Path(tmp), clock)
        start_game(r)
        site = SiteConfig(Path(tmp) / "site")

        def builds(prof=None) -> list[float]:
            rebuild(r.store, site, now=clock())  # the pages as the daemon left them
            out = []
            for _ in range(a.sample):
                mail_cost(r, clock, 1, turn)
                if prof:
                    prof.enable()
                c = time.process_time()
                with lent_state(r.states, "nomes") as held:  # as the daemon's pages take it
                    rebuild(r.store, site, "nomes", now=clock(), force=False, held=held)
                out.append(1000 * (time.process_time() - c))
                if prof:
                    prof.disable()
            return out

        collecting: list[float] = []  # the collector's CPU ms in the timed builds, by build
        started = [0.0]

        def gc_time(phase: str, info: dict) -> None:
            if phase == "start":
                started[0] = time.process_time()
            elif timing[0]:
                collecting.append(1000 * (time.process_time() - started[0]))

        timing = [False]
        gc.callbacks.append(gc_time)

        def builds_gc(prof=None) -> tuple[list[float], float]:
            del collecting[:]
            timing[0] = True
            out = builds(prof)
            timing[0] = False
            return out, sum(collecting) / a.sample

        play(r, clock, 10, turn)
        early, early_gc = builds_gc()
        play(r, clock, a.turns - 10 - a.sample, turn)
        prof = None
        if a.profile:
            import cProfile

            prof = cProfile.Profile()
        late, late_gc = builds_gc(prof)
        for first, xs, in_gc in ((11, early, early_gc), (a.turns - a.sample + 1, late, late_gc)):
            print(
                f"turns {first}-{first + a.sample - 1}: median {statistics.median(xs):.0f} ms, "
                f"mean {statistics.mean(xs):.0f} ms CPU a rebuild "
                f"(a turn's mail and rebuild: {in_gc:.1f} ms collecting garbage)"
            )
        print(
            f"ratio: {statistics.median(late) / statistics.median(early):.2f}x median, "
            f"{statistics.mean(late) / statistics.mean(early):.2f}x mean"
        )
        if prof:
            import pstats

            pstats.Stats(prof).sort_stats("tottime").print_stats(30)
        r.store.dispose()


if __name__ == "__main__":
    main()
