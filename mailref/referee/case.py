"""One kept mail while the steps of the chain (steps.py, chain.py) run over it: what they
read, what routing learns on the way, and the game once it is opened."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, cast

from sqlalchemy.orm import Session

from mailref.engine.state import GameState, Player
from mailref.outgoing import Settings, Source
from mailref.read import Envelope
from mailref.referee import verdicts
from mailref.referee.mails import Mail
from mailref.reply import queue_reply
from mailref.store import Game

if TYPE_CHECKING:
    from mailref.engine.variants.base import Variant


@dataclass
class Case:
    """One mail while its steps run: what they read, and what routing learns on the way."""

    s: Session
    row: Mail
    env: Envelope
    now: datetime
    games: dict[str, str]  # slug -> address
    settings: Settings
    rng: random.Random | None
    slug: str | None = None
    by_thread: bool = False  # the thread named the game: no reply can be to the wrong one
    source: Source | None = None
    game: Game | None = None
    variant: Variant | None = None
    player: Player | None = None
    gm: str = ""
    labels: tuple[str, ...] = ()
    foreign: bool = False  # a reply that may answer another game's mail
    tag: str | None = None  # the command as understood: a ballot sent as a Reply is a `vote`
    step: str = ""  # the link of the chain (chain.py) the mail is at; in the end, what decided it

    def routed(self) -> Source:
        """Where an answer goes, as `route` made it (the steps after it in the chain)."""
        if self.source is None:
            raise RuntimeError(f"step {self.step!r} ran before the mail was routed")
        return self.source

    def opened(self) -> Opened:
        """The game `open_game` opened (the steps after it in the chain)."""
        game, variant, sender = self.game, self.variant, self.env.from_addr
        if self.slug is None or game is None or variant is None or sender is None:
            raise RuntimeError(f"step {self.step!r} ran before the game was opened")
        # The store's JSON read as the engine's state (docs/decisions/types.md).
        return Opened(self.slug, game, variant, sender, cast("GameState", game.state))

    def decide(self, status: str, verdict: str) -> bool:
        """Set the mail's STATUS and VERDICT (verdicts.py); True: no further step runs."""
        self.row.status, self.row.verdict = status, verdict
        return True

    def answer_error(
        self,
        reason: str,
        hint: str,
        verdict: str | None = None,
        source: Source | None = None,
        refusal: str | None = None,
    ) -> bool:
        """Answer with an error reply in the game (error.txt); REFUSAL: its code, if it has one."""
        self.decide(verdicts.PROCESSED, verdict or verdicts.error(reason))
        source = source or self.routed()
        queue_reply(
            self.s,
            self.settings,
            self.slug,
            source,
            self.now,
            "error",
            "error.txt",
            {
                "reason": reason,
                "hint": hint,
                "subject": source.subject,
                "game": self.opened().game.state,
                "refusal": refusal,
            },
        )
        return True


@dataclass(frozen=True)
class Opened:
    """The game a mail is read in, once `open_game` has opened it."""

    slug: str
    game: Game
    variant: Variant
    sender: str  # the From address: a mail without one is decided before routing
    state: GameState  # the game's state, as the engine reads it
