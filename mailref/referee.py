"""The referee: accepts raw mail durably, turns it into actions through handlers, fires
timers and admin actions, all through the engine's one door. The daemon, the CLI and the
tests all drive this one object, each with its own clock."""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import logging
import random
import re
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import bindparam, func, or_, select, update
from sqlalchemy.orm import Session, defer

from mailref import door, engine, verification
from mailref.claims import claim_due_game, claim_mail, worker_id
from mailref.config import Config
from mailref.door import Settings, Source, queue_alert, queue_reply
from mailref.engine import Refused
from mailref.engine.variants.base import OPENS_MATTER
from mailref.read import Envelope, match_game, parse_subject, read_envelope
from mailref.read.lists import game_sending, through_its_list
from mailref.read.route import is_postmaster
from mailref.read.subject import game_label, no_tag
from mailref.routing import (
    did_you_mean,
    example_tags,
    game_named,
    games_list,
    wrong_door,
    wrong_game,
)
from mailref.safe import printable
from mailref.store import Bounce, Game, InboxMessage, OutboxMessage, Store, open_store
from mailref.store.counters import count_reply
from mailref.store.faults import is_store_fault
from mailref.store.keep import keep
from mailref.testhooks import crash_point
from mailref.timeutil import iso, utcnow

# Lines of each kind (quarantined, answered with an error, bounces) a GM's digest lists.
FACTS_MAX = 50
log = logging.getLogger("mailref")
# Built once; the initial state (only replay reads it) stays in the database.
_GAME_FOR_UPDATE = (select(Game).options(defer(Game.initial)).where(Game.slug == bindparam("slug")).with_for_update()
                    .execution_options(populate_existing=True))
Clock = Callable[[], datetime]
Incoming = tuple[bytes, str, str, "list[str] | None"]  # raw, source, mail_from, rcpt_to
BATCH = 100                     # stored mails processed in one transaction (docs/decisions.md, "Batches")
BATCH_BYTES = 32 * 1024 * 1024  # ...and at most this much raw mail of them in memory at once

@dataclass
class Mail:
    """A stored mail while it is processed: the fields of its row that processing reads or
    sets, written back for the whole batch with one statement (an ORM flush at each mail's
    savepoint cost about an eighth of answering it). What processing learnt before a failure
    (sender, subject, game) stays for the quarantine and the GM's alert."""
    id: int
    mail_from: str
    attempts: int
    status: str
    verdict: str
    error: str
    sender: str
    subject: str
    game_slug: str | None
    processed_at: datetime | None
    lease_until: datetime | None


_inbox = InboxMessage.__table__
_MAILS = (select(*(_inbox.c[f.name] for f in dataclasses.fields(Mail)))
          .where(_inbox.c.id.in_(bindparam("ids", expanding=True))))
_WRITTEN = [f.name for f in dataclasses.fields(Mail) if f.name not in ("id", "mail_from")]
_MAILS_DONE = update(_inbox).where(_inbox.c.id == bindparam("id_")).values({f: bindparam(f) for f in _WRITTEN})


class _MailFailed(Exception):
    """A mail failed in a batch run without savepoints: the batch runs again, carefully."""


@dataclass
class Stored:
    id: int
    new: bool            # False: we already had these bytes (a duplicate delivery)
    status: str


class Referee:
    def __init__(self, store: Store, settings: Settings, clock: Clock = utcnow,
                 rng: random.Random | None = None):
        self.store, self.settings, self.clock, self.rng = store, settings, clock, rng
        self.after_change: Callable[[str], None] | None = None  # e.g. the published site catching up
        self.who = worker_id()  # this process, in the claims other daemons see

    @classmethod
    def from_config(cls, cfg: Config, clock: Clock = utcnow, rng: random.Random | None = None) -> Referee:
        referee = cls(open_store(cfg.database), Settings(cfg.from_address, cfg.admin_address,
                                                         cfg.replies_per_sender_per_day,
                                                         replies_per_stranger=cfg.replies_per_stranger_per_day,
                                                         site_url=cfg.site.base_url if cfg.site else "",
                                                         trusted_authserv_ids=tuple(cfg.trusted_authserv_ids)), clock, rng)
        if cfg.site:
            from mailref import site

            referee.after_change = lambda slug: site.rebuild_quietly(referee.store, cfg.site, slug, referee.clock())
        return referee

    def _changed(self, slug: str | None) -> None:
        """After a game's transaction committed (never inside it)."""
        if slug and self.after_change:
            try:
                self.after_change(slug)
            except Exception:  # the game changed and its mail is queued; a page is not worth failing that
                log.exception("after the change of %s", slug)

    # ---- intake: durable first -------------------------------------------------
    def receive(self, raw: bytes, source: str, mail_from: str = "", rcpt_to: list[str] | None = None) -> Stored:
        """Commit RAW to the inbox (the only way a message is accepted). A second delivery of
        the same bytes returns the first row; a different message under a Message-ID we
        already hold is kept but never processed twice."""
        return self.receive_many([(raw, source, mail_from, rcpt_to)])[0]

    def receive_many(self, mails: list[Incoming], wait: bool = True) -> list[Stored]:
        """Commit a batch of (raw, source, mail_from, rcpt_to) in ONE transaction, each
        deduplicated as `receive` says (also against the others of the batch); one Stored per
        mail, in order (mailref/store/keep.py: this runs before every SMTP 250). Without
        WAIT, keep.Busy at once if another writer holds the store."""
        prepared = [(raw, source, mail_from or "", list(rcpt or []), hashlib.sha256(raw).hexdigest(), message_id_of(raw))
                    for raw, source, mail_from, rcpt in mails]
        # A concurrent delivery of the same bytes (another daemon) is settled by the INSERT itself.
        return [Stored(*k) for k in keep(self.store, prepared, self.clock(), wait)]

    def accept(self, raw: bytes, source: str = "smtp", mail_from: str = "", rcpt_to: list[str] | None = None) -> Stored:
        """Store, then process at once (the listener's and the poller's path)."""
        stored = self.receive(raw, source, mail_from, rcpt_to)
        if stored.new and stored.status == "new":
            stored.status = self.process(stored.id)
        return stored

    def process_pending(self, limit: int | None = None) -> int:
        """Process the stored mail awaiting it (at most LIMIT), oldest first, a batch per
        transaction; returns how many mails were taken up."""
        done, after = 0, 0
        while limit is None or done < limit:
            ids = self.process_batch(after, BATCH if limit is None else min(BATCH, limit - done))
            if not ids:
                break
            done, after = done + len(ids), ids[-1]
        return done

    def process_batch(self, after: int = 0, limit: int = BATCH) -> list[int]:
        """Process the next batch of stored mail (ids above AFTER); returns the ids taken up,
        an empty list when nothing awaits."""
        ids = self.pending(after, limit)
        if ids:
            self.process_many(ids)
        return ids

    def pending(self, after: int = 0, limit: int = BATCH) -> list[int]:
        """The next stored mails awaiting processing that no other process holds: at most
        LIMIT of them and BATCH_BYTES of raw mail (at least one)."""
        now = utcnow()  # leases are wall-clock (claims.py)
        with self.store() as s:
            rows = s.execute(select(InboxMessage.id, InboxMessage.size)
                             .where(InboxMessage.status == "new", InboxMessage.id > after,
                                    or_(InboxMessage.lease_until.is_(None), InboxMessage.lease_until < now,
                                        InboxMessage.claimed_by == self.who))
                             .order_by(InboxMessage.id).limit(limit)).all()
        ids, total = [], 0
        for i, size in rows:
            total += size or 0
            if ids and total > BATCH_BYTES:
                break
            ids.append(i)
        return ids

    # ---- processing: one transaction per batch; a savepoint per mail once one fails
    def process(self, inbox_id: int) -> str:
        return self.process_many([inbox_id]).get(inbox_id, "missing")

    def process_many(self, ids: list[int]) -> dict[int, str]:
        """Process stored mail IDS: read every mail first (bytes to Envelope, no transaction
        open), then claim and apply them in ONE transaction, grouped by game (each game
        loaded and locked once). A mail whose processing fails is rolled back alone and
        quarantined while the rest commit: the batch first runs without a savepoint per mail
        (they cost about a tenth of answering a mail) and, should any mail fail, runs again
        from the start with one, on mail read afresh. A store fault rolls the whole batch
        back: it stays new. Mail processed meanwhile or held by another process is left
        alone. Returns each id's status."""
        if not ids:
            return {}
        read = self._read(ids)
        careful = any(isinstance(env, Exception) for env in read.values())
        if not careful:
            try:
                return self._process_batch(ids, read, careful=False)
            except _MailFailed:
                read = self._read(ids)  # processing may have changed what it read
        return self._process_batch(ids, read, careful=True)

    def _process_batch(self, ids: list[int], read: dict[int, Envelope | Exception], careful: bool) -> dict[int, str]:
        """One attempt at the batch (process_many). CAREFUL: each mail in its own savepoint,
        a failure quarantined; else a failure raises _MailFailed and nothing is committed."""
        now = self.clock()
        statuses: dict[int, str] = {}
        changed: dict[str, None] = {}  # the games touched, in order
        handled: list[tuple[Mail, float, str | None, str | None]] = []  # for the log lines, once committed
        # No autoflush: nothing is written before every query; the mails' rows go at the end, in one statement.
        with self.store() as s, s.begin(), s.no_autoflush:
            mine = claim_mail(s, self.who, [i for i in ids if i in read])
            rows = {m.id: Mail(*m) for m in s.execute(_MAILS, {"ids": mine})}
            games = {g.slug: g.address for g in s.execute(select(Game.slug, Game.address)).all()}
            locked = s.info.setdefault("games", {})
            for n, inbox_id in enumerate(sorted(mine, key=lambda i: (_game_key(read[i], games), i))):
                row, env, started, before = rows[inbox_id], read[inbox_id], time.monotonic(), set(locked)
                row.attempts += 1
                try:
                    with s.begin_nested() if careful else contextlib.nullcontext():
                        if isinstance(env, Exception):
                            raise env
                        self._process(s, row, now, env, games)
                        row.processed_at, row.lease_until = now, None
                except Exception as e:
                    if is_store_fault(e) and not isinstance(e, OSError):
                        raise  # the store, not the message: the batch stays new, processed once the store works
                    if not careful:
                        raise _MailFailed from e
                    for slug in set(locked) - before:  # its row lock went with the savepoint
                        del locked[slug]
                    self._quarantine(s, row, e, now)
                statuses[inbox_id] = row.status
                tag = None if isinstance(env, Exception) else env.subject.tag  # as understood, not parsed again
                # Mail ignored before routing (a machine's) is logged with the game its recipients name.
                game = row.game_slug or _game_key(env, games) or None
                handled.append((row, (time.monotonic() - started) * 1000, tag, game))
                if row.game_slug:
                    changed[row.game_slug] = None
                if n == 0:
                    crash_point("mid-batch")
            if rows:  # every mail's row in one statement, in the batch's transaction
                s.connection().execute(_MAILS_DONE, [{"id_": m.id, **{f: getattr(m, f) for f in _WRITTEN}}
                                                     for m in rows.values()])
            rest = [i for i in ids if i not in statuses]
            if rest:  # processed meanwhile, or another process holds it ("new")
                statuses.update(s.execute(select(InboxMessage.id, InboxMessage.status)
                                          .where(InboxMessage.id.in_(rest))).tuples().all())
        for row, ms, tag, game in handled:
            _log_handled(row, ms, tag, game)
        for slug in changed:  # after the commit, never inside it
            self._changed(slug)
        return {i: statuses.get(i, "missing") for i in ids}

    def _read(self, ids: list[int]) -> dict[int, Envelope | Exception]:
        """The Envelope of each of IDS still awaiting processing (an exception for a mail that
        cannot be read: it is quarantined like any failure). Reading is most of a mail's CPU
        time, so it happens before the write transaction opens."""
        with self.store() as s:
            rows = s.execute(select(InboxMessage.id, InboxMessage.raw, InboxMessage.rcpt_to, InboxMessage.source,
                                    InboxMessage.mail_from)
                             .where(InboxMessage.id.in_(ids), InboxMessage.status == "new")).all()
        read: dict[int, Envelope | Exception] = {}
        for row in rows:
            try:
                read[row.id] = read_envelope(row.raw, row.rcpt_to, self.settings.from_address,
                                             null_sender=row.source == "smtp" and row.mail_from == "<>")
            except Exception as e:
                read[row.id] = e
        return read

    def _quarantine(self, s, row: Mail, e: Exception, now: datetime) -> None:
        """Keep the mail and the error, tell the GM (in the batch's transaction)."""
        err = f"{type(e).__name__}: {e}"
        # What to do, in the line itself: "message #5 failed" and a traceback left the operator
        # to guess that the mail was kept, who was told, and how to retry it.
        log.error("message #%s from %s quarantined (kept, status failed; the GM is alerted): %s; once the cause is "
                  "fixed: mailref mail reprocess %s", row.id, row.sender or row.mail_from or "?", err, row.id, exc_info=e)
        trace = "".join(traceback.format_exception(e))[-2000:]
        row.lease_until = None
        row.status, row.error = "failed", err + "\n" + trace
        try:
            with s.begin_nested():  # an alert that cannot be queued must not hold up the rest of the batch
                # The game's GM (SPEC §2.1), the game named in the subject (§2.6); else the admin.
                game = s.scalar(select(Game).where(Game.slug == row.game_slug)) if row.game_slug else None
                gm = game.state.get("gm") if game is not None else None
                label = game_label(game.state.get("name", ""), game.slug) if game is not None else "mailref"
                queue_alert(s, self.settings, row.game_slug, gm, f"Alert: message #{row.id} quarantined",
                            [f"Message #{row.id} from {row.sender or row.mail_from or '?'} failed: {err}",
                             f"Retry with: mailref mail reprocess {row.id}"], now, label=label)
        except Exception as alert:
            if is_store_fault(alert) and not isinstance(alert, OSError):
                raise
            log.error("the alert for message #%s could not be queued", row.id, exc_info=alert)

    def _on_its_list(self, s, env: Envelope, games: dict[str, str]) -> bool:
        """Whether ENV came through the mailing list its game is played on (SPEC §2.3): there
        `Precedence: list` is the list's mark on a player's mail, not a machine's."""
        slug = match_game(env.recipients, games) if env.list_id else None
        return bool(slug) and through_its_list(env.list_id, self._game(s, slug).state["parameters"].get("list_id"))

    def _game(self, s, slug: str) -> Game:
        """The game SLUG, locked for the rest of the transaction; loaded once per batch."""
        locked = s.info.setdefault("games", {})
        if slug not in locked:
            locked[slug] = s.execute(_GAME_FOR_UPDATE, {"slug": slug}).scalar_one()
        return locked[slug]

    def _process(self, s, row: Mail, now: datetime, env: Envelope, games: dict[str, str]) -> None:
        """Route and apply one stored message (ENV: it read beforehand; GAMES: slug -> address),
        in the caller's transaction."""
        row.sender, row.subject = env.from_addr or "", env.subject.raw[:500]
        if env.from_problem and "from" in env.headers and env.machine in (None, "no From address"):
            # Nobody can be told: a reply would go to whichever address the forger chose.
            row.game_slug = match_game(env.recipients, games)
            row.status, row.verdict = "processed", f"error: sender refused, no reply sent: {env.from_problem}"
            return
        if env.machine and not (env.machine == "Precedence: list" and self._on_its_list(s, env, games)):
            row.status, row.verdict = "ignored", f"machine: {env.machine}"
            if env.bounce_for:
                self._record_bounces(s, env, row, now)
            return
        if own := game_sending(env.from_addr, games):  # a list echoing a game's mail without our headers
            row.status, row.verdict = "ignored", f"machine: sent from the game address {own} (our own mail come back)"
            return
        if game_sending(env.reply_to, games):
            env.reply_to = None  # answering there would mail the game itself
        if any(is_postmaster(r) for r in env.recipients) and not match_game(env.recipients, games, named=True):
            self._to_postmaster(s, row, env, now)
            return
        slug = match_game(env.recipients, games)
        by_thread = slug is None  # then the thread names the game, and no reply can be to the wrong one
        slug = slug or self._game_of_thread(s, env)
        source = Source("mail", str(row.id), reply_to=env.reply_to or env.from_addr, message_id=env.message_id,
                        references=env.references, subject=env.subject.raw[:200], inbox_id=row.id,
                        identity=env.from_addr, stranger=True)
        if slug is None and env.subject.tag is None and _list_or_bulk(env):
            row.status, row.verdict = "ignored", "list or newsletter mail without a command: not answered"
            return
        if slug is None:
            row.status, row.verdict = "processed", "no game for these recipients: the games listed"
            queue_reply(s, self.settings, None, source, now, "help", "games.txt",
                        {"game": {}, "games": games_list(s), "referee": self.settings.from_address,
                         "note": wrong_door(s, env.subject.raw, env.from_addr)})
            return
        row.game_slug = slug
        game = self._game(s, slug)
        variant = engine.get_variant(game.variant)
        player = variant.by_address(game.state, env.from_addr)
        gm = str(game.state.get("gm") or self.settings.admin_address).lower()
        source.stranger = player is None and env.from_addr.lower() != gm  # fewer answers a day (door.queue_reply)
        labels = (game_label(game.state["name"], slug), game.state["name"], slug)
        env.subject = parse_subject(env.subject.raw, game_tags=labels)
        if env.subject.tag is None:
            env.subject = self._subject_of_reply(s, env, labels)
        tag = env.subject.tag
        lid = game.state["parameters"].get("list_id")
        if tag is None and through_its_list(env.list_id, lid):
            row.status, row.verdict = "ignored", "list discussion (no command)"
            return
        if tag is None and _list_or_bulk(env):
            row.status, row.verdict = "ignored", "list or newsletter mail without a command: not answered"
            return
        if tag is None and env.subject.unknown:
            reason, hint = did_you_mean(env.subject.unknown, example_tags(variant))
            row.status, row.verdict = "processed", f"error: {reason}"
            queue_reply(s, self.settings, slug, source, now, "error", "error.txt",
                        {"reason": reason, "hint": hint, "subject": source.subject, "game": game.state})
            return
        # A reply that does not carry this game's own label (every subject it sends does) may
        # answer another game's mail: "[CfJ 4]" of Blog Nomic sent to Nomes Two is not Nomes Two's.
        foreign = tag and env.in_reply_to and not any(f"[{x}]".lower() in env.subject.raw.lower() for x in labels)
        if tag and env.subject.label and not by_thread and not foreign \
                and (other := game_named(s, env.subject.label, slug)) is not None:
            # "Re: [Nomes] [Proposal 1] Tea" sent to Blog's address (an address book's slip, no
            # In-Reply-To): Blog's own proposal 1 is not the one meant. Say where it belongs.
            reason, hint = wrong_game(s, other, game.state["name"], named=True)
            row.status, row.verdict = "processed", f"error: {reason}"
            queue_reply(s, self.settings, slug, source, now, "error", "error.txt",
                        {"reason": reason, "hint": hint, "subject": source.subject, "game": game.state})
            return
        if env.subject.is_reply and tag and (not variant.takes(tag) or foreign) and not by_thread \
                and (other := self._game_of_thread(s, env)) not in (None, slug):
            # A Reply sent to the wrong game's address: say where it belongs, not "[Vote] is no command".
            reason, hint = wrong_game(s, other, game.state["name"])
            row.status, row.verdict = "processed", f"error: {reason}"
            queue_reply(s, self.settings, slug, source, now, "error", "error.txt",
                        {"reason": reason, "hint": hint, "subject": source.subject, "game": game.state})
            return
        from mailref.handlers import GameView, dispatch

        if tag not in (None, "help") and (unverified := verification.refusal(game.state, env, player, self.settings)):
            row.status, row.verdict = "processed", f"error: not verified: {unverified.why}"
            queue_reply(s, self.settings, slug, dataclasses.replace(source, reply_to=unverified.reply_to), now, "error",
                        "error.txt", {"reason": unverified.reason, "hint": unverified.hint, "subject": source.subject,
                                      "game": game.state})
            return
        view = GameView(game.state, variant, player)
        if tag is None and env.subject.is_reply and (view.player is not None or env.from_addr.lower() == gm):
            # The GM's "Thanks" to the digest is no request for the players' help either.
            # "Re: Carol joins" with "Welcome!": words for the players, not a request for the help.
            reason = "I found no command in your reply, so nothing was done"
            row.status, row.verdict = "processed", f"error: {reason}"
            queue_reply(s, self.settings, slug, source, now, "error", "error.txt",
                        {"reason": reason, "hint": "to act, send a mail whose subject starts with a command tag; "
                         "send [Help] for them", "subject": source.subject, "game": game.state})
            return
        if tag is None and player is None and env.from_addr.lower() != gm \
                and match_game(env.recipients, games, named=True) == slug:
            # SPEC §2.2: a stranger's words to a game's address are no question for it (a
            # list's notice, a forged sign-up); the help goes to mail sent to the referee.
            row.status, row.verdict = "ignored", "a stranger's mail without a command: not answered"
            return
        if tag is None:
            action: dict[str, Any] = {"type": "help", "player": view.name,
                                      "reason": no_tag(env.subject.rest)}
        else:
            try:
                action = dispatch(env, view, tag)
            except Refused as r:
                row.status, row.verdict = "processed", f"error: {r.reason}"
                queue_reply(s, self.settings, slug, source, now, "error", "error.txt",
                            {"reason": r.reason, "hint": r.hint, "subject": source.subject, "game": game.state})
                return
        action["source"] = f"mail:{row.id}"
        if action["type"] in OPENS_MATTER or action["type"] == "join":
            action["capped"] = True  # counted against matters_per_day, or the newcomers announced (variants/base.py)
        outcome = door.apply(s, game, action, source, now, self.settings, self.rng)
        row.status = "processed"
        # A reply that only reads ([Status], [Rules]) has no lines: "ok", not "ok: " (a log line ended "ok:  (3 ms)").
        row.verdict = (("ok: " + "; ".join(outcome.lines)[:500]) if outcome.lines else "ok") if outcome.ok \
            else f"error: {outcome.reason}"

    def _to_postmaster(self, s, row: Mail, env: Envelope, now: datetime) -> None:
        """Mail to postmaster (RFC 5321 §4.5.1) is for a person: the admin is told who wrote
        and what, and reads it whole with `mailref mail show`. Nothing goes back to the sender
        (a person writing to postmaster wants the admin, not a list of games); a sender past
        the day's allowance (SPEC §2.2) is not passed on again until the next day."""
        sender = env.from_addr or row.mail_from or "?"
        if count_reply(s.connection(), f"postmaster:{sender}", now.strftime("%Y-%m-%d")) > self.settings.replies_per_day:
            row.status, row.verdict = "processed", "postmaster: over the day's allowance, not passed on"
            return
        lines = [f"Mail #{row.id} to postmaster from {sender}: {env.subject.raw[:200] or '(no subject)'}", ""]
        lines += [line[:200] for line in env.body.strip().splitlines()[:20]]
        lines += ["", f"Read it whole: mailref mail show {row.id}"]
        queue_alert(s, self.settings, None, None, f"Mail to postmaster from {sender}", lines, now)
        row.status, row.verdict = "processed", "postmaster: passed to the admin"

    def _game_of_thread(self, s, env: Envelope) -> str | None:
        """When the recipients do not decide: the game that sent the mail this one answers."""
        refs = list(dict.fromkeys(reversed(env.in_reply_to + env.references)))[:20]
        if not refs:
            return None
        rows = dict(s.execute(select(OutboxMessage.message_id, OutboxMessage.game_slug)
                              .where(OutboxMessage.message_id.in_(refs), OutboxMessage.game_slug.is_not(None))).all())
        return next((rows[r] for r in refs if r in rows), None)

    def _subject_of_reply(self, s, env: Envelope, labels: tuple[str, ...] = ()):
        """A reply whose subject lost its tag is tied to what it answers by In-Reply-To."""
        for ref in reversed(env.in_reply_to + env.references):
            subj = s.scalar(select(OutboxMessage.subject).where(OutboxMessage.message_id == ref).limit(1))
            if subj:
                parsed = parse_subject(subj, game_tags=labels)
                if parsed.tag:
                    return type(parsed)(env.subject.raw, parsed.tag, parsed.number, env.subject.rest, True,
                                        forwarded=env.subject.forwarded)
        return env.subject

    def _record_bounces(self, s, env: Envelope, row: Mail, now: datetime) -> None:
        # A report that quotes our mail names the game that sent it (read/returned.py); else every
        # game where the address plays.
        from mailref.read.returned import returned_message_ids

        ids = returned_message_ids(s.scalar(select(InboxMessage.raw).where(InboxMessage.id == row.id)) or b"")
        sent = set(s.scalars(select(OutboxMessage.game_slug).where(OutboxMessage.message_id.in_(ids),
                                                                    OutboxMessage.game_slug.is_not(None)))) if ids else set()
        for game in s.scalars(select(Game).where(Game.slug.in_(sent)) if sent else select(Game)):
            variant = engine.get_variant(game.variant)
            for addr in env.bounce_for:
                p = variant.by_address(game.state, addr)
                if p:
                    s.add(Bounce(game_slug=game.slug, player=p["name"], address=addr, at=now, inbox_id=row.id))
                    row.game_slug = game.slug
        row.verdict += f"; bounce for {', '.join(env.bounce_for)}"

    # ---- timers -----------------------------------------------------------------
    def due_games(self, now: datetime | None = None) -> list[str]:
        now = now or self.clock()
        with self.store() as s:
            return list(s.scalars(select(Game.slug).where(Game.next_wakeup <= now).order_by(Game.next_wakeup)))

    def earliest_wakeup(self) -> datetime | None:
        """When the next deadline of any game falls (an index lookup, however many games)."""
        with self.store() as s:
            return s.scalar(select(func.min(Game.next_wakeup)))

    def tick(self, slug: str | None = None) -> list[str]:
        """Fire every deadline that is due (of one game, or all); returns the games woken."""
        now = self.clock()
        fired = []
        for g in [slug] if slug else self.due_games(now):
            with self.store() as s, s.begin():
                game = claim_due_game(s, g, now)
                if game is None:  # not due, or another daemon is firing it
                    continue
                door.apply(s, game, {"type": "tick"}, Source("timer", "deadline"), now, self.settings,
                             self.rng, facts=self.facts(s, game))
                fired.append(g)
            self._changed(g)
        return fired

    def facts(self, s: Session, game: Game) -> dict:
        """What only the store knows, for the GM's digest: the newest FACTS_MAX of each kind
        and how many more. Only the columns shown are read: a day of a stranger's big mail
        answered with an error (or quarantined) was read whole, raw bytes and all, at every
        deadline of the game (200 MB of it took a digest to 260 MB; a few GB, the daemon)."""
        since = self.clock() - timedelta(days=1)
        failed = (InboxMessage.status == "failed") & ((InboxMessage.game_slug == game.slug) | InboxMessage.game_slug.is_(None))
        rejected = (InboxMessage.game_slug == game.slug) & (InboxMessage.received_at >= since) \
            & InboxMessage.verdict.like("error:%")
        bounced = (Bounce.game_slug == game.slug) & (Bounce.at >= since)
        q = self._newest(s, failed, InboxMessage.id, InboxMessage.sender, InboxMessage.mail_from,
                         InboxMessage.subject, InboxMessage.error)
        r = self._newest(s, rejected, InboxMessage.id, InboxMessage.sender, InboxMessage.subject, InboxMessage.verdict)
        b = self._newest(s, bounced, Bounce.id, Bounce.at, Bounce.address, Bounce.player)
        return {
            "quarantined": [{"id": m.id, "sender": m.sender or m.mail_from, "subject": m.subject[:200],
                             "error": m.error.splitlines()[0][:300] if m.error else ""} for m in q[0]],
            "quarantined_more": q[1],
            "rejected": [{"id": m.id, "sender": m.sender, "subject": m.subject[:200], "verdict": m.verdict[:300]}
                         for m in r[0]],
            "rejected_more": r[1],
            "bounces": [{"at": iso(x.at), "address": x.address, "player": x.player} for x in b[0]],
            "bounces_more": b[1],
        }

    @staticmethod
    def _newest(s, where, id_col, *cols) -> tuple[list, int]:
        """The newest FACTS_MAX rows WHERE (oldest first), and how many older ones there are."""
        rows = s.execute(select(id_col, *cols).where(where).order_by(id_col.desc()).limit(FACTS_MAX)).all()
        more = s.scalar(select(func.count()).select_from(id_col.table).where(where)) - len(rows) \
            if len(rows) == FACTS_MAX else 0
        return rows[::-1], more

    # ---- admins -----------------------------------------------------------------
    def admin(self, slug: str, action: dict[str, Any], who: str) -> door.Outcome:
        now = self.clock()
        action = {**action, "by": who}
        with self.store() as s, s.begin():
            game = s.execute(select(Game).where(Game.slug == slug).with_for_update()).scalar_one_or_none()
            if game is None:
                raise Refused(f"there is no game {slug!r}")
            facts = self.facts(s, game) if action["type"] == "digest" else None
            outcome = door.apply(s, game, action, Source("admin", who), now, self.settings, self.rng, facts=facts)
        self._changed(slug)
        return outcome

    def create_game(self, slug: str, variant: str, address: str, name: str | None = None, gm: str | None = None,
                    timezone: str = "UTC", parameters: dict[str, Any] | None = None) -> None:
        with self.store() as s, s.begin():
            if s.scalar(select(Game.id).where(Game.slug == slug)):
                raise Refused(f"a game {slug!r} exists already")
            if s.scalar(select(Game.id).where(Game.address == address.lower())):
                raise Refused(f"the address {address} belongs to another game")
            if address.strip().lower() == self.settings.from_address.lower():
                # Mail from the referee's own address is never answered (SPEC §2.2), and mail to it
                # gets the list of games (§2.5): a game there would hear nobody.
                raise Refused(f"the address {address} is the referee's own (from_address)",
                              "give the game an address of its own, e.g. nomes@games.example.org")
            door.create_game(s, slug, variant, address, name, gm, timezone, parameters or {}, self.clock())
        self._changed(slug)

    def state(self, slug: str) -> dict:
        with self.store() as s:
            game = s.scalar(select(Game).where(Game.slug == slug))
            if game is None:
                raise Refused(f"there is no game {slug!r}")
            return door.full_state(s, game)


def message_id_of(raw: bytes) -> str:
    """The Message-ID of RAW as the dedupe keys it ("" when none)."""
    head = raw[:65536].split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0]
    m = re.search(rb"^message-id:\s*(<[^<>\s]+>)", head, re.I | re.M)
    return m.group(1).decode("ascii", "replace")[:900] if m else ""


def _game_key(env: Envelope | Exception, games: dict[str, str]) -> str:
    """Where a mail sorts in its batch: grouped by the game its recipients name (a guess made
    before routing; only the order depends on it)."""
    if isinstance(env, Exception):
        return ""
    return match_game(env.recipients, games) or ""


def _log_handled(row: Mail, ms: float, tag: str | None, game: str | None = None) -> None:
    """SPEC §7: one line per mail handled: inbox id, sender, game, tag, verdict, milliseconds."""
    log.info("mail #%s from %s game=%s tag=%s: %s: %s (%d ms)", row.id, printable(row.sender or row.mail_from or "-"),
             row.game_slug or game or "-", tag or "-", row.status, printable(row.verdict[:200]), ms)


def _list_or_bulk(env: Envelope) -> bool:
    """Mail from a mailing list (List-Id, RFC 2919) or a newsletter (List-Unsubscribe, RFC 2369)
    that does not say Precedence: list or bulk. Without a command it is one of the list's
    posts or a newsletter, not a question: a game address subscribed to a list (by anyone)
    answered every member's post with the help, one mail to each poster."""
    return bool(env.list_id) or "list-unsubscribe" in env.headers
