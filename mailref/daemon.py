"""`mailref serve`: the listener, the poller, the scheduler and the sender in one asyncio
loop. Deadlines live in the database; APScheduler only wakes us for them, and on start the
reconcile pass fires what was missed while we were down, once, late."""

from __future__ import annotations

import asyncio
import faulthandler
import logging
import os
import signal
import socket
import threading
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import ParamSpec, TypeVar

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from mailref import stopsignal
from mailref.config import Config
from mailref.daemon_pages import Pages
from mailref.daemon_timers import SKIPPED, SYNC_EVERY, DeadlineTimers
from mailref.mail.imap import Poller
from mailref.mail.intake import Intake, IntakeError, port_hint
from mailref.mail.outbox import BATCH as SEND_BATCH
from mailref.mail.outbox import Deliverer
from mailref.outgoing import gm_alerts
from mailref.referee import BATCH, Referee
from mailref.store.faults import FaultLog, describe, is_store_fault, sqlite_file
from mailref.testhooks import crash_point
from mailref.timeutil import utcnow

P = ParamSpec("P")  # the arguments of a call made under the work lock
T = TypeVar("T")
log = logging.getLogger("mailref")
INTAKE_QUIET = 0.05  # seconds without new mail before processing starts while a burst comes in
INTAKE_LAG = 1.0  # ...but processing never waits longer than this behind the first mail waiting
# seconds a stop goes on delivering (a round in hand always ends): a SIGTERM with thousands of
# rows queued for a slow relay drained them all, past the unit's TimeoutStopSec, then SIGKILL
STOP_DELIVERY = 10.0
BATCH_WHILE_INTAKE = 10  # mails a batch takes when the lag ran out while mail still arrives


def sd_notify(state: str) -> None:
    """systemd's notify protocol without a dependency: one datagram to $NOTIFY_SOCKET."""
    addr = os.environ.get("NOTIFY_SOCKET")
    if not addr:
        return
    if addr.startswith("@"):
        addr = "\0" + addr[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as s:
            s.connect(addr)
            s.sendall(state.encode())
    except OSError:
        pass


class Daemon(DeadlineTimers):
    def __init__(self, cfg: Config):
        self.cfg = cfg
        self.referee = Referee.from_config(cfg)
        self.deliverer = Deliverer(
            self.referee.store,
            cfg.from_address,
            cfg.smtp_out,
            cfg.outbox_maildir,
            cfg.admin_address,
            alert=gm_alerts(self.referee.settings),
        )
        self.work = threading.Lock()  # one batch of mail or one timer at a time
        self.sending = threading.Lock()  # one delivery round at a time, beside the work
        self.send_kick = asyncio.Event()
        self.stopping = asyncio.Event()
        self.kick = asyncio.Event()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.scheduled: datetime | None = None  # the deadline the one timer is set for
        self.firing = False
        self.failing = {}
        self.faults = FaultLog(log, sqlite_file(self.referee.store.engine))
        self.intake: Intake | None = None
        self.noted_at = self.processed_at = self.behind_since = 0.0  # monotonic: intake_first()
        self.intake_storing = False  # the listener is committing a mail (or waiting to)
        # The published pages, made by a loop of their own (daemon_pages.py).
        self.pages = Pages(self.referee, cfg.site) if cfg.site else None
        if self.pages is not None:
            self.referee.after_change = self.pages.changed

    async def start_intake(self) -> None:
        """The SMTP and LMTP listeners, in their own process (mail/intake.py); its notes wake
        processing."""
        ends = [
            (name, t) for name, t in (("SMTP", self.cfg.smtp_in), ("LMTP", self.cfg.lmtp_in)) if t
        ]
        where = (
            " and ".join(f"{name} listener" for name, _ in ends)
            + ": cannot listen on "
            + " and ".join(f"{t.host}:{t.port}" for _, t in ends)
            + ": "
        )
        intake = Intake(
            self.cfg,
            logging.getLevelName(log.getEffectiveLevel()),
            log_format(),
            Referee.from_config,
        )
        try:
            await asyncio.to_thread(intake.start)
        except IntakeError as e:
            raise Fatal(where + str(e) + port_hint(min(t.port for _, t in ends), str(e))) from None
        self.intake = intake
        asyncio.get_running_loop().add_reader(intake.fileno(), self._noted)

    def _noted(self) -> None:
        intake = self.intake
        if intake is None:  # stopped: its reader is gone with it
            return
        last = intake.drain()
        if last == b"":
            return
        if last is not None:
            self.intake_storing = last == b"s"
            now = time.monotonic()
            if self.noted_at <= self.processed_at:  # the first mail since the last batch began
                self.behind_since = now
            self.noted_at = now
            self.kick.set()
            return
        # The listener died (it is never stopped but by us): start another, after a pause.
        asyncio.get_running_loop().remove_reader(intake.fileno())
        intake.proc.join(
            1.0
        )  # its pipe closes a moment before it can be reaped: then its exit code is known
        log.error(
            "SMTP listener process ended (%s); starting it again", ended(intake.proc.exitcode)
        )
        self.intake = None
        self._restart_intake_in(1.0)

    def _restart_intake_in(self, seconds: float) -> None:
        asyncio.get_running_loop().call_later(
            seconds, lambda: asyncio.ensure_future(self._restart_intake())
        )

    async def _restart_intake(self) -> None:
        if self.stopping.is_set() or self.intake is not None:
            return
        try:
            await self.start_intake()
        except Fatal as e:
            log.error("%s (trying again in 10 s)", e)
            self._restart_intake_in(10.0)

    async def intake_first(self) -> bool:
        """While mail is arriving back to back, let the listener have the machine: processing
        waits until it has been quiet for INTAKE_QUIET, but never lags more than INTAKE_LAG
        behind the first mail it has not taken up. Mail is answered 250 at the store's pace, not
        at the pace of answering it; under a flood, processing still runs a batch every
        INTAKE_LAG (docs/decisions/daemons.md). True when mail is still
        arriving (the lag ran out), so the caller takes a small batch."""
        hot = False
        while not self.stopping.is_set():
            now = time.monotonic()
            quiet_in = INTAKE_QUIET if self.intake_storing else self.noted_at + INTAKE_QUIET - now
            lag_left = self.behind_since + INTAKE_LAG - now
            if quiet_in <= 0 or lag_left <= 0:
                hot = quiet_in > 0
                break
            await asyncio.sleep(min(quiet_in, lag_left))
        self.processed_at = time.monotonic()
        return hot

    async def stop_intake(self) -> None:
        intake, self.intake = self.intake, None
        if intake is None:
            return
        asyncio.get_running_loop().remove_reader(intake.fileno())
        await asyncio.to_thread(intake.stop)

    def poke(self) -> None:
        if self.loop:
            self.loop.call_soon_threadsafe(self.kick.set)

    def _locked(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        with self.work:
            return fn(*args, **kwargs)

    def _failed(self, what: str, exc: BaseException) -> None:
        """A store fault is one line while it lasts; anything else is a bug, with its traceback."""
        if is_store_fault(exc):
            self.faults.failed(what, exc)
        else:
            log.error("%s failed", what, exc_info=exc)

    async def run(self) -> None:
        self.loop = asyncio.get_running_loop()
        # SIGTERM/SIGINT are caught from the command's first moment (stopsignal), never by the
        # loop: the loop caught them only from here on, and put the default back as it closed.
        stopsignal.on_stop(self._stop_asked)
        self.loop.add_signal_handler(signal.SIGHUP, self._hangup)
        log.info("mailref starting: %s", self.cfg.describe())
        try:  # before anything of ours is claimed: a claim under our own PID is a dead one's
            await asyncio.to_thread(self.deliverer.take_back_dead_claims, utcnow())
        except Exception as e:
            self._failed("taking back the claims of stopped processes", e)
        if not self.cfg.smtp_in and not self.cfg.lmtp_in and not self.cfg.imap:
            log.warning(
                "no mail can come in: the configuration has neither [smtp_in] nor [imap] "
                "(only deadlines and the CLI act)"
            )
        if (
            self.cfg.site
        ):  # a folder the pages cannot be written to is said now, not at the first mail
            from mailref.site import trouble

            trouble.check_at_start(Path(self.cfg.site.dir))
        poller = None
        if self.cfg.smtp_in or self.cfg.lmtp_in:
            await self.start_intake()
            for name, t in (("SMTP", self.cfg.smtp_in), ("LMTP", self.cfg.lmtp_in)):
                if t:
                    log.info("%s listener on %s:%s", name, t.host, t.port)
        one_click = None
        if self.cfg.web_listen:  # the one-click unsubscribe (RFC 8058), behind the site's server
            from mailref import web

            try:
                one_click = await web.start(self.referee, self.cfg.web_listen, self._locked)
            except OSError as e:
                raise Fatal(f"[web] listen: cannot listen on {self.cfg.web_listen}: {e}") from None
        if self.cfg.imap:
            size = self.cfg.smtp_in.max_message_size if self.cfg.smtp_in else 10 * 1024 * 1024
            poller = Poller(
                self.cfg.imap,
                self.referee,
                size,
                self.poke,
                process=lambda ids: self._locked(self.referee.process, ids),
            )
            self.wait_for_mailbox(poller)
            threading.Thread(target=poller.run, name="imap", daemon=True).start()
            log.info(
                "IMAP poller for %s@%s:%s/%s",
                self.cfg.imap.username,
                self.cfg.imap.host,
                self.cfg.imap.port,
                self.cfg.imap.folder,
            )
        scheduler = AsyncIOScheduler(timezone="UTC")
        scheduler.add_job(
            self.sync_timers,
            "interval",
            seconds=SYNC_EVERY,
            args=[scheduler],
            id="sync",
            max_instances=1,
            coalesce=True,
        )
        scheduler.start()
        sd_notify("READY=1")
        log.info("mailref ready")
        # Delivery runs beside processing from the start: the backlog's replies go out batch by
        # batch.
        sender = asyncio.create_task(self.send_loop())
        pages = asyncio.create_task(self.pages.run()) if self.pages else None
        # Then the backlog (mail stored before a stop), before missed deadlines fire since it
        # arrived first; none of it delays READY, and new mail is accepted meanwhile.
        await self.process_stored()
        try:
            await self.reconcile()
        except Exception as e:
            self._failed("missed deadlines", e)
        await self.sync_timers(scheduler)
        worker = asyncio.create_task(self.process_loop())
        await self.stopping.wait()
        sd_notify("STOPPING=1")
        log.info("mailref stopping")
        if self.intake:
            await self.stop_intake()
        if poller:
            poller.stop.set()
        if one_click:
            await one_click.cleanup()
        scheduler.shutdown(wait=False)
        for task in (sender, worker, pages):
            if task:
                task.cancel()
        with self.work:  # finish the batch in hand
            pass
        # The mail already answered 250 but not yet taken up (at most one batch more; the rest
        # stays stored for the next start), then its replies.
        await self.process_stored(limit=BATCH, deliver=False)
        await self.deliver_now(within=STOP_DELIVERY)
        self.deliverer.close()
        self.referee.store.dispose()
        stopsignal.on_stop(None)  # the loop closes: a later SIGTERM is only remembered

    def _stop_asked(self) -> None:
        """A stop signal, in the main thread between two bytecodes: wake the loop, raise nothing."""
        try:
            if self.loop is not None:  # set before the stop signal is listened for (run)
                self.loop.call_soon_threadsafe(self.stopping.set)
        except RuntimeError:  # the loop is closed: the daemon is ending anyway
            pass

    def _hangup(self) -> None:
        """What a SIGHUP does. There is no reload: a service keeps running and says how to apply
        a changed file; in a terminal, a hang-up is the terminal closing, and the daemon stops
        as on SIGTERM."""
        if os.isatty(2):
            log.info("SIGHUP: the terminal closed; stopping")
            self.stopping.set()
            return
        log.warning(
            "SIGHUP: mailref has no reload and keeps running; it reads %s only at start: "
            "restart it to apply a change (systemctl restart mailref)",
            self.cfg.path or "its configuration",
        )

    async def process_loop(self) -> None:
        while True:
            try:
                await asyncio.wait_for(self.kick.wait(), timeout=2)
            except TimeoutError:
                pass
            self.kick.clear()
            if not await self.process_stored():
                # what the IMAP poller processed: out at once, not at the next send_loop turn
                self.send_kick.set()

    async def process_stored(self, limit: int | None = None, deliver: bool = True) -> int:
        """Process what is stored, a batch at a time (the work lock is held per batch, so a
        deadline may come between two), waking delivery for each batch's replies right after
        it. Returns how many mails were taken up."""
        done, skip = 0, set[int]()
        # A stop asked for ends an unbounded pass after the batch in hand (a backlog of thousands
        # at start-up held a SIGTERM until all were answered); the stop's own pass is bounded.
        while (limit is None and not self.stopping.is_set()) or (
            limit is not None and done < limit
        ):
            size = BATCH
            if limit is None and await self.intake_first():
                # a short transaction: the listener's commits wait for it on SQLite
                size = BATCH_WHILE_INTAKE
            try:
                ids = await asyncio.to_thread(self._locked, self.referee.process, None, size, skip)
                self.faults.cleared("processing")
            except Exception as e:
                self._failed("processing", e)
                return done
            if not ids:
                # Mail left waiting for a deadline that waited for older mail: that one fires
                # now, and the mail after it goes on.
                if not skip or not await self._catch_up(skip):
                    return done
                continue
            done += len(ids)
            crash_point("before-delivery")
            if deliver:
                self.send_kick.set()
        return done

    async def _catch_up(self, skip: set[int]) -> bool:
        """At the end of a pass that left mail awaiting (SKIP): fire the deadlines that waited
        for older mail, now processed. True when one fired: SKIP is emptied, so the mail that
        waited for it goes in the next batch."""
        try:
            fired = await asyncio.to_thread(self._locked, self.referee.tick)
        except Exception as e:
            self._failed("deadlines", e)
            return False
        if fired:
            skip.clear()
        return bool(fired)

    async def deliver_now(self, within: float | None = None) -> None:
        """Deliver what is due, an outbox batch at a time; a round cut short by a slow relay
        goes on at once. Delivery has a lock of its own, not the work lock: processing never waits
        for a relay, and the replies of one batch go out while the next is processed. WITHIN: no new
        round after that many seconds (a stop: what is left goes at the next start)."""
        end = None if within is None else time.monotonic() + within
        try:
            while (
                sum(await asyncio.to_thread(self._deliver)) >= SEND_BATCH
                or self.deliverer.cut_short
            ):
                if end is not None and time.monotonic() >= end:
                    break
        except Exception as e:
            self._failed("delivery", e)

    def _deliver(self) -> tuple[int, int]:
        # The time is read once the sending lock is ours: the claims' leases run from it, and a
        # time read before waiting for a round in hand would give leases already run out, so
        # another daemon would send the same rows at once.
        with self.sending:
            return self.deliverer.deliver(utcnow())

    async def send_loop(self) -> None:
        while True:
            self.send_kick.clear()
            await self.deliver_now()
            try:
                await asyncio.wait_for(self.send_kick.wait(), timeout=1)
            except TimeoutError:
                pass


class Fatal(Exception):
    """The daemon cannot run: one line to the operator, exit 1."""


def log_format() -> str:
    """journald stamps every line itself (JOURNAL_STREAM is set under systemd): no second time."""
    if os.environ.get("JOURNAL_STREAM"):
        return "%(levelname)s %(name)s: %(message)s"
    return "%(asctime)s %(levelname)s %(name)s: %(message)s"


def ended(exitcode: int | None) -> str:
    """How a child process ended, in words: "killed by SIGBUS", not "exit code -7"."""
    if exitcode is not None and exitcode < 0:
        try:
            return f"killed by {signal.Signals(-exitcode).name}"
        except ValueError:
            pass
    return f"exit code {exitcode}"


def serve(cfg: Config) -> int:
    # `mailref serve` caught it before loading the configuration; this is for other callers
    stopsignal.catch()
    # A process killed by a fault (SIGBUS, SIGSEGV) writes where it was, each thread's stack,
    # to the log before it dies: without it the journal showed nothing at all
    # (docs/decisions/listener.md).
    faulthandler.enable()
    logging.basicConfig(level=os.environ.get("MAILREF_LOG", "INFO"), format=log_format())
    logging.getLogger("apscheduler").setLevel(logging.WARNING)
    logging.getLogger("apscheduler.scheduler").addFilter(SKIPPED)  # one line, not one per 2 s
    # "Context impl SQLiteImpl.", "Running upgrade 0001 -> 0002 ..." at every new or upgraded
    # database: the store says what it did in one line of its own ("created a new database").
    logging.getLogger("alembic").setLevel(logging.WARNING)
    logging.getLogger("mail.log").setLevel(logging.WARNING)
    logging.getLogger("flufl.bounce").setLevel(
        logging.WARNING
    )  # "Running detector: …" per bounce; SPEC §7: one line a mail
    from mailref.check import sqlite_path

    new_db = sqlite_path(cfg.database)
    new_db = new_db if new_db is not None and not new_db.exists() else None
    try:
        daemon = Daemon(cfg)
        if new_db is not None:
            log.info("created a new database at %s", new_db)
    except Exception as e:
        if is_store_fault(e):
            raise Fatal(
                f"database {cfg.database}: {describe(e, sqlite_path(cfg.database))}"
            ) from None
        raise
    asyncio.run(daemon.run())
    return 0
