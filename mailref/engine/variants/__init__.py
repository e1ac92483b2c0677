"""The games mailref runs, by variant name."""

from __future__ import annotations

from mailref.engine.variants.base import Variant
from mailref.engine.variants.blognomic import BlogNomic
from mailref.engine.variants.eire import Eire
from mailref.engine.variants.imperial import Imperial
from mailref.engine.variants.orders import Orders
from mailref.engine.variants.sidekick import Sidekick

VARIANTS: dict[str, Variant] = {v.name: v for v in (Sidekick(), BlogNomic(), Imperial(), Eire(), Orders())}


def get_variant(name: str) -> Variant:
    try:
        return VARIANTS[name]
    except KeyError:
        raise KeyError(f"unknown variant {name!r} (known: {', '.join(sorted(VARIANTS))})") from None
