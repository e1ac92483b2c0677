"""The cost of a mail as the ruleset grows: a two-player Sidekick game whose every proposal
passes (one new rule a turn), by mail through the door (Referee.accept), at turn 10 and at
turn N (default 1,000); the turns between are played through the door without reading mail.

    .venv/bin/python bench/passing_rules.py [--turns 1000] [--sample 20] [--profile]

Prints the mean wall and CPU ms per mail (a proposal and the vote that passes it, with the
results, the ruleset mail to both and the parameters re-read) over SAMPLE turns at each point,
and their ratio (target within 1.5x). Nothing here asserts."""

from __future__ import annotations

import argparse
import sys
import tempfile
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from turns import Turn, hot_state, mail_cost, play, start_game  # noqa: E402

from support.helpers import Clock, make_referee  # noqa: E402

# Each turn enacts a rule and amends rule 21 (a rule run by a parameter), so that every pass
# re-reads a parameter from a rule's text, as a game whose players change its numbers does.
PROPOSAL = (
    'Enact rule {r} "Idea {n}":\nPlayers may hum {n} times a day.\n\n'
    'In rule 21, replace "{old} points" with "{new} points".\n'
)


def _text(st: dict, n: int) -> str:
    old = st["parameters"]["pass_points"]
    return PROPOSAL.format(r=1000 + n, n=n, old=old, new=10 if old == 11 else 11)


PASSING = Turn(_text, "FOR", timedelta(hours=6), tick=False)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--turns", type=int, default=1000)
    ap.add_argument("--sample", type=int, default=20)
    ap.add_argument("--profile", action="store_true", help="profile the sample at the last turn")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        clock = Clock()
        r = make_referee(Path(tmp), clock)
        start_game(r)
        play(r, clock, 10 - a.sample // 2, PASSING)
        early = mail_cost(r, clock, a.sample, PASSING)
        play(r, clock, a.turns - 10 - a.sample, PASSING)
        rules = len(hot_state(r)["rules"])
        if a.profile:
            import cProfile
            import pstats

            prof = cProfile.Profile()
            prof.enable()
            late = mail_cost(r, clock, a.sample, PASSING)
            prof.disable()
            pstats.Stats(prof).sort_stats("cumulative").print_stats(40)
        else:
            late = mail_cost(r, clock, a.sample, PASSING)
        print(f"turn 10:    {early[0]:7.1f} ms wall, {early[1]:7.1f} ms CPU per mail")
        print(
            f"turn {a.turns}: {late[0]:7.1f} ms wall, {late[1]:7.1f} ms CPU per mail ({rules} "
            "rules)"
        )
        print(
            f"ratio:      {late[0] / early[0]:7.2f}x wall, {late[1] / early[1]:7.2f}x CPU (target "
            "within 1.5x)"
        )
        r.store.dispose()


if __name__ == "__main__":
    main()
