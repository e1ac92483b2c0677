"""The IMAP poller, a batch at a time: fetch with BODY.PEEK[] (nothing is marked seen before
it is stored), commit the batch in one transaction, process it, then move it to the
processed or rejected folder with one MOVE per folder (COPY + \\Deleted + UID EXPUNGE where
MOVE is missing). IDLE when offered, polling otherwise; reconnects with back-off. The
cursor (UIDVALIDITY, last UID) lives in the database; a UIDVALIDITY reset only means
re-reading, and the inbox's dedupe makes re-reading harmless."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta

from imapclient import IMAPClient
from imapclient.exceptions import IMAPClientAbortError, IMAPClientError

from mailref.config import Imap
from mailref.mail.application import Application as Referee
from mailref.mail.application import Incoming
from mailref.mail.imap_cursor import advance, cursor
from mailref.mail.imap_folders import FolderTrouble, ensure, on_server
from mailref.mail.imap_idle import (
    ANSWER_WAIT,
    answer_within,
    begin_idle,
    ended_with_bye,
    read_with_idling,
    still_there,
)
from mailref.mail.imap_leftovers import expunge_only, sweep
from mailref.mail.imap_trouble import Trouble, _text
from mailref.testhooks import crash_point

log = logging.getLogger("mailref.imap")
HELD_RECHECK = 2.0  # seconds: a pass again soon while another daemon holds some of the mail
IDLE_RENEW = 9 * 60  # servers may drop IDLE after 30 min; RFC 2177 says renew before 29


BATCH = 100  # messages fetched, stored, processed and filed together
BATCH_BYTES = 32 * 1024 * 1024  # ...and at most this much mail of them in memory at once
UNREADABLE_AFTER = 3  # failed FETCHes of one message before it is skipped (left in the folder)


def open_imap(cfg: Imap, timeout: float) -> IMAPClient:
    """A connection to the mailbox's server, in TLS before anything is said when [imap] asks
    for TLS (ssl: from the first byte; starttls: upgraded at once). The certificate is checked
    against the system's CAs (SSL_CERT_FILE names others) and the host name."""
    c = IMAPClient(cfg.host, port=cfg.port, ssl=cfg.ssl, timeout=timeout)
    if cfg.starttls:
        try:
            c.starttls()
        except BaseException:
            try:
                c.shutdown()
            except Exception:
                pass
            raise
    return c


class Poller:
    def __init__(
        self,
        cfg: Imap,
        referee: Referee,
        max_size: int = 10 * 1024 * 1024,
        on_stored: Callable[[], None] = lambda: None,
        process: Callable[[list[int]], dict[int, str]] | None = None,
    ):
        self.cfg, self.referee, self.max_size, self.on_stored = cfg, referee, max_size, on_stored
        self.process = process or referee.process  # kept ids -> their status
        self.held: int | None = None
        self.stop = threading.Event()
        self.wake = threading.Event()  # a pass now, out of IDLE or the wait between polls
        # The referee's time at which the last complete pass began: every message the server
        # received before it is stored (SPEC §2.1: a deadline waits for them).
        self.read_through: datetime | None = None
        self._began: datetime | None = None
        self._left: set[int] = set()  # the UIDs of the pass in hand not yet stored
        self.trouble = Trouble(cfg)
        # The folders by the server's names (imap_folders); the cursor and the stored mail
        # keep the config's name of the folder read.
        self.box, self.processed, self.rejected = (
            cfg.folder,
            cfg.processed_folder,
            cfg.rejected_folder,
        )
        self.delay = 1.0  # seconds before the next attempt after a failure; doubles to 5 min
        self.filing_delay = 0.5  # the same for a pass that could not file its mail
        # A message the server cannot deliver (a broken file behind it: Dovecot drops the
        # connection at its FETCH, others answer NO) must not hold the mail behind it for ever.
        # UIDs of a batch whose FETCH failed are fetched alone on the next passes; one that
        # fails alone UNREADABLE_AFTER times is skipped. Kept across reconnects.
        self.suspects: set[int] = set()
        self.failures: dict[int, int] = {}
        self.skip: set[tuple[int, int]] = set()  # (UIDVALIDITY, UID) of the messages given up on
        self.unreadable: set[int] = set()  # skipped in this batch: the cursor passes them
        self.uidvalidity = 0
        self.swept = False

    # ---- connection ---------------------------------------------------------------
    def connect(self) -> IMAPClient:
        c = open_imap(self.cfg, timeout=60)
        c.login(self.cfg.username, self.cfg.password)
        self.box = on_server(c, self.cfg.folder)
        self.processed = ensure(c, self.cfg.processed_folder, "processed_folder")
        self.rejected = ensure(c, self.cfg.rejected_folder, "rejected_folder")
        self.swept = False  # what a stop left marked \Deleted: expunged at the first pass
        return c

    def run(self) -> None:
        self.delay = 1.0
        while not self.stop.is_set():
            try:
                c = self.connect()
                try:
                    self.serve(c)
                finally:
                    try:
                        c.logout()
                    except Exception:
                        pass
            except Exception as e:
                if self.stop.is_set():
                    break
                # The back-off starts again only once the folder is selected (serve): a login
                # that succeeds before a SELECT that fails (a missing folder) is no recovery.
                # Nor is a pass whose filing fails (no folder to file into, a full quota):
                # each try reads the folder again, so it has a back-off of its own.
                if isinstance(e, FolderTrouble):
                    self.filing_delay = self.delay = min(self.filing_delay * 2, 300)
                self.trouble.failed(e, self.delay)
                self.stop.wait(self.delay)
                self.delay = min(self.delay * 2, 300)

    def _worked(self) -> None:
        self.trouble.cleared()

    def serve(self, c: IMAPClient) -> None:
        while not self.stop.is_set():
            before = self._uidnext(c)
            # Logged in and the folder is there: a failure from here on is retried at once, as
            # before (several daemons on one mailbox fail mid-pass now and then, and each retry
            # files more); only a login or a SELECT that keeps failing backs off.
            self.delay = 1.0
            self.drain(c)
            self.filing_delay = 0.5
            self._worked()
            # The server tells of a new message once, in the answer to whatever command runs
            # when it lands (a SEARCH, a FETCH, a MOVE): one that landed during the pass gets
            # no word in IDLE and would wait for the next mail. UIDNEXT moved: pass again.
            if self._uidnext(c) != before:
                continue
            if self.held is not None:  # filed by its holder, or by the next pass once processed
                self.stop.wait(HELD_RECHECK)
                continue
            if self.cfg.idle and c.has_capability("IDLE"):
                ended = self._idle(c)
            else:
                self._rest(self.cfg.poll_interval.total_seconds())
                ended = None if self.stop.is_set() else still_there(c)
            if ended:
                # Hosts and networks end a waiting connection now and then (a restart, a NAT
                # that forgot it, Gmail after 29 minutes): connect again at once, said in one
                # line, not as a fault (a fault that lasts is said by connect()).
                log.info("%s: %s; connecting again", self.trouble.where(), ended)
                return

    def _idle(self, c: IMAPClient) -> str | None:
        """Wait in IDLE for news, at most the poll interval: a connection a NAT forgot says
        nothing, so a pass at that interval is what finds out. Returns how the connection
        ended when it did, else None."""
        if ended := begin_idle(c):
            return ended
        started, renew = time.monotonic(), min(IDLE_RENEW, self.cfg.poll_interval.total_seconds())
        news = read_with_idling(c)
        quick = 0
        while (
            not news
            and not self.stop.is_set()
            and not self.wake.is_set()
            and time.monotonic() - started < renew
        ):
            asked = time.monotonic()
            news = c.idle_check(timeout=1)
            # imapclient answers nothing, at once, on a closed socket (it swallows the EOF):
            # a closed connection would be asked again and again, at full CPU, until renew.
            quick = quick + 1 if not news and time.monotonic() - asked < 0.1 else 0
            if quick >= 3:
                return "the server closed the connection while idle"
        if ended := ended_with_bye(news):
            return ended
        try:
            with answer_within(
                c, ANSWER_WAIT
            ):  # a server answers DONE at once; a forgotten one never
                c.idle_done()
        except (OSError, IMAPClientAbortError):
            return "the connection went silent while idle"
        return None

    def _rest(self, seconds: float) -> None:
        """Wait between polls: SECONDS, or until a stop or a pass is asked for."""
        until = time.monotonic() + seconds
        while not self.stop.is_set() and not self.wake.is_set():
            left = until - time.monotonic()
            if left <= 0:
                return
            self.wake.wait(min(left, 1.0))

    def read_up_to(self, at: datetime) -> datetime | None:
        """The referee's time up to which every message the server received is stored (None
        before a first pass); a pass is asked for when that is before AT."""
        if self.read_through is None or self.read_through < at:
            self.wake.set()
        return self.read_through

    def _uidnext(self, c: IMAPClient) -> int | None:
        return c.select_folder(self.box).get(b"UIDNEXT")

    # ---- one pass -----------------------------------------------------------------
    def drain(self, c: IMAPClient) -> int:
        """Store, process and file every message in the folder, a batch at a time; returns
        how many messages were filed."""
        self.wake.clear()
        began = self.referee.clock()
        info = c.select_folder(self.box)
        uidvalidity = self.uidvalidity = int(info[b"UIDVALIDITY"])
        if not self.swept:
            self.swept = True
            sweep(c, self.referee.store, self.cfg.folder, uidvalidity, self.trouble.where())
        last = cursor(self.referee.store, self.cfg.folder, uidvalidity)
        # Not a message someone marked \Deleted (a GM's client that marks before it expunges,
        # or one this poller filed by COPY but was stopped before its EXPUNGE).
        uids = sorted(u for u in c.search(["UID", f"{last + 1}:*", "UNDELETED"]) if u > last)
        self.held = None  # the lowest message another daemon was still processing, this pass
        self._began, self._left = began, set(uids)
        if not uids:
            self.read_through = began
        done = 0
        for chunk in (uids[i : i + BATCH] for i in range(0, len(uids), BATCH)):
            sizes = {
                u: d.get(b"RFC822.SIZE", 0) for u, d in c.fetch(chunk, ["RFC822.SIZE"]).items()
            }
            self._left.difference_update(u for u in chunk if u not in sizes)  # gone meanwhile
            for batch in _by_bytes([u for u in chunk if u in sizes], sizes, self.max_size):
                if self.stop.is_set():
                    return done
                done += self._batch(c, batch, sizes, uidvalidity)
        return done

    def _batch(
        self, c: IMAPClient, uids: list[int], sizes: dict[int, int], uidvalidity: int
    ) -> int:
        """One FETCH, one transaction storing the batch, one processing it, one MOVE per
        destination folder, then the cursor. Killed anywhere in between, the next pass
        fetches the batch again and the inbox's dedupe makes that harmless."""
        self.unreadable = set()
        status: dict[int, str] = {}
        for u in (u for u in uids if sizes[u] > self.max_size):
            head = self._head(c, u)
            if head is not None:
                source = f"imap:{self.cfg.folder}:{uidvalidity}:{u}"
                too_large = Incoming(head, source, over_limit=(sizes[u], self.max_size))
                status[u] = self.referee.keep([too_large])[0].status
        fetched = self._fetch([u for u in uids if u not in status and u not in self.unreadable], c)
        bodies = [(u, raw) for u, raw, _ in fetched]
        crash_point("after-fetch")
        received = self._received([at for _, _, at in fetched])
        stored = self.referee.keep(
            [
                Incoming(raw, f"imap:{self.cfg.folder}:{uidvalidity}:{u}", received=at)
                for (u, raw), at in zip(bodies, received, strict=True)
            ]
        )
        self._left.difference_update(uids)
        if not self._left and self._began is not None:
            self.read_through = self._began  # before processing: a deadline may fire within it
        crash_point("after-commit")
        outcome = self.process([s.id for s in stored if s.status == "new"])
        for (u, _), s in zip(bodies, stored, strict=True):
            status[u] = outcome.get(s.id, s.status)
        if stored:
            self.on_stored()  # the replies go out now
        crash_point("after-process")
        # "new": another daemon holds its mail, and files the message once it processed it.
        filed = {u: st for u, st in status.items() if st != "new"}
        held = [u for u, st in status.items() if st == "new"] + ([self.held] if self.held else [])
        self.held = min(held) if held else None
        self._file(c, filed)
        crash_point("after-file")
        passed = set(filed) | self.unreadable
        if passed:
            # The cursor (shared by every daemon) never passes a message another daemon held:
            # killed before filing it, that daemon would leave it in the folder for good.
            advance(
                self.referee.store,
                self.cfg.folder,
                uidvalidity,
                min(max(passed), self.held - 1) if self.held else max(passed),
            )
        return len(filed)

    def _head(self, c: IMAPClient, uid: int) -> bytes | None:
        """The header of a mail over the size limit; None when it is gone, or unreadable (as
        `_fetch` counts failures: a broken message may claim any size)."""
        if (self.uidvalidity, uid) in self.skip:
            self.unreadable.add(uid)
            return None
        try:
            return c.fetch([uid], ["BODY.PEEK[HEADER]"]).get(uid, {}).get(b"BODY[HEADER]", b"")
        except IMAPClientAbortError:
            self._failed(uid, "the server dropped the connection at its FETCH")
            raise
        except IMAPClientError as e:
            if self._gone(c, uid):
                return None
            if self._failed(uid, f"the server said: {_text(e)}"):
                self.unreadable.add(uid)
                return None
            raise

    def _received(self, dates: list[datetime | None]) -> list[datetime]:
        """When each message was received, on the referee's clock: its INTERNALDATE is how
        long it has waited on the server (the referee's clock may not be the wall clock)."""
        now, wall = self.referee.clock(), datetime.now(UTC)
        return [
            now - max(wall - (at if at.tzinfo else at.astimezone()), timedelta(0)) if at else now
            for at in dates
        ]

    def _fetch(self, uids: list[int], c: IMAPClient) -> list[tuple[int, bytes, datetime | None]]:
        """(uid, bytes, INTERNALDATE) of each of UIDS still in the folder, in order."""
        skipped = [u for u in uids if (self.uidvalidity, u) in self.skip]
        self.unreadable.update(skipped)
        uids = [u for u in uids if u not in skipped]
        if not uids:
            return []
        if len(uids) > 1 and self.suspects.intersection(uids):
            return [m for u in uids for m in self._fetch([u], c)]
        try:
            got = c.fetch(uids, ["BODY.PEEK[]", "INTERNALDATE"])
        except (
            IMAPClientAbortError
        ):  # the connection is gone: the culprit is found after reconnecting
            if len(uids) > 1:
                self.suspects.update(uids)
            else:
                self._failed(uids[0], "the server dropped the connection at its FETCH")
            raise
        except IMAPClientError as e:
            if len(uids) == 1:
                if self._gone(c, uids[0]):
                    return []
                if self._failed(uids[0], f"the server said: {_text(e)}"):
                    self.unreadable.add(uids[0])
                    return []
                raise
            return [m for u in uids for m in self._fetch([u], c)]
        self.suspects.difference_update(uids)
        # A message another session expunged may be missing, or listed with a NIL body.
        return [
            (u, got[u][b"BODY[]"], got[u].get(b"INTERNALDATE"))
            for u in uids
            if got.get(u, {}).get(b"BODY[]") is not None
        ]

    def _failed(self, uid: int, why: str) -> bool:
        """Count a failed FETCH of UID alone; True once it is to be skipped from now on (said
        once)."""
        self.failures[uid] = self.failures.get(uid, 0) + 1
        if self.failures[uid] < UNREADABLE_AFTER:
            return False
        self.skip.add((self.uidvalidity, uid))
        self.suspects.discard(uid)
        del self.failures[uid]
        log.warning(
            "%s: the message with UID %s could not be read (%s; %d tries): skipped and left in the "
            "folder, and the mail after it goes on (move it out and back in to try it again)",
            self.trouble.where(),
            uid,
            why,
            UNREADABLE_AFTER,
        )
        return True

    def _gone(self, c: IMAPClient, uid: int) -> bool:
        """Whether UID left the folder (moved by another daemon sharing this mailbox)."""
        c.noop()  # take the server's pending EXPUNGE news
        return uid not in c.search(["UID", str(uid)])

    def _file(self, c: IMAPClient, status: dict[int, str]) -> None:
        """One MOVE (or COPY + \\Deleted + UID EXPUNGE) per destination folder."""
        into: dict[str, list[int]] = {}
        for uid, st in sorted(status.items()):
            into.setdefault(self.processed if st == "processed" else self.rejected, []).append(uid)
        for target, uids in into.items():
            try:
                self._file_once(c, uids, target)
            except IMAPClientError as e:
                # Several daemons on one mailbox (SPEC §6): whoever files a message first wins;
                # the others find it gone ("NO [EXPUNGEISSUED]" or nothing to move) and go on.
                if len(uids) > 1:
                    for uid in uids:
                        self._file(c, {uid: status[uid]})
                elif not self._gone(c, uids[0]):
                    if isinstance(e, IMAPClientAbortError):
                        raise
                    key = "processed_folder" if target == self.processed else "rejected_folder"
                    raise FolderTrouble(key, target, e) from e
                else:
                    log.debug("UID %s already filed by another process (%s)", uids[0], e)

    def _file_once(self, c: IMAPClient, uids: list[int], target: str) -> None:
        if self.cfg.use_move and c.has_capability("MOVE"):
            c.move(uids, target)
            return
        c.copy(uids, target)
        c.add_flags(uids, [b"\\Deleted"])
        crash_point("before-expunge")
        expunge_only(c, uids)


def _by_bytes(uids: list[int], sizes: dict[int, int], max_size: int) -> Iterator[list[int]]:
    """UIDS in batches of at most BATCH_BYTES (a message over it is a batch of its own; mail
    over MAX_SIZE counts nothing: only its header is fetched)."""
    batch: list[int] = []
    total = 0
    for u in uids:
        size = sizes.get(u, 0) if sizes.get(u, 0) <= max_size else 0
        if batch and total + size > BATCH_BYTES:
            yield batch
            batch, total = [], 0
        batch.append(u)
        total += size
    if batch:
        yield batch
