"""A two-player Sidekick game played turn by turn, for the sections that time a mail at an
early and a late turn: the turns between through the door in big transactions (the same
actions, journal, archive and outgoing mail as by mail, without reading mail), the timed
ones as mail through Referee.accept."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from common import G

from mailref.referee import Referee
from support.helpers import Clock, deliver, mail


@dataclass(frozen=True)
class Turn:
    """How each turn goes: the proposal's TEXT (from the state and its number), the other
    player's VOTE on it ("FOR" passes it, "AGAINST" fails it), the time a turn takes and
    whether a deadline tick follows it."""

    text: Callable[[dict, int], str]
    vote: str
    takes: timedelta
    tick: bool


def start_game(r: Referee) -> None:
    r.create_game("nomes", "sidekick", G, gm="gm@ref.example", parameters={"win_score": 10**9})
    for name in ("Alice", "Bob"):
        r.admin(
            "nomes",
            {"type": "player_add", "name": name, "address": f"{name.lower()}@players.example"},
            "bench",
        )


def _players(st: dict) -> tuple[str, str]:
    mover = st["turn"]["player"]
    return mover, "Bob" if mover == "Alice" else "Alice"


def play(r: Referee, clock: Clock, turns: int, turn: Turn) -> None:
    """TURNS more turns through the door, a hundred to a transaction."""
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
                mover, other = _players(game.state)
                n = game.state["next_number"]
                text = turn.text(game.state, n)
                changes = [c.as_dict() for c in read_rule_changes(text)]
                propose = {
                    "type": "propose",
                    "player": mover,
                    "title": f"Idea {n}",
                    "text": text,
                    "changes": changes,
                }
                vote = {
                    "type": "vote",
                    "player": other,
                    "ballots": [{"number": n, "vote": turn.vote, "word": turn.vote}],
                }
                for action in (propose, vote):
                    door.apply(s, game, action, src, clock(), r.settings, r.rng)
                clock.advance(seconds=turn.takes.total_seconds())
                if turn.tick:
                    timer = door.Source("timer", "deadline")
                    door.apply(s, game, {"type": "tick"}, timer, clock(), r.settings, r.rng)
                done += 1


def hot_state(r: Referee) -> dict:
    """The game's state as stored (its archived matters left out)."""
    from sqlalchemy import select

    from mailref.store import Game

    with r.store() as s:
        return s.scalar(select(Game.state).where(Game.slug == "nomes"))


def mail_cost(r: Referee, clock: Clock, turns: int, turn: Turn) -> tuple[float, float]:
    """Mean ms per mail (wall, CPU) of a proposal and its vote sent as mail, over TURNS turns."""
    wall, cpu, mails = 0.0, 0.0, 0
    for _ in range(turns):
        st = hot_state(r)
        mover, other = _players(st)
        n = st["next_number"]
        for who, subject, body in (
            (mover, f"[Proposal] Idea {n}", turn.text(st, n)),
            (other, f"Re: [Proposal {n}] Idea {n}", f"{turn.vote}\n"),
        ):
            a = f"{who.lower()}@players.example"
            raw = mail(a, G, subject, body)
            t, c = time.perf_counter(), time.process_time()
            deliver(r, raw, "smtp", a, [G])
            wall += time.perf_counter() - t
            cpu += time.process_time() - c
            mails += 1
        clock.advance(seconds=turn.takes.total_seconds())
        if turn.tick:
            r.tick()
    return wall / mails * 1000, cpu / mails * 1000
