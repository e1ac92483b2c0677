"""The daemon's deadlines: one APScheduler timer at the earliest deadline of all games, the
games due fired one at a time when it rings, and at start the deadlines missed while the
daemon was down, once each. Mixed into the Daemon, whose referee, locks and fault log it uses."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from mailref.mail.imap import Poller
from mailref.referee import Referee
from mailref.referee.quarantine import alert_timer_failed
from mailref.store.faults import FaultLog, is_store_fault
from mailref.timeutil import utcnow

log = logging.getLogger("mailref")
SYNC_EVERY = 2.0  # seconds: how soon a CLI change to a deadline is noticed
# How long a deadline waits for a pass over the mailbox that began after it: beyond that the
# server is down or too slow to hear from, and the deadline fires (docs/decisions/fair-time.md).
IMAP_PATIENCE = timedelta(minutes=2)
# A game whose deadline fails (not the database: a bug, or a value it cannot run by) is tried
# again after these many seconds, doubling: the GM is told once, not a traceback every 2 s.
RETRY_FIRST, RETRY_MOST = 2.0, 3600.0


class SkippedChecks(logging.Filter):
    """APScheduler's "skipped: maximum number of running instances reached", which came every
    SYNC_EVERY while the deadline check waited for the database (a lock another process
    holds): said once in our words, and once more when a check runs again."""

    def __init__(self) -> None:
        super().__init__()
        self.said = False

    def filter(self, record: logging.LogRecord) -> bool:
        if "maximum number of running instances" not in str(record.msg):
            return True
        if self.said:
            return False
        self.said = True
        record.msg = (
            "deadlines: the check of every %s s is still waiting for the database (a lock "
            "another process holds?); the next checks are skipped until it answers"
        )
        record.args = (f"{SYNC_EVERY:g}",)
        return True

    def ran(self) -> None:
        """A deadline check ran to its end."""
        if self.said:
            self.said = False
            log.info("deadlines: checked again")


SKIPPED = SkippedChecks()


class DeadlineTimers:
    """The timer half of the Daemon; the Daemon starts the scheduler and calls sync_timers."""

    referee: Referee
    faults: FaultLog
    stopping: asyncio.Event
    scheduled: datetime | None  # the deadline the one timer is set for
    firing: bool
    # Games whose deadline failed: when (time.monotonic) it is tried again, and the wait.
    failing: dict[str, tuple[float, float]]
    _failed: Callable[[str, BaseException], None]
    _locked: Callable[..., Any]

    async def deliver_now(self, within: float | None = None) -> None:
        """The Daemon's: deliver what is due (a deadline's mail goes out at once)."""
        raise NotImplementedError

    def wait_for_mailbox(self, poller: Poller) -> None:
        """Deadlines wait for the IMAP server's mail received before them (SPEC §2.1): each
        fires once a pass over the mailbox that began after it has stored its mail, or once it
        has waited IMAP_PATIENCE without one (said once)."""
        since: dict[datetime, datetime] = {}  # the deadlines waiting: since when
        given_up: set[datetime] = set()

        def read(at: datetime) -> datetime:
            through, now = poller.read_up_to(at), utcnow()
            if through is not None and through >= at:
                since.pop(at, None)
                return through
            if at in given_up:
                return now
            if now - since.setdefault(at, now) < IMAP_PATIENCE:
                return through if through is not None else at - timedelta(microseconds=1)
            del since[at]
            if len(given_up) > 1000:  # deadlines long fired
                given_up.clear()
            given_up.add(at)
            log.warning(
                "a deadline due at %s fires without the mailbox read up to it: "
                "no pass over it ended within %s (%s)",
                at.isoformat(timespec="seconds"),
                IMAP_PATIENCE,
                poller.trouble.where(),
            )
            return now

        self.referee.mailbox_read = read

    async def reconcile(self) -> None:
        """Deadlines missed while down fire now, once each, in the order they fell due."""
        due = await asyncio.to_thread(self.referee.due_games)
        if due:
            log.info("reconciling missed deadlines of %s", ", ".join(due))
        await self.tick_each(due)

    async def tick_each(self, slugs: list[str]) -> None:
        """One game's deadline at a time: mail is taken up in between, and a SIGTERM does not
        wait for thousands of games."""
        for slug in slugs:
            if self.stopping.is_set():
                return
            if slug in self.failing and self.failing[slug][0] > time.monotonic():
                continue  # failed: tried again when its wait is over
            try:
                await asyncio.to_thread(self._locked, self.referee.tick, slug)
                self.faults.cleared(f"timer of {slug}")
                if self.failing.pop(slug, None):
                    log.info("the deadline of %s fired again", slug)
            except Exception as e:
                if is_store_fault(e):
                    self._failed(f"timer of {slug}", e)
                else:
                    await asyncio.to_thread(self.timer_failed, slug, e)

    def timer_failed(self, slug: str, e: Exception) -> None:
        """Said once, with its traceback, to the log and to the GM; tried again later and later."""
        wait = self.failing[slug][1] * 2 if slug in self.failing else RETRY_FIRST
        wait = min(wait, RETRY_MOST)
        first = slug not in self.failing
        self.failing[slug] = (time.monotonic() + wait, wait)
        if not first:
            return
        log.error(
            "the deadline of %s failed; the GM is alerted, and it is tried again with a growing "
            "wait (at most %s s)",
            slug,
            f"{RETRY_MOST:g}",
            exc_info=e,
        )
        try:
            alert_timer_failed(self.referee.store, self.referee.settings, slug, e, utcnow())
        except Exception as alert:
            log.error("the alert for the deadline of %s could not be queued: %s", slug, alert)

    def earliest_retry(self) -> datetime | None:
        """When the first failed deadline is tried again, as a time of day."""
        if not self.failing:
            return None
        soonest = min(at for at, _ in self.failing.values())
        return utcnow() + timedelta(seconds=max(0.0, soonest - time.monotonic()))

    async def sync_timers(self, scheduler: AsyncIOScheduler) -> None:
        """ONE timer, at the earliest deadline of all games. One job per game made 10,000 idle
        games 10,000 jobs, each waking APScheduler through the loop's self-pipe: the pipe
        filled, and a SIGTERM arriving then was lost (the daemon never stopped)."""
        if self.firing:
            return  # fire() goes through every game due; the timer is set again after it
        try:
            at = await asyncio.to_thread(self.referee.earliest_wakeup, set(self.failing))
            retry = self.earliest_retry()
            at = min(at, retry) if at and retry else at or retry
        except asyncio.CancelledError:  # the daemon is stopping (APScheduler would log a traceback)
            return
        except Exception as e:
            self._failed("reading deadlines", e)
            return
        SKIPPED.ran()
        self.faults.cleared("reading deadlines")  # said once it works again, as processing is
        self.faults.cleared("missed deadlines")  # the timer now fires what the start could not
        if self.scheduled == at and (at is None or scheduler.get_job("wake")):
            return
        self.scheduled = at
        if at is None:
            if scheduler.get_job("wake"):
                scheduler.remove_job("wake")
            return
        scheduler.add_job(
            self.fire,
            "date",
            run_date=max(at, utcnow()),
            id="wake",
            replace_existing=True,
            misfire_grace_time=None,
            coalesce=True,
        )

    async def fire(self) -> None:
        """Every game due now, earliest first; the next sync schedules the next deadline."""
        self.firing = True
        try:
            await self.tick_each(await asyncio.to_thread(self.referee.due_games))
            await self.deliver_now()
        except (
            asyncio.CancelledError
        ):  # the daemon is stopping: what is due fires at the next start
            return
        except Exception as e:
            self._failed("reading deadlines", e)
            return
        finally:
            self.firing, self.scheduled = False, None
