"""Rebuild a game's state from nothing but its initial state and its journal."""

from __future__ import annotations

import copy

from mailref.engine.context import Ctx, Refused
from mailref.engine.variants import get_variant


def replay(initial: dict, entries: list[tuple[dict, object, list[int]]]) -> dict:
    """ENTRIES are (action, at, draws) in journal order. A journaled action that is refused
    on replay means the rules changed under the journal: that is a real divergence."""
    state = copy.deepcopy(initial)
    variant = get_variant(state["variant"])
    for action, at, draws in entries:
        ctx = Ctx(at, draws=draws)
        try:
            variant.handle(state, action, ctx)
        except Refused as r:
            raise RuntimeError(f"replay refused a journaled {action['type']}: {r.reason}") from None
    return state


def differences(a: object, b: object, path: str = "") -> list[str]:
    """Where two states differ, as dotted paths (the first few)."""
    out: list[str] = []
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
