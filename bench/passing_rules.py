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
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from mailref.referee import Referee  # noqa: E402
from support.helpers import Clock, mail, make_referee  # noqa: E402

G = "nomes@ref.example"
# Each turn enacts a rule and amends rule 21 (a rule run by a parameter), so that every pass
# re-reads a parameter from a rule's text, as a game whose players change its numbers does.
PROPOSAL = (
    'Enact rule {r} "Idea {n}":\nPlayers may hum {n} times a day.\n\n'
    'In rule 21, replace "{old} points" with "{new} points".\n'
)


def _state(r: Referee) -> dict:
    return r.state("nomes")


def _text(st: dict, n: int) -> str:
    old = st["parameters"]["pass_points"]
    return PROPOSAL.format(r=1000 + n, n=n, old=old, new=10 if old == 11 else 11)


def start(r: Referee) -> None:
    r.create_game("nomes", "sidekick", G, gm="gm@ref.example", parameters={"win_score": 10**9})
    for name in ("Alice", "Bob"):
        r.admin(
            "nomes",
            {"type": "player_add", "name": name, "address": f"{name.lower()}@players.example"},
            "bench",
        )


def play(r: Referee, clock: Clock, turns: int) -> None:
    """TURNS passing turns through the door in big transactions, without reading mail."""
    from sqlalchemy import select

    from mailref import door
    from mailref.read import read_rule_changes
    from mailref.store import Game

    src = door.Source("admin", "bench")
    done = 0
    while done < turns:
        with r.store() as s, s.begin():
            game = s.execute(select(Game).where(Game.slug == "nomes")).scalar_one()
            for _ in range(min(100, turns - done)):
                st = game.state
                mover = st["turn"]["player"]
                other = "Bob" if mover == "Alice" else "Alice"
                n = st["next_number"]
                text = _text(st, n)
                changes = [c.as_dict() for c in read_rule_changes(text)]
                now = clock()
                door.apply(
                    s,
                    game,
                    {
                        "type": "propose",
                        "player": mover,
                        "title": f"Idea {n}",
                        "text": text,
                        "changes": changes,
                    },
                    src,
                    now,
                    r.settings,
                    r.rng,
                )
                door.apply(
                    s,
                    game,
                    {
                        "type": "vote",
                        "player": other,
                        "ballots": [{"number": n, "vote": "FOR", "word": "FOR"}],
                    },
                    src,
                    now,
                    r.settings,
                    r.rng,
                )
                clock.advance(hours=6)
                done += 1


def mail_cost(r: Referee, clock: Clock, turns: int) -> tuple[float, float]:
    """Mean ms per mail (wall, CPU) of a proposal and its passing vote sent as mail."""
    wall, cpu, mails = 0.0, 0.0, 0
    for _ in range(turns):
        st = _state(r)
        mover = st["turn"]["player"]
        other = "Bob" if mover == "Alice" else "Alice"
        n = st["next_number"]
        for who, subject, body in (
            (mover, f"[Proposal] Idea {n}", _text(st, n)),
            (other, f"Re: [Proposal {n}] Idea {n}", "FOR\n"),
        ):
            a = f"{who.lower()}@players.example"
            raw = mail(a, G, subject, body)
            t, c = time.perf_counter(), time.process_time()
            r.accept(raw, "smtp", a, [G])
            wall += time.perf_counter() - t
            cpu += time.process_time() - c
            mails += 1
        clock.advance(hours=6)
    return wall / mails * 1000, cpu / mails * 1000


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--turns", type=int, default=1000)
    ap.add_argument("--sample", type=int, default=20)
    ap.add_argument("--profile", action="store_true", help="profile the sample at the last turn")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        clock = Clock()
        r = make_referee(Path(tmp), clock)
        start(r)
        play(r, clock, 10 - a.sample // 2)
        early = mail_cost(r, clock, a.sample)
        play(r, clock, a.turns - 10 - a.sample)
        rules = len(_state(r)["rules"])
        if a.profile:
            import cProfile
            import pstats

            prof = cProfile.Profile()
            prof.enable()
            late = mail_cost(r, clock, a.sample)
            prof.disable()
            pstats.Stats(prof).sort_stats("cumulative").print_stats(40)
        else:
            late = mail_cost(r, clock, a.sample)
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
