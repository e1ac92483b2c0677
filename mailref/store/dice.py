"""A game's seed chain in the database: the seed in use (secret), committing the next one
when it is revealed, and the ranges of each journal entry's draws (SPEC §4.4)."""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from mailref.store.models import DiceDraw, DiceSeed


def current(session: Session, game_id: int, seq: int, now: datetime) -> DiceSeed:
    """The unrevealed seed of the game, committed now (after entry SEQ) when it has none: the
    first seed of a game is committed at its creation, before any draw."""
    row = session.scalars(
        select(DiceSeed)
        .where(DiceSeed.game_id == game_id, DiceSeed.revealed_at.is_(None))
        .order_by(DiceSeed.number.desc())
        .limit(1)
    ).first()
    if row is not None:
        return row
    last = session.scalars(
        select(DiceSeed.number)
        .where(DiceSeed.game_id == game_id)
        .order_by(DiceSeed.number.desc())
        .limit(1)
    ).first()
    return commit(session, game_id, (last or 0) + 1, seq, now)


def commit(
    session: Session, game_id: int, number: int, seq: int, now: datetime, seed: str | None = None
) -> DiceSeed:
    seed = seed or secrets.token_hex(32)
    row = DiceSeed(
        game_id=game_id,
        number=number,
        seed=seed,
        commitment=hashlib.sha256(bytes.fromhex(seed)).hexdigest(),
        committed_at=now,
        committed_seq=seq,
    )
    session.add(row)
    session.flush()
    return row


def reveal(
    session: Session, seed: DiceSeed, seq: int, now: datetime, upcoming: str | None = None
) -> DiceSeed:
    """Reveal SEED after it served entry SEQ, and commit the next one (UPCOMING, when its
    SHA-256 was already told), which is returned."""
    seed.revealed_at, seed.revealed_seq = now, seq
    session.flush()
    return commit(session, seed.game_id, seed.number + 1, seq, now, upcoming)


def record(
    session: Session, game_id: int, seq: int, seed_number: int, ranges: list[tuple[int, int]]
) -> None:
    session.add(
        DiceDraw(
            game_id=game_id, seq=seq, seed_number=seed_number, ranges=[list(r) for r in ranges]
        )
    )


def seeds(session: Session, game_id: int) -> list[DiceSeed]:
    return list(
        session.scalars(
            select(DiceSeed).where(DiceSeed.game_id == game_id).order_by(DiceSeed.number)
        )
    )


def draws(session: Session, game_id: int) -> dict[int, DiceDraw]:
    """Each journal entry's seed and ranges, by entry number."""
    return {d.seq: d for d in session.scalars(select(DiceDraw).where(DiceDraw.game_id == game_id))}


def public(session: Session, game_id: int) -> dict[str, Any]:
    """What anyone may know of the chain: every commitment, and each seed once revealed."""
    chain = seeds(session, game_id)
    return {
        "seeds": [
            {
                "number": s.number,
                "sha256": s.commitment,
                "committed_at": s.committed_at.isoformat(),
                "committed_after_entry": s.committed_seq,
                "seed": s.seed if s.revealed_at else None,
                "revealed_at": s.revealed_at.isoformat() if s.revealed_at else None,
                "last_entry": s.revealed_seq,
            }
            for s in chain
        ],
        "next_sha256": next((s.commitment for s in chain if s.revealed_at is None), None),
    }
