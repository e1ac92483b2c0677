"""The journal as the court record (SPEC §4.4). An entry may order others void (`Undo entry
57`, `Undo proposal 3`, `Undo the vote of Bob on proposal 3`): the journal is then replayed
from the start without them, every other entry with its recorded time and draws, and an entry
that can no longer apply is void too. Nothing is erased: the ordering entry stays in the
journal, and replaying the journal orders the same again (docs/decisions/judgements.md)."""

from __future__ import annotations

import copy
import json
import random
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, cast

from mailref.engine.archive import take_cold
from mailref.engine.context import Ctx, Refused
from mailref.engine.schema import upgrade
from mailref.engine.state import Action, GameState, Matter, VoteLine

Entry = tuple[Action, datetime, list[int] | None]
MARK = "Journal entries void:"  # begins the summary line of every entry that ordered undos
VOTES = ("vote", "vote_override")
# The numbers matters and judgements take: a void entry keeps the numbers it took, so that
# every later matter keeps its own (a ballot on matter 5 still means matter 5).
COUNTERS = ("next_number", "next_judgement")


@dataclass
class Voided:
    """A journal entry (by its number, SEQ) that no longer counts: ordered void, or WHY it can
    no longer apply. BALLOTS: only these matters' ballots of the entry are void."""

    seq: int
    why: str = ""
    ballots: tuple[int, ...] = ()
    gone: tuple[str, int] | None = None  # the matter (label, number) undone under it


@dataclass
class _Timeline:
    """Where each matter was opened and each ballot cast, by entry number."""

    opened: dict[int, int] = field(default_factory=dict)
    ballots: dict[tuple[str, int], list[int]] = field(default_factory=dict)


@dataclass
class Court:
    """What a replay knows of the game's undos: which entries are void (None: the whole
    entry; else the matters whose ballots it no longer casts), and what the last order did.
    LIVE: the last entry is being applied now, so its strict order may refuse it."""

    live: bool = False
    void: dict[int, set[int] | None] = field(default_factory=dict)
    consumed: dict[int, dict[str, int]] = field(default_factory=dict)  # entry -> numbers taken
    ordering: set[int] = field(default_factory=set)  # the entries that ordered undos
    voided: list[Voided] = field(default_factory=list)  # what the last order voided
    unresolved: list[str] = field(default_factory=list)  # its lines that named nothing
    mail: list[Any] = field(default_factory=list)  # what the variant sent after the last undo

    def rule(
        self,
        variant: Any,
        initial: GameState,
        entries: list[Entry],
        orders: list[dict[str, Any]],
        archived: list[tuple[str, Matter]] | None,
        before: GameState | None = None,
    ) -> GameState:
        """ENTRIES end with the entry giving ORDERS: void what they name and replay ENTRIES from
        INITIAL. Returns the hot state; ARCHIVED is replaced by what the new history archived.
        BEFORE, the state the old history reached, lets the variant pick up what the undo
        reopened (`after_undo`, Sidekick's turn); the mail it sends is kept in `mail`."""
        seq = len(entries)
        self.voided, self.unresolved = [], []
        self.ordering.add(seq)
        timeline = _Timeline()
        _walk(variant, initial, entries[:-1], self.void, self.consumed, timeline=timeline)
        for order in orders:
            strict = order["strict"] and self.live
            for ref in order["undo"]:
                try:
                    self._void(ref, seq, timeline)
                except Refused as r:
                    if strict:
                        raise
                    self.unresolved.append(f"{describe(ref)}: {r.words('alert')[0]}")
        cold: list[tuple[str, Matter]] = []
        state, refused = _walk(variant, initial, entries, self.void, self.consumed, archived=cold)
        for n, why, gone in refused:
            if n == seq:
                if self.live:
                    raise Refused("undo_leaves_entry_unapplied", why=why)
                continue
            self.void[n] = None
            self.voided.append(Voided(n, why, gone=gone))
        if archived is not None:
            archived[:] = cold
        self.mail = []
        if before is not None:
            ctx = Ctx(entries[-1][1], rng=random.Random(0), draws=[])
            variant.after_undo(before, state, ctx)
            self.mail = ctx.out
        return state

    def _void(self, ref: dict[str, Any], seq: int, timeline: _Timeline) -> None:
        if "entry" in ref:
            n = int(ref["entry"])
            if not 0 < n < seq:
                raise Refused("no_entry_before", entry=n)
            if self.void.get(n, set()) is None:
                raise Refused("entry_void_already", entry=n)
            if n in self.ordering:  # what it voided stays void (docs/decisions/judgements.md)
                raise Refused("entry_is_undo", entry=n)
            self._add(Voided(n))
        elif "vote" in ref:
            number, who = int(ref["vote"]), str(ref["player"])
            seqs = timeline.ballots.get((who.lower(), number))
            if not seqs:
                raise Refused("no_vote_that_counts", player=who, number=number)
            for n in seqs:
                self._add(Voided(n, ballots=(number,)))
        else:
            number = int(ref["proposal"])
            opened = timeline.opened.get(number)
            if opened is None:
                raise Refused("no_proposal_that_counts", number=number)
            self._add(Voided(opened))

    def _add(self, v: Voided) -> None:
        had = self.void.get(v.seq, set())
        if v.ballots and had is not None:
            self.void[v.seq] = had | set(v.ballots)
        else:
            self.void[v.seq] = None
        self.voided.append(v)


def describe(ref: dict[str, Any]) -> str:
    """An effect line (an undo, a score, a value set) as the players write it."""
    if "set" in ref:
        return f"Set {ref['set']} of {ref['player']} to {ref['value']}"
    if "score" in ref:
        return f"Score {ref['score']} {int(ref['amount']):+d}"
    if "entry" in ref:
        return f"Undo entry {ref['entry']}"
    if "vote" in ref:
        return f"Undo the vote of {ref['player']} on proposal {ref['vote']}"
    return f"Undo proposal {ref['proposal']}"


def _walk(
    variant: Any,
    initial: GameState,
    entries: list[Entry],
    void: dict[int, set[int] | None],
    consumed: dict[int, dict[str, int]],
    timeline: _Timeline | None = None,
    archived: list[tuple[str, Matter]] | None = None,
) -> tuple[GameState, list[tuple[int, str, tuple[str, int] | None]]]:
    """Replay ENTRIES from INITIAL without the VOID ones (and their void ballots), silently;
    an entry left out keeps the numbers it CONSUMED, which a TIMELINE walk notes. Returns the
    state and the entries that no longer apply, with why."""
    state = upgrade(copy.deepcopy(initial))
    rng = random.Random(0)  # never drawn from: every draw is given back from the journal
    refused: list[tuple[int, str, tuple[str, int] | None]] = []
    for n, (action, at, draws) in enumerate(entries, 1):
        drop = void.get(n, set())
        if drop is None:
            _keep_numbers(state, consumed.get(n))
            continue
        if drop:
            kept = [b for b in _ballots(action) if int(b["number"]) not in drop]
            if action["type"] == "vote_override" and int(action["number"]) in drop or not kept:
                continue
            action = cast(Action, {**action, "ballots": kept})
        ctx = Ctx(at, rng=rng, draws=draws)
        ctx.rerun = True
        before = {k: counters(state)[k] for k in COUNTERS if k in state}
        try:
            trial = json.loads(json.dumps(state))  # a state is JSON: faster than deepcopy
            variant.handle(trial, action, ctx)
        except (Refused, RuntimeError) as e:  # RuntimeError: its draws no longer fit
            gone = (
                (str(e.params.get("label") or "matter"), int(e.params["number"]))
                if isinstance(e, Refused) and e.code == "no_matter" and "number" in e.params
                else None
            )
            refused.append((n, e.reason if isinstance(e, Refused) else str(e), gone))
            _keep_numbers(state, consumed.get(n))
            continue
        state = trial
        if timeline is not None:
            counted = counters(state)
            took = {k: counted[k] - v for k, v in before.items() if counted[k] != v}
            if took:
                consumed[n] = took
            first = before.get("next_number", 0)
            timeline.opened.update({m: n for m in range(first, state.get("next_number", 0))})
            if action["type"] in VOTES:
                _cast(timeline, action, n)
        cold = take_cold(state, variant.archived_collections, variant.still_open(), at)
        if archived is not None:
            archived += cold
    return state, refused


def _keep_numbers(state: GameState, took: dict[str, int] | None) -> None:
    """Skip the numbers an entry left out had taken."""
    counts = counters(state)
    for k, c in (took or {}).items():
        counts[k] = counts.get(k, 0) + c


def counters(state: GameState) -> dict[str, int]:
    """STATE's COUNTERS, by name (the state itself, seen as a dict)."""
    return cast("dict[str, int]", state)


def _ballots(action: Action) -> list[VoteLine]:
    """The ballots ACTION casts: a [Vote]'s, or another's that carries them (none for most)."""
    return list(cast("dict[str, Any]", action).get("ballots") or ())


def _cast(timeline: _Timeline, action: Action, n: int) -> None:
    """Note the ballots entry N casts, by voter and matter."""
    who = str(action.get("player") or "").lower()
    numbers = (
        [action["number"]]
        if action["type"] == "vote_override"
        else [b["number"] for b in _ballots(action)]
    )
    for number in numbers:
        timeline.ballots.setdefault((who, int(number)), []).append(n)
