"""Dice players can check (SPEC §4.4): every draw of a journal entry is derived from a secret
seed and the entry's number, so that once the seed is revealed anyone recomputes it.

Draw I of journal entry SEQ, uniform in LO..HI, from the seed S (32 bytes, written in hex):

    n = HI - LO + 1;  for attempt a = 0, 1, ...:
        x = int(HMAC-SHA256(key=S, msg="mailref-dice:SEQ:I:a"), big-endian)
        if x < 2**256 - (2**256 % n): the draw is LO + x % n   (else try the next attempt)

The rejection keeps every value of 1..n exactly equally likely. The seed's SHA-256 is
published before the seed is used, so the host cannot choose it after seeing the orders."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable
from dataclasses import dataclass, field

SPACE = 1 << 256


def commitment(seed: str) -> str:
    """The SHA-256 of a seed (hex): what is published before the seed is used."""
    return hashlib.sha256(bytes.fromhex(seed)).hexdigest()


def derive(seed: str, seq: int, index: int, lo: int, hi: int) -> int:
    """Draw INDEX of journal entry SEQ, uniform in LO..HI, from SEED (hex)."""
    if hi < lo:
        raise ValueError(f"empty range {lo}..{hi}")
    n, key = hi - lo + 1, bytes.fromhex(seed)
    limit = SPACE - SPACE % n
    attempt = 0
    while True:
        mac = hmac.new(
            key, f"mailref-dice:{seq}:{index}:{attempt}".encode(), hashlib.sha256
        ).digest()
        x = int.from_bytes(mac, "big")
        if x < limit:
            return lo + x % n
        attempt += 1


def drawn_as(seq: int, entries_before: int | None) -> int:
    """The entry number the draws of journal entry SEQ are derived with: SEQ, or in a game
    imported after ENTRIES_BEFORE entries elsewhere, the count going on from them (the import
    entry, which draws nothing, takes the last one's place), so that it draws as it would have."""
    return seq if entries_before is None else entries_before + seq - 1


@dataclass
class SeededDraws:
    """The random source of one journal entry: `randint` as `random.Random` has it, each draw
    derived from SEED and SEQ; the ranges asked for are kept, so the draws can be checked."""

    seed: str
    seq: int
    ranges: list[tuple[int, int]] = field(default_factory=list)

    def randint(self, lo: int, hi: int) -> int:
        value = derive(self.seed, self.seq, len(self.ranges), lo, hi)
        self.ranges.append((lo, hi))
        return value


@dataclass
class Checked:
    """One journal entry's draws, recomputed."""

    seq: int
    seed_number: int | None
    draws: list[int]
    ranges: list[tuple[int, int]]
    derived: list[int]
    verdict: str  # ok | mismatch | unrevealed | unverifiable

    @property
    def ok(self) -> bool:
        return self.verdict == "ok"


def check(
    seq: int,
    draws: list[int],
    seed_number: int | None,
    seed: str | None,
    committed: str | None,
    ranges: Iterable[Iterable[int]] | None,
) -> Checked:
    """Recompute the DRAWS of entry SEQ from SEED (None while unrevealed) and the RANGES they
    were drawn in; a seed that does not hash to what was COMMITTED fails every draw."""
    rs = [(int(lo), int(hi)) for lo, hi in ranges or ()]
    if seed_number is None or ranges is None:
        return Checked(seq, seed_number, list(draws), rs, [], "unverifiable")
    if seed is None:
        return Checked(seq, seed_number, list(draws), rs, [], "unrevealed")
    derived = [derive(seed, seq, i, lo, hi) for i, (lo, hi) in enumerate(rs)]
    good = commitment(seed) == committed and derived == list(draws)
    return Checked(seq, seed_number, list(draws), rs, derived, "ok" if good else "mismatch")
