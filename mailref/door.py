"""The one door: mail, timers and admins change a game only through `apply`, which in one
transaction updates the state, appends a journal entry and queues the outgoing mail."""

from __future__ import annotations

import copy
import dataclasses
import logging
import random
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import insert, inspect, select
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import flag_modified, set_committed_value

from mailref import court
from mailref.engine.archive import merge, take_cold
from mailref.engine.context import Ctx, Outgoing, Refused
from mailref.engine.dice import SeededDraws, commitment, drawn_as
from mailref.engine.ruleset_file import Ruleset
from mailref.engine.schema import upgrade
from mailref.engine.state import Action, GameState, Matter
from mailref.engine.variants import get_variant
from mailref.engine.variants.base import READ_ONLY
from mailref.outgoing import (
    Settings,
    Source,
    confirmation_id,
    game_subject,
    held,
    queue,
    recipients,
    thread_id,
    thread_key,
)
from mailref.read.identity import normalise_address
from mailref.read.names import name_keys
from mailref.reply import queue_reply
from mailref.store import ArchivedMatter, Game, JournalEntry, fastjson
from mailref.store import dice as dice_store
from mailref.store.archived import archived
from mailref.store.counters import mailed_today

log = logging.getLogger("mailref.door")


# Said on the inbox row of a [Join] whose confirmation the day's allowance held back.
NO_CONFIRMATION = "no confirmation sent: the sender's answers for the day are spent"


@dataclass
class Outcome:
    ok: bool
    lines: list[str]
    reason: str = ""
    hint: str = ""
    changed: bool = False
    refusal: Refused | None = None  # what refused it, for a face to say in its own terms


def apply(
    session: Session,
    game: Game,
    action: Action,
    source: Source,
    now: datetime,
    settings: Settings,
    rng: random.Random | None = None,
    facts: dict[str, Any] | None = None,
) -> Outcome:
    """Apply ACTION to GAME at NOW. The caller commits; on a refusal the state is untouched
    and the error reply is queued. A read-only command ([Status], [Rules], [Help]) reads the
    stored state as it is: no copy, no comparison, no journal entry, no write."""
    variant = get_variant(game.variant)
    _prepare_identity(action)
    read_only = action["type"] in READ_ONLY
    # The state changes where it lies. Each change is flushed as it is made, so the row holds
    # the state before this action: a refusal or a failure reads it back from there, and a
    # change costs one dump of the state, not a copy kept in case.
    state = upgrade(_engine_state(game.state))  # a state an older mailref wrote, in today's shape
    if not read_only:  # what each player had from the game today (SPEC §2.2), journaled
        had = mailed_today(session.connection(), game.slug, now.strftime("%Y-%m-%d"))
        action["mailed"] = {
            p["name"]: had[a]
            for p in state["players"]
            if p["status"] != "left" and (a := p["addresses"][0].lower()) in had
        }
        action["mailed_gm"] = had.get((state.get("gm") or settings.admin_address).lower(), 0)
    chain = None if read_only or rng is not None else _seeded(session, game, now)
    ctx = Ctx(now, rng=chain.draws if chain else rng, facts=facts)
    if chain is not None:
        ctx.use_dice({"number": chain.seed.number, "sha256": chain.seed.commitment}, chain.reveal)
    try:
        variant.handle(state, action, ctx)
        if ctx.court and not read_only:  # an undo: the journal replayed without what it voids
            before = _engine_state(_as_flushed(session, game))
            state = court.rule(session, game, action, ctx, now, state, before)
    except BaseException as e:
        if not read_only:
            _put_back(game, _as_flushed(session, game))
        if not isinstance(e, Refused):
            raise
        r = e
        if source.reply_to:
            queue_reply(
                session,
                settings,
                game.slug,
                source,
                now,
                "error",
                "error.txt",
                {
                    "reason": r.reason,
                    "hint": r.hint,
                    "subject": source.subject,
                    "game": game.state,
                    "refusal": r.code,
                },
            )
        return Outcome(False, [], r.reason, r.hint, refusal=r)
    if not read_only:
        cold = take_cold(state, variant.archived_collections, variant.still_open(), now)
        if cold:
            session.execute(
                insert(ArchivedMatter),
                [
                    {"game_id": game.id, "collection": c, "number": m["number"], "data": m}
                    for c, m in cold
                ],
            )
        game.version += 1
        session.add(
            JournalEntry(
                game_id=game.id,
                seq=game.version,
                at=now,
                # Written at commit: its own copy, as the state may take parts of it and later
                # actions of the batch change the state where it lies.
                action=fastjson.copy(action),
                source=source.label(),
                draws=ctx.draws,
                summary="\n".join(ctx.summary),
            )
        )
        if chain is not None:
            _settle(session, game, ctx, chain, now)
        game.state = _json(state)
        flag_modified(game, "state")  # changed in place: the same object, so say it
        session.flush()  # the row now holds this state, for the next action's refusal
        wake = variant.deadlines.wakeups(state, now)
        game.next_wakeup = min(wake) if wake else None
    # SPEC §2.6: the author of a command gets one reply for it. An announcement it sets off
    # reaches every player, the author included, as the same mail (the ack names it); what
    # reaches the author alone ("Your move", the GM's digest when the GM is the author) is
    # carried by the ack instead, pictures included.
    author = (
        author_addresses(state, action, source)
        if source.reply_to and ctx.reply_kind == "ack"
        else set()
    )
    told: list[dict[str, str]] = []
    folded: list[Outgoing] = []
    json = _json(state)  # as the outgoing mail reads it
    alerts = [
        Outgoing("alert", "gm", f"Alert: {about}", "alert.txt", {"game": state, "lines": [line]})
        for about, line in ctx.alerts
    ]
    opened = None  # the thread a mail the ack carries opens, for the author
    for out in ctx.out + alerts:
        to = {a.lower() for a in recipients(json, out.to, settings)} - held(json, out)
        mine = bool(author & to)
        carried = mine and not to - author
        body = queue(session, settings, game, json, out, now, exclude=author if carried else set())
        if not mine:
            continue
        subject = game_subject(json, out.subject)
        if not carried:
            whom = (
                "all players, you included" if out.to == "all" else "you and the others it is for"
            )
            told.append({"subject": subject, "sent": whom})
            continue
        folded.append(out)
        if out.opens and opened is None and (key := thread_key(out.subject)):
            mine_addr = next(a for a in recipients(json, out.to, settings) if a.lower() in author)
            opened = thread_id(game, key, mine_addr, settings)
        who = "the GM was" if out.to == "gm" else "you alone were"
        told.append({"subject": subject, "body": body.split("\n-- \n")[0].strip("\n"), "who": who})
    if source.reply_to:
        if action["type"] == "confirm" and ctx.reply_kind == "ack":  # now a player
            source = dataclasses.replace(source, stranger=False)
        subject = ""  # the answer's own subject; a quota notice in its place answers the mail
        if ctx.reply_kind == "confirm":  # SPEC §2.3: its Message-ID carries the code
            asked: Mapping[str, Any] = action  # a [Join], [Watch] or [Takeover]: code and name
            opened = confirmation_id(game, asked["token"], settings)
            subject = ctx.reply_vars.get("confirm_subject") or (
                f"[Confirm] Join {state['name']} as {asked['name']}"
            )
        vars_ = {
            "lines": _lines_read(action) + ctx.ack_lines,
            "subject": subject or source.subject,
            "game": state,
            "told": told,
            **ctx.reply_vars,
        }
        answered = queue_reply(
            session,
            settings,
            game.slug,
            source,
            now,
            ctx.reply_kind,
            ctx.reply_template,
            vars_,
            folded,
            message_id=opened,
            subject=subject,
        )
        if not answered and ctx.reply_kind == "confirm":
            # Without it nobody can join: the inbox row and the GM's digest say it never went.
            return Outcome(True, [*ctx.ack_lines, NO_CONFIRMATION], changed=not read_only)
        if not answered and folded:
            # No ack went (the day's allowance is spent, an unusable reply address): the
            # author still gets what everybody else got.
            for out in folded:
                others = {a.lower() for a in recipients(json, out.to, settings)} - author
                queue(session, settings, game, json, out, now, exclude=others)
    return Outcome(True, ctx.ack_lines, changed=not read_only)


def _as_flushed(session: Session, game: Game) -> dict[str, Any]:
    """GAME's state as its row holds it in this transaction: before the action under way, as
    every change is flushed when it is made."""
    return cast("dict[str, Any]", session.scalar(select(Game.state).where(Game.id == game.id)))


def _put_back(game: Game, state: dict[str, Any]) -> None:
    """GAME's state as it was before a refused or failed action, written only if a change
    before it in this transaction is still to be written."""
    if inspect(game).attrs.state.history.has_changes():
        game.state = state
    else:
        set_committed_value(game, "state", state)


@dataclass
class _Chain:
    """The seed an entry draws from, its draws, and the seed that follows if it is revealed."""

    seed: Any
    draws: SeededDraws
    upcoming: str = ""  # made when the entry reveals its seed

    def reveal(self) -> dict[str, Any]:
        self.upcoming = self.upcoming or secrets.token_hex(32)
        return {
            "number": self.seed.number,
            "seed": self.seed.seed,
            "sha256": self.seed.commitment,
            "next_number": self.seed.number + 1,
            "next_sha256": commitment(self.upcoming),
        }


def _seeded(session: Session, game: Game, now: datetime) -> _Chain:
    """The game's unrevealed seed, drawn from for the journal entry about to be written."""
    seed = dice_store.current(session, game.id, game.version, now)
    return _Chain(seed, SeededDraws(seed.seed, drawn_as(game.version + 1, _before(game))))


def _before(game: Game) -> int | None:
    """The entries an imported game had where it ran before (engine/dice.py `drawn_as`)."""
    before = (game.state or {}).get("entries_before")
    return None if before is None else int(before)


def _settle(session: Session, game: Game, ctx: Ctx, chain: _Chain, now: datetime) -> None:
    """Keep the ranges of the entry's draws, and reveal the seed if the entry revealed it."""
    if chain.draws.ranges:
        dice_store.record(session, game.id, game.version, chain.seed.number, chain.draws.ranges)
    if ctx.revealed is not None:
        dice_store.reveal(session, chain.seed, game.version, now, chain.upcoming)


def _lines_read(action: Mapping[str, Any]) -> list[str]:
    """A ballot's ack quotes the line it was read from, and what was set aside (SPEC §3.2)."""
    out = [
        f'I read your line "{b["line"]}" as a ballot.'
        for b in action.get("ballots") or ()
        if b.get("line")
    ]
    out += [f'Set aside: "{line}" ({why}).' for line, why in action.get("ignored") or ()]
    return list(dict.fromkeys(out))


def _prepare_identity(action: Action) -> None:
    """Addresses in the form mail is compared in, and a joining name's confusable-folded
    keys (the engine stays free of the Unicode table; the journal keeps the keys)."""
    if action["type"] == "join" or action["type"] == "player_add":
        action["address"] = normalise_address(str(action["address"]))
        action["more"] = [normalise_address(str(a)) for a in action.get("more", [])]
        action.setdefault("name_keys", name_keys(str(action.get("name") or "")))


def author_addresses(state: GameState, action: Action, source: Source) -> set[str]:
    """Where the author of a mail command is written to: the reply address and the player's own."""
    out = {source.reply_to.lower()} if source.reply_to else set()
    # The GM's [Score] or [Override] names the player it acts on, who is no author of it.
    name = None if action.get("gm") else action.get("player")
    for p in state.get("players", []):
        if p["name"] == name or out & {a.lower() for a in p["addresses"]}:
            out |= {a.lower() for a in p["addresses"]}
    return out


def create_game(
    session: Session,
    slug: str,
    variant: str,
    address: str,
    name: str | None,
    gm: str | None,
    timezone: str,
    parameters: dict[str, Any],
    now: datetime,
    ruleset: Ruleset | None = None,
) -> Game:
    v = get_variant(variant)
    if ruleset is not None:  # the GM's own file: its rules, and the values they state
        parameters = {**ruleset.values, **parameters}
    state = v.initial_state(slug, name or v.title, address.lower(), gm, timezone, parameters, now)
    if ruleset is not None:
        state["rules"] = [dict(r) for r in ruleset.rules]  # type: ignore[misc]
        state["ruleset"] = ruleset.state_part()
    return _begin(session, slug, state, now)


def import_game(
    session: Session, slug: str, address: str, state: dict[str, Any], now: datetime
) -> Game:
    """A game that went on elsewhere, as its file says it stands (engine/game_file.py): its
    state is the game's initial one, so that replay starts from it."""
    # a file an older mailref wrote is brought to today's shape first; a newer one is refused
    given = {**state, "slug": slug, "address": address.lower()}
    dice = given.pop("dice", None)
    if dice:  # the seed the players were told of goes on, and the draws count on
        given["entries_before"] = int(dice["entries"])
    seed = (int(dice["number"]), str(dice["seed"])) if dice else None
    return _begin(session, slug, upgrade(_engine_state(given)), now, seed)


def _begin(
    session: Session,
    slug: str,
    state: GameState,
    now: datetime,
    seed: tuple[int, str] | None = None,
) -> Game:
    """The stored game whose initial state is STATE, its dice chain published before any draw:
    from SEED (its number, the seed) where the game drew from it elsewhere, else a new one."""
    wake = get_variant(state["variant"]).deadlines.wakeups(state, now)
    game = Game(
        slug=slug,
        variant=state["variant"],
        address=state["address"],
        state=_json(state),
        initial=copy.deepcopy(_json(state)),
        version=0,
        next_wakeup=min(wake) if wake else None,
        created_at=now,
    )
    session.add(game)
    session.flush()
    number, kept = seed or (1, None)
    dice_store.commit(session, game.id, number, 0, now, kept)  # published before any draw
    return game


def full_state(session: Session, game: Game) -> GameState:
    """The hot state with every archived matter back: what `game show --json`, the pages and
    `replay` need. The rules never need it (engine/archive.py)."""
    cold = cast("list[tuple[str, Matter]]", archived(session, game.id))
    return merge(upgrade(_engine_state(game.state)), cold)


def _engine_state(stored: dict[str, Any]) -> GameState:
    """The store's JSON of a game read as the engine's state (docs/decisions/types.md)."""
    return cast("GameState", stored)


def _json(state: GameState) -> dict[str, Any]:
    """The engine's state as the JSON the store keeps and the outgoing mail reads."""
    return cast("dict[str, Any]", state)


__all__ = [
    "Outcome",
    "archived",
    "full_state",
    "Settings",
    "Source",
    "apply",
    "create_game",
    "import_game",
]
