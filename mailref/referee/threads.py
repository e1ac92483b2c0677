"""What the store tells about a mail beyond its own bytes (the game and the subject of the mail
it answers are routing's: mailref/routing.py): whether it answers its sender's own mail, the
game a bounce reports on, and each game's row, locked once per batch."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Any, cast

from sqlalchemy import bindparam, inspect, select
from sqlalchemy.orm import Session, defer
from sqlalchemy.orm.attributes import set_committed_value

from mailref import engine
from mailref.engine import Refused
from mailref.engine.state import GameState
from mailref.read import Envelope
from mailref.referee import verdicts
from mailref.referee.mails import Mail
from mailref.store import Bounce, Game, InboxMessage, OutboxMessage
from mailref.testhooks import as_stored

# Built once; the initial state (only replay reads it) stays in the database, and the state
# is read only when this process does not hold it as last committed.
_GAME_FOR_UPDATE = (
    select(Game)
    .options(defer(Game.initial), defer(Game.state))
    .where(Game.slug == bindparam("slug"))
    .with_for_update()
    .execution_options(populate_existing=True)
)


def locked_game(s: Session, slug: str) -> Game:
    """The game SLUG, locked for the rest of the transaction; loaded once per batch. Its state
    is the one this process last committed (s.info["states"], taken out so that nobody else
    holds it) when the game's version says nobody has changed it since; else it is read."""
    locked = s.info.setdefault("games", {})
    if slug not in locked:
        game = s.execute(_GAME_FOR_UPDATE, {"slug": slug}).scalar_one()
        take_held(s, game, s.info.get("states", {}))
        locked[slug] = game
    return locked[slug]


def take_held(s: Session, game: Game, states: dict[str, tuple[int, dict[str, Any]]]) -> None:
    """GAME, just locked, takes its state from STATES (this process's last committed, taken
    out so that nobody else holds it) when its version says nobody has changed it since; else
    the state is read from the row when first used."""
    held = states.pop(game.slug, None)
    if "state" not in inspect(game).unloaded:  # read before the lock: read it again
        s.expire(game, ["state"])
    if held is not None and held[0] == game.version:
        set_committed_value(game, "state", held[1])


@contextlib.contextmanager
def lent_state(
    states: dict[str, tuple[int, dict[str, Any]]], slug: str
) -> Iterator[tuple[int, dict[str, Any]] | None]:
    """SLUG's state as this process last committed it (STATES), with its version, lent to the
    pages so that they need not read it again: a batch of the game meanwhile finds none and
    reads the row. Given back unless a batch has committed a newer one since."""
    held = states.pop(slug, None)
    try:
        yield held
    finally:
        if held is not None:
            states.setdefault(slug, held)


def committed_states(s: Session) -> dict[str, tuple[int, dict]]:
    """The state of each game locked in S, by slug, with its version: taken just before the
    commit, for the next batch (locked_game) once the commit has gone through."""
    held = {slug: (g.version, g.state) for slug, g in s.info.get("games", {}).items()}
    for _, state in held.values():
        as_stored(state)
    return held


# The Message-IDs outgoing.thread_id makes (a matter's first mail, each reader's copy of
# relayed words) come from what players know (the game, the matter or the words' mail, a hash
# of the address): anyone can write one, the GM's copy of a player's words included.
_MADE_ID = re.compile(r"<[a-z]+(?:-[a-z0-9]+)+\.[^.@]+\.\d{14}\.[0-9a-f]{12}@")


# The GM's corrections by mail, each with its own refusal.
_CORRECTING: dict[str, Callable[[], Refused]] = {
    "approve": lambda: Refused("approve_needs_the_alert"),
    "vacate": lambda: Refused("vacate_needs_a_reply"),
    "score": lambda: Refused("score_needs_a_reply"),
    "rule": lambda: Refused("rule_needs_a_reply"),
    "undo": lambda: Refused("undo_needs_a_reply"),
    "update": lambda: Refused("update_needs_a_reply"),
    "results": lambda: Refused("results_need_a_reply"),
    "turn": lambda: Refused("results_need_a_reply"),
    "publish": lambda: Refused("results_need_a_reply"),
}
# The GM's steering by mail: what each does, and its example by mail and command on the host.
_STEERING = {
    "set": ("changes the game's settings", "[Set] dormant_below=3", "game set"),
    "decide": ("decides a proposal", "[Decide] 3 enact", "proposal enact"),
    "override": ("records a player's vote", "[Override] 3 NAME FOR", "vote"),
    "office": ("names an office's holder", "[Office] historian NAME", "office"),
    "column": ("declares a column", "[Column] Coins asset", "column add SLUG NAME KIND"),
    "deadline": ("moves or pauses the game's deadline", "[Deadline] +2d", "deadline"),
}


def needs_a_reply(tag: str) -> Refused:
    """The refusal of the GM's TAG that answers no mail of the game (and is not verified)."""
    if tag in _STEERING:
        does, example, cli = _STEERING[tag]
        said = f"[{tag.title()}]"
        return Refused("gm_needs_a_reply", tag=said, does=does, example=example, cli=cli)
    return _CORRECTING[tag]()


# The GM's commands that change the game for everybody: taken only as a Reply to the game's own
# mail (or verified); `needs_a_reply` refuses one that is not.
GM_NEEDS_A_REPLY = frozenset({*_CORRECTING, *_STEERING})
# Of those, what a GM who plays may also send as a player: without the Reply, read as the
# player's ([Update] of the GM's own values, a request for more time), never as the GM's.
AS_A_PLAYER = frozenset({"update", "deadline"})


def answers_own_mail(s: Session, env: Envelope, slug: str, addresses: list[str]) -> bool:
    """Whether ENV's In-Reply-To names a mail game SLUG sent to one of ADDRESSES: a Message-ID
    only its reader has, so a forger cannot make their mail look like one (SPEC §2.2)."""
    refs = [r for r in env.in_reply_to[:5] if not _MADE_ID.match(r)]
    if not refs:
        return False
    mine = {a.lower() for a in addresses}
    rows = s.execute(
        select(OutboxMessage.recipients).where(
            OutboxMessage.message_id.in_(refs), OutboxMessage.game_slug == slug
        )
    ).all()
    return any(mine & {str(a).lower() for a in rcpts or ()} for (rcpts,) in rows)


def record_bounces(s: Session, env: Envelope, row: Mail, now: datetime) -> None:
    """A Bounce row for each player whose address ENV reports as failing, and the game on
    ROW: the game that sent the quoted mail (read/returned.py), else every game where the
    address plays."""
    from mailref.read.returned import returned_message_ids

    ids = returned_message_ids(
        s.scalar(select(InboxMessage.raw).where(InboxMessage.id == row.id)) or b""
    )
    sent = (
        set(
            s.scalars(
                select(OutboxMessage.game_slug).where(
                    OutboxMessage.message_id.in_(ids), OutboxMessage.game_slug.is_not(None)
                )
            )
        )
        if ids
        else set()
    )
    for game in s.scalars(select(Game).where(Game.slug.in_(sent)) if sent else select(Game)):
        variant = engine.get_variant(game.variant)
        for addr in env.bounce_for:
            # The store's JSON read as the engine's state (docs/decisions/types.md).
            p = variant.players.by_address(cast("GameState", game.state), addr)
            if p:
                s.add(
                    Bounce(
                        game_slug=game.slug, player=p["name"], address=addr, at=now, inbox_id=row.id
                    )
                )
                row.game_slug = game.slug
    row.verdict += verdicts.bounce_for(env.bounce_for)
