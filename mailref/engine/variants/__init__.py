"""The games mailref runs, by variant name.

A variant's module is imported the first time a game of it is played: `mailref replay` of a
Sidekick game does not load the orders games' readers and maps (SPEC §8: start-up included)."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from mailref.engine.variants.base import Variant

# name -> (module, class); the order in which they are listed
_WHERE = {
    "sidekick": ("sidekick", "Sidekick"),
    "blognomic": ("blognomic", "BlogNomic"),
    "imperial": ("imperial", "Imperial"),
    "eire": ("eire", "Eire"),
    "orders": ("orders", "Orders"),
}
_loaded: dict[str, Variant] = {}


def get_variant(name: str) -> Variant:
    variant = _loaded.get(name)
    if variant is None:
        if name not in _WHERE:
            raise KeyError(f"unknown variant {name!r} (known: {', '.join(sorted(_WHERE))})")
        module, cls = _WHERE[name]
        variant = _loaded.setdefault(name, getattr(import_module(f"{__name__}.{module}"), cls)())
    return variant


def __getattr__(name: str) -> Any:
    """VARIANTS: every variant by name, all loaded (PEP 562)."""
    if name == "VARIANTS":
        return {n: get_variant(n) for n in _WHERE}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
