"""The built-in SMTP and LMTP listeners: 250 only after the raw bytes are committed, 451 when
the store fails, 552 over the size limit, 550 for a recipient that is no game's address (nor
the referee's, nor postmaster); over LMTP one such reply for each recipient taken.

The sessions (aiosmtpd's, mailref.mail.smtp_server) run on one event loop in a thread of
their own; Intake is their handler.
A mail is committed on that loop when the store's lock is free and nothing waits for the
committer thread (SQLite; one short transaction). Otherwise the committer thread writes it,
so a session waiting for its commit holds up no other session, and mail arriving together
is committed together (one transaction for what queued while the previous commit ran:
group commit)."""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
import time
from collections.abc import Callable

from aiosmtpd.smtp import Envelope, Session
from sqlalchemy import select

from mailref.mail.application import Application as Referee
from mailref.mail.application import Incoming, Kept
from mailref.mail.smtp_server import LmtpServer, Room, Server
from mailref.read import base_address
from mailref.read.route import is_postmaster
from mailref.store import Game
from mailref.store.faults import describe, is_store_fault
from mailref.store.keep import Busy

log = logging.getLogger("mailref.smtp")
KNOWN_FOR = 2.0  # seconds the game addresses read for RCPT are trusted (docs/decisions/listener.md)
GROUP = 50  # mails committed in one transaction at most
INLINE_AT_MOST = (
    256 * 1024
)  # octets: a bigger mail is written by the committer, never on the sessions' loop
Answer = Callable[[str], None]  # called with the reply to the end of DATA
Outcome = Kept | BaseException  # a mail kept, or why the store could not keep it
Done = Callable[[Outcome], None]  # told the outcome of a mail handed to the committer


class Intake:
    """The sessions' handler (aiosmtpd's handle_RCPT and handle_DATA): answers RCPT from the
    games' addresses and stores each message."""

    def __init__(
        self,
        referee: Referee,
        on_stored: Callable[[], None] = lambda: None,
        on_storing: Callable[[bool], None] = lambda busy: None,
    ):
        self.referee, self.on_stored, self.on_storing = referee, on_stored, on_storing
        # The greeting names the referee's mail domain and no software version ("220 localhost
        # Python SMTP 1.4.6" told the world what to attack and nothing useful).
        self.domain = referee.settings.from_address.rpartition("@")[2] or "localhost"
        self.own = base_address(referee.settings.from_address)
        self.known_at, self.known = -KNOWN_FOR, set[str]()
        self.committer: Committer | None = None
        self.handed = 0  # mails handed to the committer and not yet answered (the loop's count)
        self.inline = (
            referee.store.engine.dialect.name == "sqlite"
        )  # only its lock can be tried without waiting
        self.refusing: str | None = None  # why mail is told 451 now, said once (SPEC §7)
        self.refused = 0

    async def handle_RCPT(
        self, server: Server, session: Session, envelope: Envelope, address: str, options: list[str]
    ) -> str:
        answer = self.recipient(address)
        if not isinstance(answer, str):
            server.waiting = True
            try:
                answer = await answer
            finally:
                server.waiting = False
        if answer.startswith("250"):
            envelope.rcpt_tos.append(address)
            envelope.rcpt_options.extend(options)
        else:
            server.junk += 1  # refused recipients are junk too: each unknown one costs a lookup
        return answer

    async def handle_DATA(self, server: Server, session: Session, envelope: Envelope) -> str:
        """The reply once the message is kept (or not); over LMTP the same for each recipient
        taken, since one statement keeps the mail for all of them."""
        kept: asyncio.Future[str] = asyncio.get_running_loop().create_future()

        def answer(line: str) -> None:
            if not kept.done():
                kept.set_result(line)

        # aiosmtpd calls this only after MAIL FROM and the content are in the envelope.
        assert envelope.original_content is not None and envelope.mail_from is not None
        self.deliver(envelope.original_content, envelope.mail_from, envelope.rcpt_tos, answer)
        line = await kept
        if isinstance(server, LmtpServer):
            return "\r\n".join(line for _ in envelope.rcpt_tos)
        return line

    def _refuse(self, who: str, e: BaseException) -> None:
        """A store fault: said once per cause while it lasts, not once per sender."""
        self.refused += 1
        line = describe(e)
        if line != self.refusing:
            self.refusing = line
            log.error(
                "%s refused with 451: %s (senders retry later; a line follows once it works again)",
                who,
                line,
            )

    def _stores_again(self) -> None:
        if self.refusing is not None:
            log.info(
                "SMTP listener: storing mail again, after %d refusal(s) (was: %s)",
                self.refused,
                self.refusing,
            )
            self.refusing, self.refused = None, 0

    def _known(self) -> set[str]:
        with self.referee.store.reader() as conn:  # never waits for a writer (a processing batch)
            return {base_address(a) for a in conn.scalars(select(Game.address))}

    def read_games(self) -> None:
        """Read the games' addresses now (at start: the first sender does not wait for them);
        a store that cannot be read now is read again at the first RCPT."""
        try:
            self.known_at, self.known = time.monotonic(), self._known()
        except Exception as e:
            log.warning("the game addresses could not be read yet: %s", describe(e))

    def recipient(self, address: str) -> str | asyncio.Future[str]:
        """The games' addresses are read at most every KNOWN_FOR seconds, and again at once for
        a recipient they do not name (a game created a moment ago is accepted at once)."""
        rcpt = base_address(address)
        fresh = time.monotonic() - self.known_at < KNOWN_FOR
        if fresh and (not self.known or rcpt in self.known or rcpt == self.own):
            return self._verdict(address, rcpt)
        started = time.monotonic()
        lookup = asyncio.get_running_loop().run_in_executor(None, self._known)
        answer: asyncio.Future[str] = asyncio.get_running_loop().create_future()

        def looked_up(f: asyncio.Future[set[str]]) -> None:
            e = f.exception()
            if e is not None:
                if not is_store_fault(e):
                    log.error(
                        "recipient %r: the game addresses could not be read", address, exc_info=e
                    )
                else:
                    self._refuse(f"recipient {address!r}", e)
                answer.set_result("451 4.3.0 the referee's store is unavailable, try again later")
                return
            self.known_at, self.known = started, f.result()
            answer.set_result(self._verdict(address, rcpt))

        lookup.add_done_callback(looked_up)
        return answer

    def _verdict(self, address: str, rcpt: str) -> str:
        if (
            self.known
            and rcpt not in self.known
            and rcpt != self.own
            and not self._postmaster(rcpt)
        ):
            return f"550 5.1.1 <{address}>: no game plays at this address"
        return "250 2.1.5 OK"

    def _postmaster(self, rcpt: str) -> bool:
        """RFC 5321 §4.5.1: postmaster is taken with no domain or a domain we receive for; its
        mail goes to the admin (referee.py)."""
        if not is_postmaster(rcpt):
            return False
        domain = rcpt.partition("@")[2]
        return not domain or domain in {a.partition("@")[2] for a in (*self.known, self.own)}

    def deliver(self, raw: bytes, mail_from: str, rcpt_to: list[str], answer: Answer) -> None:
        # `MAIL FROM:<>` (a bounce or other machine mail) is kept as "<>": never answered.
        mail_from = mail_from.strip() or "<>"
        self.on_storing(True)
        loop = asyncio.get_running_loop()

        def stored(outcome: Outcome) -> None:  # on the event loop, once the commit returned
            self.on_storing(False)
            if isinstance(outcome, BaseException):
                if is_store_fault(outcome):
                    self._refuse(f"mail from {mail_from!r}", outcome)
                else:
                    log.error("could not store a message from %r", mail_from, exc_info=outcome)
                answer(
                    "451 4.3.0 could not store the message, try again later "
                    f"({type(outcome).__name__})"
                )
                return
            if not outcome.new or outcome.status != "new":
                # Not processed again, so this is its one log line (SPEC §7).
                log.info(
                    "mail #%s from %r: %s",
                    outcome.id,
                    mail_from,
                    "delivered again, already had it"
                    if not outcome.new
                    else f"{outcome.status} at intake",
                )
            self._stores_again()
            answer(
                f"250 2.0.0 stored as #{outcome.id}" + ("" if outcome.new else " (already had it)")
            )
            loop.call_soon(self.on_stored)  # after the session has written its 250

        assert self.committer is not None
        mail = Incoming(raw, "smtp", mail_from, rcpt_to)
        if self.inline and self.handed == 0 and len(raw) <= INLINE_AT_MOST:
            # Nothing is queued for the committer: try the store here, without waiting for its
            # lock. Uncontended (most of the time) that is one short commit on this thread and
            # no hand-over to the committer and back (two thread wake-ups a mail, which a busy
            # machine makes expensive). A store another writer holds goes to the committer,
            # which waits for it while this loop serves the other sessions.
            try:
                outcome: Outcome | None = self.referee.keep([mail], wait=False)[0]
            except Busy:
                outcome = None
            except Exception as e:
                outcome = e
            if outcome is not None:
                loop.call_soon(
                    stored, outcome
                )  # answered from the loop as always, never inside this call
                return
        self.handed += 1

        def committed(outcome: Outcome) -> None:
            self.handed -= 1
            stored(outcome)

        def done(outcome: Outcome) -> None:  # on the committer's thread
            loop.call_soon_threadsafe(committed, outcome)

        self.committer.submit(mail, done)


class Committer(threading.Thread):
    """Commits the mail the sessions hand over: everything that queued while the last commit
    ran goes in one transaction. If such a group fails, each of its mails is tried alone, so
    one mail's trouble is only its own; unless the store itself failed (then all get 451)."""

    def __init__(self, referee: Referee):
        super().__init__(name="smtp-store", daemon=True)
        self.referee = referee
        self.inbox: queue.SimpleQueue[tuple[Incoming, Done] | None] = queue.SimpleQueue()

    def submit(self, mail: Incoming, done: Done) -> None:
        self.inbox.put((mail, done))

    def finish(self) -> None:
        self.inbox.put(None)
        self.join(60)

    def run(self) -> None:
        last = False
        while not last:
            item = self.inbox.get()
            if item is None:
                return
            group = [item]
            while len(group) < GROUP:
                try:
                    item = self.inbox.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    last = True
                    break
                group.append(item)
            self._commit(group)

    def _commit(self, group: list[tuple[Incoming, Done]]) -> None:
        outcomes: list[Outcome]
        try:
            outcomes = list(self.referee.keep([mail for mail, _ in group]))
        except Exception as e:
            # A store that cannot be used (locked past the lock wait, unreachable) is every
            # mail's trouble, not one mail's: all are told 451 now. Tried one by one, a
            # group of 50 waited for the lock 50 times more while every sender waited.
            alone = len(group) > 1 and not is_store_fault(e)
            outcomes = [self._alone(mail) for mail, _ in group] if alone else [e] * len(group)
        for (_, done), outcome in zip(group, outcomes, strict=True):
            done(outcome)

    def _alone(self, mail: Incoming) -> Outcome:
        try:
            return self.referee.keep([mail])[0]
        except Exception as e:
            return e


class Listener:
    """The sessions' event loop and the committer, each in a thread of its own: SMTP on
    HOST:PORT (unless PORT is None) and LMTP on LMTP's (host, port) when given, its messages
    up to LMTP_MAX_SIZE (MAX_SIZE when not given)."""

    def __init__(
        self,
        referee: Referee,
        host: str,
        port: int | None,
        max_size: int,
        on_stored: Callable[[], None] = lambda: None,
        on_storing: Callable[[bool], None] = lambda busy: None,
        lmtp: tuple[str, int] | None = None,
        lmtp_max_size: int | None = None,
    ):
        self.host, self.port, self.max_size = host, port, max_size
        self.lmtp, self.lmtp_max_size = lmtp, lmtp_max_size or max_size
        self.intake = Intake(referee, on_stored, on_storing)
        self.room = Room()
        self.loop = asyncio.new_event_loop()
        self.servers: list[asyncio.base_events.Server] = []
        self.thread = threading.Thread(target=self.loop.run_forever, name="smtp", daemon=True)

    @property
    def sessions(self) -> set[Server]:
        return self.room.sessions

    def start(self) -> None:
        """Listen; returns once it does, raises OSError when it cannot (the port is taken)."""
        self.intake.read_games()
        self.intake.committer = Committer(self.intake.referee)
        self.intake.committer.start()
        self.thread.start()
        try:
            if self.port is not None:
                self.servers.append(self._serve(Server, self.host, self.port, self.max_size))
            if self.lmtp is not None:
                self.servers.append(self._serve(LmtpServer, *self.lmtp, self.lmtp_max_size))
        except BaseException:
            self._end()
            raise

    def _serve(
        self, kind: type[Server], host: str, port: int, max_size: int
    ) -> asyncio.base_events.Server:
        def session() -> Server:
            return kind(self.intake, self.room, self.intake.domain, max_size, loop=self.loop)

        serving = asyncio.run_coroutine_threadsafe(
            self.loop.create_server(session, host, port, reuse_address=True), self.loop
        )
        return serving.result(60)

    def stop(self, within: float = 30.0) -> None:
        """Stop accepting; the messages in hand are finished and answered, then every session
        is told 421 and closed."""
        if self.servers:
            asyncio.run_coroutine_threadsafe(self._close(within), self.loop).result(within + 10)
        self._end()

    async def _close(self, within: float) -> None:
        for server in self.servers:
            server.close()
        until = time.monotonic() + within
        while any(s.busy for s in self.sessions) and time.monotonic() < until:
            await asyncio.sleep(0.02)
        for s in list(self.sessions):
            s.close("421 4.3.2 the referee is shutting down, try again later")
        await asyncio.sleep(0)  # let the transports flush and close

    def _end(self) -> None:
        if self.intake.committer is not None:
            self.intake.committer.finish()
        if self.loop.is_closed():
            return
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        if not self.thread.is_alive():
            self.loop.close()
