"""The games: pure rules over state, reached only through `apply`."""

from mailref.engine.context import Ctx, Outgoing, Refused
from mailref.engine.door import Outcome, Settings, Source, apply, create_game
from mailref.engine.public import public_view
from mailref.engine.replay import replay
from mailref.engine.variants import VARIANTS, get_variant

__all__ = ["VARIANTS", "Ctx", "Outcome", "Outgoing", "Refused", "Settings", "Source", "apply",
           "create_game", "get_variant", "public_view", "replay"]
