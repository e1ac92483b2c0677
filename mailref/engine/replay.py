"""Rebuild a game's state from nothing but its initial state and its journal."""

from __future__ import annotations

import copy
import gc
import random

from mailref.engine.archive import take_cold
from mailref.engine.context import Ctx, Refused
from mailref.engine.court import COUNTERS, Court, Entry, counters
from mailref.engine.schema import upgrade
from mailref.engine.state import GameState, Matter
from mailref.engine.variants import get_variant


def replay(
    initial: GameState,
    entries: list[Entry],
    archived: list[tuple[str, Matter]] | None = None,
    court: Court | None = None,
) -> GameState:
    """ENTRIES are (action, at, draws) in journal order. A journaled action that is refused
    on replay means the rules changed under the journal: that is a real divergence. Returns
    the hot state; the matters archived on the way are appended to ARCHIVED when given.
    Nothing is copied or compared per entry: the caller compares once, at the end. An entry
    that orders undos replays the journal up to it again without the entries it voids
    (engine/court.py); COURT, when given, keeps what the last order did."""
    state = upgrade(copy.deepcopy(initial))
    variant = get_variant(state["variant"])
    handle, collections, still_open = (
        variant.handle,
        variant.archived_collections,
        variant.still_open(),
    )
    rng = random.Random(0)  # never drawn from: every draw is given back from the journal
    # The cyclic collector would walk the whole journal and state again and again, to find
    # nothing: what an action makes and drops holds no cycle, and is freed when dropped.
    collecting = gc.isenabled()
    gc.disable()
    court = court or Court()
    try:
        for i, (action, at, draws) in enumerate(entries):
            ctx = Ctx(at, rng=rng, draws=draws)
            try:
                handle(state, action, ctx)
            except Refused as r:
                raise RuntimeError(
                    f"replay refused a journaled {action['type']}: {r.reason}"
                ) from None
            if ctx.court:
                old = state
                state = court.rule(variant, initial, entries[: i + 1], ctx.court, archived, old)
                was, counts = counters(old), counters(state)
                for key in COUNTERS:  # a number is never given twice
                    if key in was:
                        counts[key] = max(was[key], counts.get(key, 0))
                continue
            cold = take_cold(state, collections, still_open, at)
            if cold and archived is not None:
                archived += cold
    finally:
        if collecting:
            gc.enable()
    return state


def differences(a: object, b: object, path: str = "") -> list[str]:
    """Where two states differ, as dotted paths (the first few)."""
    out: list[str] = []
    if not path and a == b:  # one C-speed comparison for the usual answer: identical
        return out
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            if k not in a or k not in b:
                out.append(f"{path}.{k}: only in {'live' if k in a else 'replayed'}")
            else:
                out += differences(a[k], b[k], f"{path}.{k}")
    elif isinstance(a, list | tuple) and isinstance(b, list | tuple) and len(a) == len(b):
        # A stored state is JSON, where a tuple comes back as a list: the same value.
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            out += differences(x, y, f"{path}[{i}]")
    elif a != b:
        out.append(f"{path or '.'}: live {a!r} != replayed {b!r}"[:300])
    return out[:20]
