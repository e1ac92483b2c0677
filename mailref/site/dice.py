"""Every draw of a game recomputed from its revealed seeds (SPEC §4.4): what `mailref dice
verify` prints and the game's dice page shows."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.orm import Session

from mailref.engine.dice import Checked, check, drawn_as
from mailref.site import kept
from mailref.store import dice as dice_store
from mailref.store.models import Game, JournalEntry

HOW = (
    "Draw I of journal entry SEQ, uniform in LO..HI, is LO + x mod n (n = HI - LO + 1), where x is "
    'HMAC-SHA256 with the seed\'s 32 bytes as key over "mailref-dice:SEQ:I:A", read as a '
    "big-endian "
    "number, for the first attempt A = 0, 1, ... with x < 2^256 - (2^256 mod n). Each seed's "
    "SHA-256 "
    "was published before its first draw. A game imported from another referee counts SEQ on "
    "from the entries it had there, the import entry taking the last one's place."
)


@dataclass
class Report:
    checked: list[Checked] = field(default_factory=list)
    seeds: list[dict] = field(default_factory=list)

    def count(self, verdict: str) -> int:
        return sum(len(c.draws) for c in self.checked if c.verdict == verdict)

    @property
    def ok(self) -> bool:
        return not self.count("mismatch")

    def lines(self) -> list[str]:
        out = [
            f"{self.count('ok')} draws recomputed from revealed seeds: all match."
            if self.ok
            else f"{self.count('mismatch')} draws do NOT match their revealed seed."
        ]
        for c in self.checked:
            if c.verdict == "mismatch":
                out.append(
                    f"  entry {c.seq}: recorded {c.draws}, recomputed {c.derived} (seed "
                    f"{c.seed_number})"
                )
        if n := self.count("unrevealed"):
            waiting = sorted(
                {
                    c.seed_number
                    for c in self.checked
                    if c.verdict == "unrevealed" and c.seed_number is not None
                }
            )
            out.append(
                f"{n} draws come from seed {', '.join(map(str, waiting))}, not revealed yet: "
                "checkable once "
                "it is (each Eire results mail; `mailref dice reveal SLUG`)."
            )
        if n := self.count("unverifiable"):
            out.append(
                f"{n} older draws were made before this game had a seed chain: they are recorded "
                "(replay uses them) but unverifiable."
            )
        for s in self.seeds:
            state = f"revealed {s['seed']}" if s["seed"] else "not revealed yet"
            out.append(f"seed {s['number']}: SHA-256 {s['sha256']}, {state}")
        return out


_drawn: dict[str, tuple[int, list[tuple[int, list[int]]]]] = kept.per_game({})


def verify(session: Session, game: Game, key: tuple | None = None) -> Report:
    """Each journal entry of GAME that drew, recomputed from the seed it drew from. With KEY
    (site/kept.py) the entries read at the last build are kept and only newer ones read: a
    journal entry's draws never change, and a rewritten journal drops what is kept."""
    chain = {s.number: s for s in dice_store.seeds(session, game.id)}
    ranges = dice_store.draws(session, game.id)
    report = Report(seeds=dice_store.public(session, game.id)["seeds"])
    last, rows = _drawn.get(kept.name(key), (0, [])) if key else (0, [])
    if last > game.version:
        last, rows = 0, []
    newer = session.execute(
        select(JournalEntry.seq, JournalEntry.draws)
        .where(JournalEntry.game_id == game.id, JournalEntry.seq > last)
        .order_by(JournalEntry.seq)
    )
    rows = rows + [(seq, draws) for seq, draws in newer if draws]
    if key:
        _drawn[kept.name(key)] = (game.version, rows)
    before = (game.state or {}).get("entries_before")
    for seq, draws in rows:
        if not draws:
            continue
        d = ranges.get(seq)
        seed = chain.get(d.seed_number) if d else None
        report.checked.append(
            check(
                drawn_as(seq, before),
                draws,
                d.seed_number if d else None,
                seed.seed if seed is not None and seed.revealed_at else None,
                seed.commitment if seed is not None else None,
                d.ranges if d else None,
            )
        )
    return report
