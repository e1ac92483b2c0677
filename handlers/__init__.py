"""Subject tags -> engine actions. Each module declares the tags it handles; the registry
reads as the list of what a player can write."""

from __future__ import annotations

from mailref.handlers import (  # noqa: F401 - each module registers its tags
    absence,
    corrections,
    deadline,
    dynasty,
    emperor,
    ending,
    gamestate,
    info,
    join,
    judgement,
    orders,
    press,
    proposal,
    record,
    score,
    settings,
    steering,
    substitutes,
    turn,
    vote,
    watch,
)
from mailref.handlers.registry import (  # noqa: F401 - the package's face
    REGISTRY,
    GameView,
    Handler,
    Route,
    body_fields,
    dispatch,
    forwarded,
    handles,
    not_a_player,
    not_only_attached,
    read_whole,
    reply_to_results,
    signer,
)
