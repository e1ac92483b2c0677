"""The built-in SMTP listener: 250 only after the raw bytes are committed, 451 when the
store fails, 552 over the size limit, 550 for a recipient that is no game's address. The
store is written from a worker thread, so one session waiting for its commit holds up no
other session on the event loop."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session
from sqlalchemy import select

from mailref.read import base_address
from mailref.referee import Referee
from mailref.store import Game
from mailref.store.faults import describe, is_store_fault

log = logging.getLogger("mailref.smtp")
KNOWN_FOR = 2.0  # seconds the game addresses read for RCPT are trusted (docs/decisions.md, "Batches")


class Intake:
    def __init__(self, referee: Referee, on_stored: Callable[[], None] = lambda: None,
                 on_storing: Callable[[bool], None] = lambda busy: None):
        self.referee, self.on_stored, self.on_storing = referee, on_stored, on_storing
        self.known_at, self.known = -KNOWN_FOR, set[str]()

    def _known(self) -> set[str]:
        with self.referee.store() as s:
            return {base_address(a) for a in s.scalars(select(Game.address))}

    async def _game_addresses(self, rcpt: str) -> set[str]:
        """The games' addresses, read at most every KNOWN_FOR seconds, and again at once for a
        recipient they do not name (a game created a moment ago is accepted at once)."""
        fresh = time.monotonic() - self.known_at < KNOWN_FOR
        if fresh and (not self.known or rcpt in self.known or rcpt == base_address(self.referee.settings.from_address)):
            return self.known
        started = time.monotonic()
        known = await asyncio.get_running_loop().run_in_executor(None, self._known)
        self.known_at, self.known = started, known
        return known

    async def handle_RCPT(self, server: SMTP, session: Session, envelope: Envelope, address: str, options: list) -> str:
        own = base_address(self.referee.settings.from_address)
        try:
            known = await self._game_addresses(base_address(address))
        except Exception as e:
            if not is_store_fault(e):
                raise
            log.error("recipient %r refused with 451: %s", address, describe(e))
            return "451 4.3.0 the referee's store is unavailable, try again later"
        if known and base_address(address) not in known | {own}:
            return f"550 5.1.1 <{address}>: no game plays at this address"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        raw = envelope.original_content or envelope.content
        if isinstance(raw, str):
            raw = raw.encode("utf-8", "surrogateescape")
        # `MAIL FROM:<>` (a bounce or other machine mail) is kept as "<>": never answered.
        mail_from = (envelope.mail_from or "").strip()
        mail_from = "<>" if mail_from in ("", "<>") else mail_from
        self.on_storing(True)
        try:
            # The commit runs in a worker thread; the 250 goes out only once it returned.
            stored = await asyncio.get_running_loop().run_in_executor(
                None, self.referee.receive, raw, "smtp", mail_from, list(envelope.rcpt_tos))
        except Exception as e:
            if is_store_fault(e):
                log.error("mail from %r refused with 451: %s", envelope.mail_from, describe(e))
            else:
                log.exception("could not store a message from %r", envelope.mail_from)
            return f"451 4.3.0 could not store the message, try again later ({type(e).__name__})"
        finally:
            self.on_storing(False)
        if not stored.new or stored.status != "new":
            # Not processed again, so this is its one log line (SPEC §7).
            log.info("mail #%s from %r: %s", stored.id, envelope.mail_from,
                     "delivered again, already had it" if not stored.new else f"{stored.status} at intake")
        self.on_stored()
        return f"250 2.0.0 stored as #{stored.id}" + ("" if stored.new else " (already had it)")


class Listener:
    def __init__(self, referee: Referee, host: str, port: int, max_size: int,
                 on_stored: Callable[[], None] = lambda: None, on_storing: Callable[[bool], None] = lambda busy: None):
        # The greeting names the referee's mail domain and no software version ("220 localhost
        # Python SMTP 1.4.6" told the world what to attack and nothing useful).
        domain = referee.settings.from_address.rpartition("@")[2] or "localhost"
        self.controller = Controller(Intake(referee, on_stored, on_storing), hostname=host, port=port,
                                     data_size_limit=max_size, decode_data=False,
                                     enable_SMTPUTF8=True, server_hostname=domain, ident="mailref")

    def start(self) -> None:
        self.controller.start()

    def stop(self) -> None:
        self.controller.stop()
