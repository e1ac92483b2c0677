"""The referee: keeps raw mail durably, turns it into actions through handlers, fires
timers and admin actions, all through the engine's one door. The daemon, the listener, the
poller, the CLI and the tests all drive this one object, each with its own clock, and mail
comes in two ways only: `keep` (raw mail to the inbox) and `process` (kept mail processed).

Its parts: `mails` (a stored mail's row and Envelope), `chain` (the steps a mail runs through,
as a table), `steps` (the steps themselves), `case` (one mail while they run), `verdicts`
(what is written on the row), `threads` (what the store tells about a mail), `quarantine` (a
mail that failed), `facts` (the GM's digest's view of the inbox)."""

from __future__ import annotations

import contextlib
import hashlib
import logging
import random
import time
from collections.abc import Callable, Collection, Sequence
from datetime import datetime
from typing import Any, cast

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from mailref import door
from mailref.claims import claim_due_game, claim_mail, worker_id
from mailref.config import Config
from mailref.door import Settings, Source
from mailref.engine import Refused
from mailref.engine.ruleset_file import Ruleset
from mailref.engine.state import Action, GameState
from mailref.read import Envelope
from mailref.referee import chain, fair
from mailref.referee.case import Case
from mailref.referee.facts import digest_facts
from mailref.referee.gm_welcome import welcome_gm
from mailref.referee.mails import (
    MAILS,
    Mail,
    Stored,
    game_key,
    log_handled,
    message_id_of,
    read_mails,
    write_back,
)
from mailref.referee.quarantine import quarantine_mail
from mailref.referee.threads import committed_states, lent_state, take_held
from mailref.store import Game, InboxMessage, Store, open_store
from mailref.store.faults import is_store_fault
from mailref.store.keep import Incoming, keep
from mailref.testhooks import crash_point
from mailref.timeutil import utcnow
from mailref.write.lists import one_click_base

__all__ = ["BATCH", "BATCH_BYTES", "Clock", "Incoming", "Referee", "Stored", "message_id_of"]

log = logging.getLogger("mailref")
Clock = Callable[[], datetime]
BATCH = 100  # stored mails processed in one transaction (docs/decisions/storage.md)
# ...and at most this much raw mail of them: a batch answers its mail once all of it is done, so a
# stranger's large mail goes nearly alone and holds nobody's small one up for long (fair.py)
BATCH_BYTES = 8 * 1024 * 1024


class _MailFailed(Exception):
    """A mail failed in a batch run without savepoints: the batch runs again, carefully."""


class Referee:
    def __init__(
        self,
        store: Store,
        settings: Settings,
        clock: Clock = utcnow,
        rng: random.Random | None = None,
    ):
        self.store, self.settings, self.clock, self.rng = store, settings, clock, rng
        self.after_change: Callable[[str], None] | None = (
            None  # e.g. the published site catching up
        )
        self.who = worker_id()  # this process, in the claims other daemons see
        # Each game's state as this process last committed it, with its version: the next
        # batch takes it instead of reading it again (threads.locked_game).
        self.states: dict[str, tuple[int, dict[str, Any]]] = {}
        # How far the mailbox polled has been read, asked to read up to a time (the daemon's
        # poller): a deadline waits for what the mail server received before it.
        self.mailbox_read: Callable[[datetime], datetime] | None = None
        # Games whose deadline failed, and when it fell: mail goes on past it.
        self.stuck: dict[str, datetime | None] = {}

    @classmethod
    def from_config(
        cls, cfg: Config, clock: Clock = utcnow, rng: random.Random | None = None
    ) -> Referee:
        referee = cls(
            open_store(cfg.database),
            Settings(
                cfg.from_address,
                cfg.admin_address,
                cfg.replies_per_sender_per_day,
                replies_per_stranger=cfg.replies_per_stranger_per_day,
                site_url=cfg.site.base_url if cfg.site else "",
                one_click_url=one_click_base(cfg.site.base_url if cfg.site else "", cfg.web_listen),
                trusted_authserv_ids=tuple(cfg.trusted_authserv_ids),
            ),
            clock,
            rng,
        )
        if (site_config := cfg.site) is not None:
            from mailref import site

            def rebuild(slug: str) -> None:
                with lent_state(referee.states, slug) as held:
                    site.rebuild_quietly(referee.store, site_config, slug, referee.clock(), held)

            referee.after_change = rebuild
        return referee

    def _changed(self, slug: str | None) -> None:
        """After a game's transaction committed (never inside it)."""
        if slug and self.after_change:
            try:
                self.after_change(slug)
            except (
                Exception
            ):  # the game changed and its mail is queued; a page is not worth failing that
                log.exception("after the change of %s", slug)

    # ---- the two ways in: keep mail, then process what is kept ----------------------
    def keep(self, mails: Sequence[Incoming], wait: bool = True) -> list[Stored]:
        """Commit MAILS to the inbox in ONE transaction: the only way mail is accepted (the
        listener's 250, the poller's move, the tests' mail). One Stored per mail, in order. A
        second delivery of the same bytes returns the first row (also within the batch); a
        different message under a Message-ID we already hold is kept but never processed twice.
        Each is received now, or at its own time (an IMAP server's INTERNALDATE). Without WAIT,
        keep.Busy at once if another writer holds the store. A mail over the size limit
        (`over_limit`) is kept as its header and answered at once (too_large.py)."""
        from mailref.referee.too_large import kept_head, too_large

        mails = [Incoming(*m) for m in mails]
        prepared = []
        for raw, source, mail_from, rcpt, _, over in mails:
            raw = kept_head(raw, *over) if over else raw
            prepared.append(
                (
                    raw,
                    source,
                    mail_from or "",
                    list(rcpt or []),
                    hashlib.sha256(raw).hexdigest(),
                    message_id_of(raw),
                )
            )
        # A concurrent delivery of the same bytes (another daemon) is settled by the INSERT itself.
        now = self.clock()
        at = [m.received or now for m in mails] if any(m.received for m in mails) else now
        kept = [Stored(*k) for k in keep(self.store, prepared, at, wait)]
        for m, stored in zip(mails, kept, strict=True):
            if m.over_limit:
                stored.status = too_large(self, stored, m.raw, *m.over_limit)
        return kept

    def process(
        self, ids: Sequence[int] | None = None, limit: int = BATCH, skip: set[int] | None = None
    ) -> dict[int, str]:
        """Process kept mail, in one transaction (_process_many): the mails IDS, or else the next
        batch awaiting processing, fairly among senders (fair.py): at most LIMIT mails and
        BATCH_BYTES of raw mail (at least one), none of SKIP. A mail left awaiting (another
        process holds it, or it waits for a deadline) joins SKIP, so a pass that carries SKIP
        along ends. Returns the status of each mail taken up: every one of IDS; none when
        nothing awaits."""
        if ids is not None:
            return self._process_many(list(ids))
        skip = set() if skip is None else skip
        # leases are wall-clock (claims.py)
        taken = fair.pending(self.store, self.who, utcnow(), limit, BATCH_BYTES, skip)
        statuses = self._process_many(taken) if taken else {}
        skip.update(i for i in taken if statuses.get(i) == "new")
        return statuses

    # ---- processing: one transaction per batch; a savepoint per mail once one fails
    def _process_many(self, ids: list[int]) -> dict[int, str]:
        """Process stored mail IDS: read every mail first (bytes to Envelope, no transaction
        open), then claim and apply them in ONE transaction, grouped by game (each game
        loaded and locked once). A mail whose processing fails is rolled back alone and
        quarantined while the rest commit: the batch first runs without a savepoint per mail
        (they cost about a tenth of answering a mail) and, should any mail fail, runs again
        from the start with one, on mail read afresh. A store fault rolls the whole batch
        back: it stays new. Mail processed meanwhile or held by another process is left
        alone. Mail and deadlines are taken in the order of time (fair.py): a mail received
        after a deadline that is due waits for that deadline, which fires first once no mail
        received before it awaits; if it cannot fire yet, that mail stays new. Returns each
        id's status."""
        out: dict[int, str] = {}
        horizon = None
        while ids:
            before, horizon = horizon, self._horizon()
            if horizon is None:
                return out | self._process_now(ids)
            with self.store() as s:
                at = fair.received(s, ids)
            later = [i for i in ids if i in at and at[i] >= horizon]
            out.update(self._process_now([i for i in ids if i not in later]))
            if not later:
                break
            if (before is not None and horizon <= before) or not self._tick_between():
                return out | {i: "new" for i in later}  # the deadline waits for older mail
            ids = later
        return out

    def _horizon(self) -> datetime | None:
        """The earliest deadline due now that has not fired (a game whose deadline failed
        aside: its mail goes on), or None."""
        with self.store() as s:
            return next(
                (at for slug, at in fair.due(s, self.clock()) if self.stuck.get(slug) != at),
                None,
            )

    def _tick_between(self) -> bool:
        """Fire the deadlines due between two parts of a batch; whether any fired."""
        try:
            return bool(self.tick())
        except Exception as e:
            if is_store_fault(e):
                raise
            log.exception("deadline between mail")  # tick() marked it stuck: mail goes on
            return True

    def _process_now(self, ids: list[int]) -> dict[int, str]:
        """_process_many for mail that no deadline due now has to precede."""
        if not ids:
            return {}
        read = read_mails(self.store, ids, self.settings.from_address)
        careful = any(isinstance(env, Exception) for env in read.values())
        if not careful:
            try:
                return self._process_batch(ids, read, careful=False)
            except _MailFailed:
                # Processing may have changed what it read.
                read = read_mails(self.store, ids, self.settings.from_address)
        return self._process_batch(ids, read, careful=True)

    def _process_batch(
        self, ids: list[int], read: dict[int, Envelope | Exception], careful: bool
    ) -> dict[int, str]:
        """One attempt at the batch (_process_many). CAREFUL: each mail in its own savepoint,
        a failure quarantined; else a failure raises _MailFailed and nothing is committed."""
        now = self.clock()
        statuses: dict[int, str] = {}
        changed: dict[str, None] = {}  # the games touched, in order
        # For the log lines, once committed.
        handled: list[tuple[Mail, float, str | None, str | None]] = []
        # No autoflush: nothing is written before every query; the mails' rows go at the end,
        # in one statement.
        held: dict[str, tuple[int, dict[str, Any]]] = {}
        with self.store() as s, s.begin(), s.no_autoflush:
            s.info["states"] = self.states
            mine = claim_mail(s, self.who, [i for i in ids if i in read])
            rows = {m.id: Mail(*m) for m in s.execute(MAILS, {"ids": mine})}
            games = {g.slug: g.address for g in s.execute(select(Game.slug, Game.address)).all()}
            locked = s.info.setdefault("games", {})
            for n, inbox_id in enumerate(sorted(mine, key=lambda i: (game_key(read[i], games), i))):
                row, env = rows[inbox_id], read[inbox_id]
                case = None
                started, before = time.monotonic(), set(locked)
                row.attempts += 1
                try:
                    with s.begin_nested() if careful else contextlib.nullcontext():
                        if isinstance(env, Exception):
                            raise env
                        case = Case(s, row, env, now, games, self.settings, self.rng)
                        chain.process(case)
                        row.processed_at, row.lease_until = now, None
                except Exception as e:
                    if is_store_fault(e) and not isinstance(e, OSError):
                        # The store, not the message: the batch stays new, processed once
                        # the store works.
                        raise
                    if not careful:
                        raise _MailFailed from e
                    for slug in set(locked) - before:  # its row lock went with the savepoint
                        del locked[slug]
                    quarantine_mail(s, self.settings, row, e, now)
                statuses[inbox_id] = row.status
                # The tag as understood, not parsed again (a Reply's ballot is a `vote`).
                tag = None if isinstance(env, Exception) else env.subject.tag
                tag = (case.tag if case else None) or tag
                # Mail ignored before routing (a machine's) is logged with the game its
                # recipients name.
                game = row.game_slug or game_key(env, games) or None
                handled.append((row, (time.monotonic() - started) * 1000, tag, game))
                if row.game_slug:
                    changed[row.game_slug] = None
                if n == 0:
                    crash_point("mid-batch")
            if rows:
                write_back(s, list(rows.values()))
            held = committed_states(s)
            rest = [i for i in ids if i not in statuses]
            if rest:  # processed meanwhile, or another process holds it ("new")
                statuses.update(
                    s.execute(
                        select(InboxMessage.id, InboxMessage.status).where(
                            InboxMessage.id.in_(rest)
                        )
                    )
                    .tuples()
                    .all()
                )
        self.states.update(held)  # committed: what the next batch may take as it is
        for row, ms, tag, game in handled:
            log_handled(row, ms, tag, game)
        for slug in changed:  # after the commit, never inside it
            self._changed(slug)
        return {i: statuses.get(i, "missing") for i in ids}

    # ---- timers -----------------------------------------------------------------
    def due_games(self, now: datetime | None = None) -> list[str]:
        """The games whose next deadline has come, the earliest first."""
        now = now or self.clock()
        with self.store() as s:
            return list(
                s.scalars(
                    select(Game.slug).where(Game.next_wakeup <= now).order_by(Game.next_wakeup)
                )
            )

    def earliest_wakeup(self, failing: Collection[str] = ()) -> datetime | None:
        """When the next deadline of any game falls (an index lookup, however many games), of
        games whose deadline has not failed (FAILING: tried again at their own times)."""
        q = select(func.min(Game.next_wakeup))
        if failing:
            q = q.where(Game.slug.not_in(failing))
        with self.store() as s:
            return s.scalar(q)

    def tick(self, slug: str | None = None) -> list[str]:
        """Fire every deadline that is due (of one game, or all) once every mail received
        before it has been processed (SPEC §2.1); returns the games woken."""
        now = self.clock()
        fired = []
        with self.store() as s:
            due = [(slug, None)] if slug else fair.due(s, now)
        for g, at in due:
            if at is not None and self.stuck.get(g) == at:
                continue  # failed at this deadline: tried again by its own timer (the daemon's)
            held: dict[str, tuple[int, dict[str, Any]]] = {}
            with self.store() as s, s.begin():
                at = at or s.scalar(select(Game.next_wakeup).where(Game.slug == g))
                if at is None or at > now:
                    continue
                # Game time stops at the first mail still awaiting: what is due after it
                # fires once it is processed (_process_many; the daemon's pass fires it after).
                upto = self.settled_until(s, now, at)
                game = claim_due_game(s, g, upto)
                if game is None:  # not due, or another daemon is firing it
                    continue
                take_held(s, game, self.states)
                wakeup = game.next_wakeup
                try:
                    door.apply(
                        s,
                        game,
                        {"type": "tick"},
                        Source("timer", "deadline"),
                        upto,
                        self.settings,
                        self.rng,
                        facts=self.facts(s, game),
                    )
                except Exception as e:
                    if not is_store_fault(e):
                        self.stuck[g] = wakeup
                    raise
                fired.append(g)
                s.info["games"] = {g: game}  # this game alone, whatever the door locked
                held = committed_states(s)
            self.states.update(held)  # committed: what the next batch may take as it is
            self.stuck.pop(g, None)
            self._changed(g)
        return fired

    def settled_until(self, s: Session, now: datetime, wanted: datetime) -> datetime:
        """The time up to which every mail received is processed, at most NOW: the receipt of
        the first mail still awaiting, and no later than the mailbox polled has been read
        (asked to read up to WANTED)."""
        first = fair.first_waiting(s)
        upto = now if first is None else min(now, first)
        return upto if self.mailbox_read is None else min(upto, self.mailbox_read(wanted))

    def facts(self, s: Session, game: Game) -> dict[str, Any]:
        """What only the store knows, for the GM's digest (facts.py)."""
        return digest_facts(s, game, self.clock())

    # ---- admins -----------------------------------------------------------------
    def admin(
        self, slug: str, action: dict[str, Any], who: str, dry_run: bool = False, via: str = "admin"
    ) -> door.Outcome:
        """Apply an admin's ACTION to the game SLUG through the door, as WHO (VIA "web": a
        player's own, from the one-click unsubscribe). DRY_RUN: say what it would do, and
        change nothing (the transaction is rolled back)."""
        now = self.clock()
        # An admin's action as the faces build it: a type with no handler is refused (handle).
        acting = cast("Action", {**action, "by": who})
        with self.store() as s, s.begin():
            game = s.execute(
                select(Game).where(Game.slug == slug).with_for_update()
            ).scalar_one_or_none()
            if game is None:
                raise Refused("no_game", slug=slug)
            facts = self.facts(s, game) if acting["type"] == "digest" else None
            outcome = door.apply(
                s, game, acting, Source(via, who), now, self.settings, self.rng, facts=facts
            )
            if dry_run:
                s.rollback()
                return outcome
        self._changed(slug)
        return outcome

    def create_game(
        self,
        slug: str,
        variant: str,
        address: str,
        name: str | None = None,
        gm: str | None = None,
        timezone: str = "UTC",
        parameters: dict[str, Any] | None = None,
        ruleset: Ruleset | None = None,
    ) -> None:
        """Create the game SLUG at its own ADDRESS, from RULESET where the GM wrote one
        (docs/rulesets.md); refused when either is taken."""
        with self.store() as s, s.begin():
            self._make_room(s, slug, address)
            name = distinct_name(
                s, slug, name or (ruleset.name if ruleset else "") or default_name(variant)
            )
            game = door.create_game(
                s,
                slug,
                variant,
                address,
                name,
                gm,
                timezone,
                parameters or {},
                self.clock(),
                ruleset,
            )
            welcome_gm(s, self.settings, game, self.clock())
        self._changed(slug)

    def import_game(self, slug: str, address: str, state: dict[str, Any], who: str) -> None:
        """Make the game SLUG at ADDRESS from STATE, as a game file says it stands; its first
        journal entry is the import, which mails each player once that the game runs here."""
        with self.store() as s, s.begin():
            self._make_room(s, slug, address)
            door.import_game(s, slug, address, state, self.clock())
        self.admin(slug, {"type": "imported"}, who)

    def _make_room(self, s: Session, slug: str, address: str) -> None:
        """Refused where a game has SLUG or ADDRESS already, or ADDRESS is the referee's own."""
        if s.scalar(select(Game.id).where(Game.slug == slug)):
            raise Refused("game_exists", slug=slug)
        if s.scalar(select(Game.id).where(Game.address == address.lower())):
            raise Refused("address_taken", address=address)
        if address.strip().lower() == self.settings.from_address.lower():
            # Mail from the referee's own address is never answered (SPEC §2.2), and mail to it
            # gets the list of games (§2.5): a game there would hear nobody.
            raise Refused("address_is_referees", address=address)

    def state(self, slug: str) -> GameState:
        """The game SLUG's full state, archived parts included."""
        with self.store() as s:
            game = s.scalar(select(Game).where(Game.slug == slug))
            if game is None:
                raise Refused("no_game", slug=slug)
            return door.full_state(s, game)


def default_name(variant: str) -> str:
    """A new game's name when none is given: the variant's title."""
    from mailref.engine.variants import get_variant

    return get_variant(variant).title


def distinct_name(s: Session, slug: str, name: str) -> str:
    """NAME, with the slug after it when another game of this host has that name already
    (given with --name, from the same ruleset, or by default), so that subjects and senders
    tell the two apart ("[Nomic Sidekick Nomic (nomes2)] …")."""
    taken = s.scalar(
        select(Game.id).where(func.lower(Game.state["name"].as_string()) == name.lower()).limit(1)
    )
    return f"{name} ({slug})" if taken is not None else name
