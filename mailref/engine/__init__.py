"""The games: pure rules over state. They import nothing of store, mail or render; the one
door that applies them (`mailref.door.apply`) sits above, beside the referee.

The names below load on first use (PEP 562): `mailref.engine.context` alone (Refused) does
not pull in every variant, which the command line's start-up would pay for (SPEC §8 replay)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mailref.lazy import lazy_names

if TYPE_CHECKING:
    from mailref.engine.context import Ctx, Outgoing, Refused
    from mailref.engine.public import public_view
    from mailref.engine.variants import VARIANTS, get_variant

_WHERE = {
    "Ctx": "context",
    "Outgoing": "context",
    "Refused": "context",
    "public_view": "public",
    "VARIANTS": "variants",
    "get_variant": "variants",
}
# `replay` is not among them: it is also a submodule's name, which importing that submodule
# binds here; use `from mailref.engine.replay import replay`.
__all__ = ["VARIANTS", "Ctx", "Outgoing", "Refused", "get_variant", "public_view"]

__getattr__ = lazy_names(__name__, _WHERE)
