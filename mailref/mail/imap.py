"""The IMAP poller: fetch with BODY.PEEK[] (nothing is marked seen before it is stored),
commit, then move to the processed or rejected folder (COPY + \\Deleted + UID EXPUNGE where
MOVE is missing). IDLE when offered, polling otherwise; reconnects with back-off. The
cursor (UIDVALIDITY, last UID) lives in the database; a UIDVALIDITY reset only means
re-reading, and the inbox's dedupe makes re-reading harmless."""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

from imapclient import IMAPClient
from imapclient.exceptions import IMAPClientError

from mailref.config import Imap
from mailref.door import Source, queue_reply
from mailref.read import read_envelope
from mailref.referee import Referee
from mailref.store import ImapCursor

log = logging.getLogger("mailref.imap")
IDLE_RENEW = 9 * 60  # servers may drop IDLE after 30 min; RFC 2177 says renew before 29


def _crash_point(name: str) -> None:
    """Test hook: MAILREF_TEST_CRASH=NAME kills the process once at that point, as SIGKILL would."""
    if os.environ.get("MAILREF_TEST_CRASH") != name:
        return
    marker = Path(os.environ.get("MAILREF_TEST_CRASH_MARKER", "/tmp/mailref-crash-marker"))
    if not marker.exists():
        marker.write_text(name)
        os._exit(137)


class Poller:
    def __init__(self, cfg: Imap, referee: Referee, max_size: int = 10 * 1024 * 1024,
                 on_stored: Callable[[], None] = lambda: None, process: Callable[[int], str] | None = None):
        self.cfg, self.referee, self.max_size, self.on_stored = cfg, referee, max_size, on_stored
        self.process = process or referee.process
        self.stop = threading.Event()
        self.wake = threading.Event()

    # ---- connection ---------------------------------------------------------------
    def connect(self) -> IMAPClient:
        c = IMAPClient(self.cfg.host, port=self.cfg.port, ssl=self.cfg.ssl, timeout=60)
        c.login(self.cfg.username, self.cfg.password)
        for folder in (self.cfg.processed_folder, self.cfg.rejected_folder):
            if not c.folder_exists(folder):
                try:
                    c.create_folder(folder)
                except IMAPClientError:
                    pass  # created meanwhile
        return c

    def run(self) -> None:
        delay = 1.0
        while not self.stop.is_set():
            try:
                c = self.connect()
                delay = 1.0
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
                log.warning("IMAP %s:%s: %s; reconnecting in %.0fs", self.cfg.host, self.cfg.port, e, delay)
                self.stop.wait(delay)
                delay = min(delay * 2, 300)

    def serve(self, c: IMAPClient) -> None:
        while not self.stop.is_set():
            self.drain(c)
            if self.cfg.idle and c.has_capability("IDLE"):
                c.idle()
                try:
                    started = time.monotonic()
                    while not self.stop.is_set() and time.monotonic() - started < IDLE_RENEW:
                        if c.idle_check(timeout=1):
                            break
                finally:
                    c.idle_done()
            else:
                self.stop.wait(self.cfg.poll_interval.total_seconds())

    # ---- one pass -----------------------------------------------------------------
    def drain(self, c: IMAPClient) -> int:
        """Store, process and file every message in the folder; returns how many."""
        info = c.select_folder(self.cfg.folder)
        uidvalidity = int(info[b"UIDVALIDITY"])
        last = self._cursor(uidvalidity)
        uids = sorted(u for u in c.search(["UID", f"{last + 1}:*"]) if u > last)
        done = 0
        for chunk in (uids[i:i + 100] for i in range(0, len(uids), 100)):
            sizes = c.fetch(chunk, ["RFC822.SIZE"])
            for uid in chunk:
                if self.stop.is_set():
                    return done
                size = sizes.get(uid, {}).get(b"RFC822.SIZE", 0)
                if size > self.max_size:
                    status = self._too_large(c, uid, size, uidvalidity)
                else:
                    data = self._fetch(c, uid)
                    if not data:  # gone: another daemon on this mailbox filed it
                        continue
                    raw = data[b"BODY[]"]
                    _crash_point("after-fetch")
                    stored = self.referee.receive(raw, f"imap:{self.cfg.folder}:{uidvalidity}:{uid}")
                    _crash_point("after-commit")
                    status = self.process(stored.id) if stored.status == "new" else stored.status
                    self.on_stored()
                if status == "new":  # another daemon holds it and files it once processed
                    continue
                self._file(c, uid, status)
                self._advance(uidvalidity, uid)
                done += 1
        return done

    def _too_large(self, c: IMAPClient, uid: int, size: int, uidvalidity: int) -> str:
        head = c.fetch([uid], ["BODY.PEEK[HEADER]"]).get(uid, {}).get(b"BODY[HEADER]", b"")
        note = f"\r\nX-Mailref-Truncated: {size} bytes over the limit of {self.max_size}; only the header is kept\r\n\r\n".encode()
        stored = self.referee.receive(head.rstrip(b"\r\n") + note, f"imap:{self.cfg.folder}:{uidvalidity}:{uid}")
        if not stored.new:
            return "ignored"
        env = read_envelope(head, own_address=self.referee.settings.from_address)
        with self.referee.store() as s, s.begin():
            from mailref.store import InboxMessage

            row = s.get(InboxMessage, stored.id)
            row.status, row.verdict = "ignored", f"too large: {size} bytes (limit {self.max_size})"
            row.sender, row.subject = env.from_addr or "", env.subject.raw[:500]
            if env.machine is None and env.from_addr:
                queue_reply(s, self.referee.settings, None,
                            Source("mail", str(stored.id), env.reply_to or env.from_addr, env.message_id,
                                   env.references, env.subject.raw[:200], stored.id), self.referee.clock(),
                            "error", "error.txt", {"reason": f"your mail is {size // 1024} KB, over the referee's limit of "
                                                   f"{self.max_size // 1024} KB, so it was not read",
                                                   "hint": "send the command again without attachments",
                                                   "subject": env.subject.raw[:200], "game": {}})
        return "ignored"

    def _fetch(self, c: IMAPClient, uid: int) -> dict | None:
        try:
            data = c.fetch([uid], ["BODY.PEEK[]"]).get(uid)
            # A message another session expunged may still be listed, with a NIL body.
            return data if data and data.get(b"BODY[]") is not None else None
        except IMAPClientError:
            if self._gone(c, uid):
                return None
            raise

    def _gone(self, c: IMAPClient, uid: int) -> bool:
        """Whether UID left the folder (moved by another daemon sharing this mailbox)."""
        c.noop()  # take the server's pending EXPUNGE news
        return uid not in c.search(["UID", str(uid)])

    def _file(self, c: IMAPClient, uid: int, status: str) -> None:
        try:
            self._file_once(c, uid, status)
        except IMAPClientError as e:
            # Several daemons on one mailbox (SPEC §6): whoever files a message first wins;
            # the others find it gone ("NO [EXPUNGEISSUED]" or nothing to move) and go on.
            if not self._gone(c, uid):
                raise
            log.debug("UID %s already filed by another process (%s)", uid, e)

    def _file_once(self, c: IMAPClient, uid: int, status: str) -> None:
        target = self.cfg.processed_folder if status == "processed" else self.cfg.rejected_folder
        if self.cfg.use_move and c.has_capability("MOVE"):
            c.move([uid], target)
            return
        c.copy([uid], target)
        c.add_flags([uid], [b"\\Deleted"])
        if c.has_capability("UIDPLUS"):
            c.uid_expunge([uid])
        else:
            c.expunge()

    def _cursor(self, uidvalidity: int) -> int:
        with self.referee.store() as s, s.begin():
            cur = s.get(ImapCursor, self.cfg.folder, with_for_update=True)
            if cur is None:
                # Several daemons may start at once: the first insert wins, the rest read it.
                s.execute(_insert_cursor(s, self.cfg.folder, uidvalidity))
                cur = s.get(ImapCursor, self.cfg.folder, with_for_update=True, populate_existing=True)
            if cur.uidvalidity != uidvalidity:
                log.warning("UIDVALIDITY of %s changed (%s -> %s): re-reading; duplicates are recognised",
                            self.cfg.folder, cur.uidvalidity, uidvalidity)
                cur.uidvalidity, cur.last_uid = uidvalidity, 0
            return cur.last_uid

    def _advance(self, uidvalidity: int, uid: int) -> None:
        with self.referee.store() as s, s.begin():
            cur = s.get(ImapCursor, self.cfg.folder, with_for_update=True)
            if cur.uidvalidity == uidvalidity and uid > cur.last_uid:
                cur.last_uid = uid


def _insert_cursor(s, folder: str, uidvalidity: int):
    from sqlalchemy.dialects import postgresql, sqlite

    insert = postgresql.insert if s.get_bind().dialect.name == "postgresql" else sqlite.insert
    return insert(ImapCursor).values(folder=folder, uidvalidity=uidvalidity, last_uid=0).on_conflict_do_nothing()
