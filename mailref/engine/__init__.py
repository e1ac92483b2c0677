"""The games: pure rules over state. They import nothing of store, mail or render; the one
door that applies them (`mailref.door.apply`) sits above, beside the referee."""

from mailref.engine.context import Ctx, Outgoing, Refused
from mailref.engine.public import public_view
from mailref.engine.replay import replay
from mailref.engine.variants import VARIANTS, get_variant

__all__ = ["VARIANTS", "Ctx", "Outgoing", "Refused", "get_variant", "public_view", "replay"]
