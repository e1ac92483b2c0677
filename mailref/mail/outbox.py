"""Delivery of the outbox: over an SMTP relay (a batch over up to three connections at once,
relay_lanes.py) with retries and back-off, or into a Maildir when no relay is configured.

Every row is claimed before it is sent (SPEC §4.3): `queued` becomes `sending` with this
process's name and a lease, in a transaction of its own, so the daemon, a CLI command and
another daemon never send the same row. A row is marked `sent` only after the relay took
it; marking is retried, and a row that cannot be marked is kept in memory and never sent
again by this process (the only double send left is a crash between the relay's 250 and
the marking). A row that can never go out (a refused recipient, an address the relay cannot
take) is marked `failed` with its reason and does not hold up the others."""

from __future__ import annotations

import logging
import mailbox
import os
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import and_, or_, select, update
from sqlalchemy.orm import Session

from mailref.config import SmtpOut
from mailref.mail import outbox_note
from mailref.mail.application import Alert
from mailref.mail.outbox_rows import RENEW, Result, backoff, claimant, mark_sent
from mailref.mail.relay_lanes import RELAY_SESSIONS, RelayLanes
from mailref.store import OutboxMessage, Store
from mailref.store.faults import FaultLog, is_store_fault, sqlite_file

log = logging.getLogger("mailref.outbox")
ALERT_AFTER = timedelta(days=2)
# A claim older than this is taken over (its process died). Renewed with every row sent, so
# it only has to outlast one row's delivery; MAILREF_OUTBOX_LEASE (seconds) shortens it where
# a quicker takeover after a crash matters more (the chaos test).
LEASE = timedelta(seconds=float(os.environ.get("MAILREF_OUTBOX_LEASE", "600")))
BATCH = 50  # rows per claim: well inside one lease on a slow relay
MARK_TRIES = 3


class Deliverer(RelayLanes):
    def __init__(
        self,
        store: Store,
        sender: str,
        relay: SmtpOut | None,
        maildir: Path,
        admin: str,
        name: str | None = None,
        alert: Alert | None = None,
    ):
        self.store, self.sender, self.relay, self.maildir, self.admin = (
            store,
            sender,
            relay,
            Path(maildir),
            admin,
        )
        self.me = name or claimant()
        # The application's way to tell the GM; without one (a bare deliverer), alerts are logged.
        self.alert = alert
        self.faults = FaultLog(log, sqlite_file(store.engine))
        # Delivered, but not yet marked so in the store: never sent again from here.
        self.unmarked: dict[int, tuple[OutboxMessage, Result]] = {}
        self.mark_wait = 1.0
        self.next_mark_try = 0.0
        self.unmarked_alerted = False
        self.database = store.engine.url.render_as_string(hide_password=True)
        self.note: Path | None = None  # where the unmarked rows are noted (outbox_note.py)
        self.marking: datetime | None = None  # during a batch: rows are marked sent one by one
        self.marked: set[int] = set()
        self.started = 0.0
        self.renewed = 0.0  # seconds into the batch when its lease was last renewed
        self.sessions = (
            RELAY_SESSIONS  # relay connections at once (fewer when the relay refuses more)
        )
        self.finishing = (
            threading.Lock()
        )  # one row at a time between the end of its data and our mark
        self._pool: ThreadPoolExecutor | None = None
        self.fewer_since = 0.0  # monotonic: when the relay last refused a connection
        self.cut_short = False  # the last round stopped at ROUND_BUDGET with rows left

    # ---- claiming ---------------------------------------------------------------
    def _free(self, now: datetime):
        """A row nobody is sending: queued, or claimed by a process whose lease ran out."""
        return or_(
            OutboxMessage.status == "queued",
            and_(OutboxMessage.status == "sending", OutboxMessage.lease_until < now),
        )

    def claim(
        self, now: datetime, only: int | None = None, limit: int = BATCH
    ) -> list[OutboxMessage]:
        """Take up to LIMIT due rows (or row ONLY, due or not) for this process."""
        free = self._free(now)
        due = (
            and_(free, OutboxMessage.id == only)
            if only is not None
            else and_(
                free, or_(OutboxMessage.status == "sending", OutboxMessage.next_attempt_at <= now)
            )
        )
        with self._durable() as s:
            q = select(OutboxMessage.id).where(due).order_by(OutboxMessage.id).limit(limit)
            if s.get_bind().dialect.name == "postgresql":
                # Another process's claim in flight is skipped, not waited for.
                q = q.with_for_update(skip_locked=True)
            ids = list(s.scalars(q))
            if not ids:
                return []
            # The WHERE repeats the test: on SQLite this UPDATE is the claim itself.
            mine = sorted(
                s.scalars(
                    update(OutboxMessage)
                    .where(OutboxMessage.id.in_(ids), free)
                    .values(status="sending", claimed_by=self.me, lease_until=now + LEASE)
                    .returning(OutboxMessage.id)
                    .execution_options(synchronize_session=False)
                )
            )
            if not mine:
                return []
            return list(
                s.scalars(
                    select(OutboxMessage)
                    .where(OutboxMessage.id.in_(mine))
                    .order_by(OutboxMessage.id)
                )
            )

    @contextmanager
    def _durable(self) -> Iterator[Session]:
        """A transaction that is on disk when it returns, even on SQLite with synchronous=NORMAL:
        a claim lost to a crash or a failing disk would send the whole batch again."""
        with self.store.engine.connect() as conn:
            # sqlite3's own connection, whose execute() runs outside SQLAlchemy's transaction
            raw: Any = conn.connection.dbapi_connection if conn.dialect.name == "sqlite" else None
            if raw is not None:
                raw.execute("PRAGMA synchronous=FULL")  # not allowed inside the transaction
            try:
                with Session(bind=conn, expire_on_commit=False) as s, s.begin():
                    yield s
            finally:
                if raw is not None:
                    try:
                        raw.execute("PRAGMA synchronous=NORMAL")
                    except Exception:  # the connection is gone with the fault being reported
                        pass

    # ---- transports (the relay's in relay_lanes.py) -------------------------------
    def _write_maildir(self, rows: list[OutboxMessage]) -> dict[int, Result]:
        results: dict[int, Result] = {}
        try:
            # Its parent may not exist: with PostgreSQL nothing else creates ./var (SPEC §6).
            self.maildir.parent.mkdir(parents=True, exist_ok=True)
            # Each of its folders, not only the Maildir's own: `mailbox` makes them only with a
            # Maildir that does not exist yet, and a process killed between its mkdirs left one
            # whose every delivery failed.
            for folder in (self.maildir, *(self.maildir / f for f in ("tmp", "new", "cur"))):
                folder.mkdir(mode=0o700, exist_ok=True)
            box = mailbox.Maildir(str(self.maildir), create=False)
        except OSError as e:
            return self._unsent(rows, results, f"maildir {self.maildir}: {e.strerror or e}")
        for row in rows:
            try:
                # Maildir readers expect LF line ends; the relay path keeps the wire's CRLF.
                box.add(row.raw.replace(b"\r\n", b"\n"))
                results[row.id] = Result()
                self._sent_now(row)
            except OSError as e:
                results[row.id] = Result(f"maildir {self.maildir}: {e.strerror or e}")
        return results

    def _transport(self, rows: list[OutboxMessage]) -> dict[int, Result]:
        return self._send_smtp(self.relay, rows) if self.relay else self._write_maildir(rows)

    # ---- one round --------------------------------------------------------------
    def deliver(
        self, now: datetime, only: int | None = None, limit: int = BATCH
    ) -> tuple[int, int]:
        """Deliver what is due (or row ONLY); returns (sent, failed)."""
        self.cut_short = False  # whatever ends this round early, it is no round cut short
        if self.unmarked and not self._remark(now):
            return 0, 0  # the store still refuses our marks: send nothing new meanwhile
        try:
            rows = self.claim(now, only, limit)
        except Exception as e:
            if not is_store_fault(e):
                raise
            self.faults.failed("outbox: cannot claim rows to send", e)
            return 0, 0
        self.faults.cleared("outbox: cannot claim rows to send")
        if not rows:
            return 0, 0
        self.marking, self.marked, self.started, self.renewed = now, set(), time.monotonic(), 0.0
        try:
            results = self._transport(rows)
        finally:
            self.marking = None
        for row in rows:  # the end an operator looks for after a row's "not delivered" lines
            if row.attempts and results[row.id].error is None:
                log.info(
                    "outbox #%s to %s delivered after %s tries",
                    row.id,
                    ", ".join(row.recipients),
                    row.attempts + 1,
                )
        down = [r.error for r in results.values() if r.relay_down]
        if down:
            # One line while the relay refuses, whichever rows meet it (each names its own
            # recipient), and one more when mail goes again.
            if not self.faults.active("outbox: mail not delivered"):
                self.faults.say("outbox: mail not delivered", f"{down[0]} (retried with back-off)")
        elif any(r.error is None for r in results.values()):
            self.faults.cleared("outbox: mail not delivered")
        done = [(row, results[row.id]) for row in rows if row.id not in self.marked]
        sent_early = len(rows) - len(done)
        for attempt in range(MARK_TRIES):
            try:
                self._mark(now, done)
                break
            except Exception as e:
                if not is_store_fault(e):
                    raise
                if attempt + 1 < MARK_TRIES:
                    time.sleep(0.2 * (attempt + 1))
                    continue
                self._keep_unmarked(now, done, e)
                return sent_early, 0
        sent, failed = self._count(done)
        return sent + sent_early, failed

    def _sent_now(self, row: OutboxMessage) -> None:
        """Mark ROW sent the moment the relay took it, so that a process killed mid-batch
        repeats at most the row in flight, not every row it had sent (SPEC §6). If the store
        refuses, the batch's own marking below retries it. One statement a row, past
        SQLAlchemy's execution machinery on SQLite (it was a third of a row's CPU) and in
        autocommit on PostgreSQL; the lease on the rest of the batch is renewed every
        quarter lease, not every row."""
        if self.marking is None:
            return
        try:
            if mark_sent(self.store, row.id, self.marking):
                self.marked.add(row.id)
            elapsed = time.monotonic() - self.started
            if elapsed - self.renewed > LEASE.total_seconds() / 4:
                self.renewed = elapsed
                with self.store.engine.begin() as conn:
                    # The rest of the batch stays ours: the lease runs from now (on the caller's
                    # clock).
                    conn.execute(
                        RENEW,
                        {"me": self.me, "until": self.marking + timedelta(seconds=elapsed) + LEASE},
                    )
        except Exception as e:  # never raised into the transport: the row WAS delivered
            log.debug("outbox #%s: marking at once failed (%s); the batch marks it", row.id, e)

    @staticmethod
    def _count(done: list[tuple[OutboxMessage, Result]]) -> tuple[int, int]:
        sent = sum(1 for _, r in done if r.error is None)
        return sent, sum(1 for _, r in done if r.error is not None and r.tried)

    def _mark(self, now: datetime, done: list[tuple[OutboxMessage, Result]]) -> None:
        failed_now = []
        with self._durable() as s:
            for claimed, res in done:
                row = s.get(OutboxMessage, claimed.id)
                if row is None:
                    continue
                if res.error is None:
                    row.status, row.sent_at, row.last_error = "sent", now, ""
                    row.attempts += 1
                    row.claimed_by = row.lease_until = None
                    continue
                if row.claimed_by != self.me or row.status != "sending":
                    continue  # our lease ran out and another process has it now
                row.claimed_by = row.lease_until = None
                if not res.tried:
                    row.status = "queued"
                    continue
                row.attempts += 1
                row.last_error = res.error
                if res.permanent:
                    row.status = "failed"
                    log.warning(
                        "outbox #%s to %s failed for good: %s (the GM is alerted; `mailref outbox "
                        "retry %s` "
                        "sends it again)",
                        row.id,
                        ", ".join(row.recipients),
                        res.error,
                        row.id,
                    )
                    if row.kind != "alert":
                        failed_now.append(row)
                    continue
                row.status, row.next_attempt_at = "queued", now + backoff(row.attempts)
                if not row.alerted and now - row.created_at >= ALERT_AFTER and row.kind != "alert":
                    row.alerted = 1
                    self._alert(s, row, now)
                if not res.relay_down:
                    log.warning(
                        "outbox #%s to %s not delivered (attempt %s): %s; next try %s UTC",
                        row.id,
                        ", ".join(row.recipients),
                        row.attempts,
                        res.error,
                        f"{row.next_attempt_at:%H:%M:%S}",
                    )
            if failed_now:
                self._alert_failed(s, failed_now, now)

    def _keep_unmarked(self, now: datetime, done, exc: BaseException) -> None:
        for row, res in done:
            self.unmarked[row.id] = (row, res)
        # Outside the store, so that this host's next start does not send them again.
        delivered = [i for i, (_, res) in self.unmarked.items() if res.error is None]
        self.note = outbox_note.write(self.database, self.me, delivered)
        line = self.faults.failed("outbox: cannot mark delivered rows", exc)
        self.mark_wait = 1.0
        self.next_mark_try = time.monotonic() + self.mark_wait
        if not self.unmarked_alerted:
            self.unmarked_alerted = True
            self._alert_directly(
                now,
                [
                    f"{len(self.unmarked)} outgoing mail(s) were delivered but could not be "
                    f"marked as sent: {line}",
                    "They are not sent again while this process runs; it keeps trying to record "
                    "them.",
                    "Until then, delivery of further mail waits.",
                ],
            )

    def _remark(self, now: datetime) -> bool:
        """Record the rows delivered earlier; False while the store still refuses."""
        if time.monotonic() < self.next_mark_try:
            return False
        try:
            self._mark(now, list(self.unmarked.values()))
        except Exception as e:
            if not is_store_fault(e):
                raise
            self.faults.failed("outbox: cannot mark delivered rows", e)
            self.mark_wait = min(self.mark_wait * 2, 60.0)
            self.next_mark_try = time.monotonic() + self.mark_wait
            return False
        log.info("outbox: %s delivered row(s) recorded as sent after all", len(self.unmarked))
        self.unmarked.clear()
        if self.note is not None:
            outbox_note.remove(self.database, self.me)
            self.note = None
        self.unmarked_alerted = False
        self.faults.cleared("outbox: cannot mark delivered rows")
        return True

    def take_back_dead_claims(self, now: datetime) -> None:
        """At start: free the claims of this host's dead processes (store/dead_claims.py),
        marking sent what their notes say they delivered; said in one line."""
        from mailref.store.dead_claims import process_gone, take_back

        notes = outbox_note.read_all(self.database)
        done = take_back(self.store, now, notes)
        outbox_note.remove_dead(self.database, [who for who in notes if process_gone(who)])
        if done.outbox or done.inbox or done.marked:
            log.info("%s", done.line())

    def close(self) -> None:
        """At stop: say which rows went out without being recorded, and what happens to them."""
        if self._pool is not None:
            self._pool.shutdown()
        if self.unmarked:
            ids = ", ".join(f"#{i}" for i in sorted(self.unmarked))
            if self.note is not None:
                log.error(
                    "outbox: %s delivered but not marked sent (the store refused); noted in %s: "
                    "mailref's next start on this host marks them sent",
                    ids,
                    self.note,
                )
            else:
                log.error(
                    "outbox: %s delivered but not marked sent (the store refused), and the note "
                    "could not be written: the next start sends them again unless you run "
                    "`mailref outbox drop ID` first",
                    ids,
                )

    # ---- telling the GM ---------------------------------------------------------
    def _alert(self, s, row: OutboxMessage, now: datetime) -> None:
        self._queue_alert(
            s,
            row.game_slug,
            now,
            "Alert: outgoing mail undelivered for 2 days",
            [
                f"Outbox #{row.id} to {', '.join(row.recipients)} ({row.subject}) "
                f"is undelivered since {row.created_at:%Y-%m-%d %H:%M} UTC: {row.last_error}",
                "It is still being retried; `mailref outbox list` shows the queue.",
            ],
        )

    def _alert_failed(self, s, rows: list[OutboxMessage], now: datetime) -> None:
        lines = [
            f"Outbox #{r.id} to {', '.join(r.recipients)} ({r.subject}): {r.last_error}"
            for r in rows
        ]
        lines.append(
            "These are not retried by themselves: `mailref outbox retry ID` sends one again, "
            "`mailref outbox drop ID --reason ...` gives it up."
        )
        self._queue_alert(
            s,
            rows[0].game_slug,
            now,
            f"Alert: {len(rows)} outgoing mail(s) could not be delivered",
            lines,
        )

    def _queue_alert(
        self, s, slug: str | None, now: datetime, subject: str, lines: list[str]
    ) -> None:
        if self.alert is None:
            log.warning("outbox: %s%s: %s", subject, f" ({slug})" if slug else "", " ".join(lines))
            return
        self.alert(s, slug, now, subject, lines)

    def _alert_directly(self, now: datetime, lines: list[str]) -> None:
        """An alert that cannot wait for the store: sent past the outbox table, once."""
        from mailref.render import render
        from mailref.write.compose import compose

        msg = compose(
            sender=self.sender,
            to=self.admin,
            subject="Alert: mailref cannot record its outgoing mail",
            body=render("alert.txt", game={}, lines=lines),
            kind="alert",
            game=None,
            now=now,
        )
        row = OutboxMessage(
            id=0, recipients=[self.admin], raw=msg.as_bytes().replace(b"\n", b"\r\n"), kind="alert"
        )
        res = self._transport([row])[0]
        if res.error:
            log.error("outbox: the alert to %s could not be sent either: %s", self.admin, res.error)
