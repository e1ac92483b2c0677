"""aiosmtpd's SMTP and LMTP servers with the limits a listener open to the world needs.

aiosmtpd parses the commands (EHLO, MAIL and RCPT with their parameters and addresses, RSET,
VRFY, HELP, LHLO) and calls its handler (mailref.mail.smtp.Intake) for RCPT and DATA. This
subclass adds what aiosmtpd has no option for: a command line over COMMAND_LIMIT refused at
once (aiosmtpd waits for its end), errors and junk commands counted to a 421, sessions
capped in all and per client, the time for a command counted from the last reply (a byte
now and then does not keep a session open) and shortened under stress, a half-closed
client answered to the end, control bytes never echoed, and the message data read in
pieces: lines longer than 1,000 octets kept (aiosmtpd refuses them), the size limit and a
budget for all sessions counted while it arrives, and only CRLF.CRLF ending it (a bare LF
never does: no SMTP smuggling). docs/decisions/listener.md says why each is here."""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import re
from typing import Any

from aiosmtpd.smtp import SMTP, Envelope, syntax

log = logging.getLogger("mailref.smtp")

COMMAND_LIMIT = 2048  # octets of one command line (RFC 5321: 512; extensions add parameters)
MAX_RECIPIENTS = 100  # RFC 5321 §4.5.3.1.8: at least 100 must be accepted
MAX_SESSIONS = 500  # open at once; more are told to come back later
# Open at once from one client (an IPv4 address, an IPv6 /64): one host holding every place
# with idle connections kept everyone else's mail out. Postfix's
# smtpd_client_connection_count_limit is 50 too.
MAX_SESSIONS_PER_CLIENT = 50
MAX_ERRORS = 20  # bad commands before the session is closed: a confused or hostile client
JUNK_LIMIT = 100  # commands moving no mail forward (NOOP, RSET, ...) before each counts as an error
IDLE_TIMEOUT = 300.0  # seconds to send a command, or a line of data (RFC 5321 §4.5.3.2.7)
STRESS_TIMEOUT = 10.0  # the same once most sessions are taken (STRESS_AT): idle ones make room
STRESS_AT = 0.8  # of MAX_SESSIONS
# Mail data held in memory by all sessions at once (the larger of this and two messages of
# the size limit): past it, a message arriving is refused 452 and its data thrown away.
BUFFER_BUDGET = 256 * 1024 * 1024
JUNK = frozenset(("NOOP", "RSET", "VRFY", "HELP", "EHLO", "HELO", "LHLO"))
ERRORS = frozenset(("500", "501", "502", "503", "504", "553", "555"))  # what a bad command is told
END = b"\r\n.\r\n"
PIECE = 256 * 1024  # octets of message data read at a time
_ATEXT = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
# `<local@domain>` with a dot-atom on each side, as nearly every client writes it: read here
# at once instead of through the email package's RFC 5322 parser (a third of a session's CPU).
_PLAIN_PATH = re.compile(rf"<({_ATEXT}(?:\.{_ATEXT})*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*)>")
_CONTROL = re.compile(r"\r(?!\n)|(?<!\r)\n|[\x00-\x09\x0b\x0c\x0e-\x1f\x7f]")  # all but a CRLF pair


class Room:
    """What the sessions of one listener share: who is connected, and how much mail data
    they hold in memory together."""

    def __init__(self) -> None:
        self.sessions: set[Server] = set()
        self.buffered = 0


def client_of(peer: object) -> str | None:
    """Who a connection is from, for MAX_SESSIONS_PER_CLIENT: the IPv4 address, or the /64 of
    an IPv6 one (a host has a whole /64 to pick addresses from)."""
    if not isinstance(peer, tuple) or not peer:
        return None
    try:
        ip = ipaddress.ip_address(str(peer[0]).split("%")[0])
    except ValueError:
        return None
    if ip.version == 6 and ip.ipv4_mapped is None:
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip.ipv4_mapped or ip) if ip.version == 6 else str(ip)


class Server(SMTP):
    """One SMTP session: aiosmtpd's, with the limits above."""

    line_length_limit = (
        COMMAND_LIMIT  # the StreamReader's: a command line longer is refused at once
    )
    greeting_ident = "ESMTP mailref"

    def __init__(
        self,
        handler: Any,
        room: Room,
        domain: str,
        max_size: int,
        loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(
            handler,
            data_size_limit=max_size,
            enable_SMTPUTF8=True,
            hostname=domain,
            ident=self.greeting_ident,
            loop=loop or asyncio.get_running_loop(),
        )
        self.room, self.max_size = room, max_size
        self.errors = self.junk = 0
        self.seen = 0.0  # loop time of the last reply (or line of data): the idle clock
        self.waiting = False  # an answer (RCPT lookup or storing) is outstanding
        self.in_data = False
        self.held = 0  # octets of this session's mail data counted in room.buffered
        self.client: str | None = None
        # PIPELINING is offered (aiosmtpd reads pipelined commands in order but does not say so).
        self._ehlo_hook_ver, self._handle_hooks["EHLO"] = "new", self._ehlo

    async def _ehlo(
        self, server: SMTP, session: Any, envelope: Any, hostname: str, responses: list[str]
    ) -> list[str]:
        session.host_name = hostname  # what aiosmtpd does when no hook is set
        return [*responses[:-1], "250-PIPELINING", responses[-1]]

    # ---- the connection -------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.room.sessions.add(self)
        self.client = client_of(transport.get_extra_info("peername"))
        self.seen = self.loop.time()
        super().connection_made(transport)

    def connection_lost(self, error: Exception | None) -> None:
        self.room.sessions.discard(self)
        self._hold(0)  # now, not when the cancelled session gets to its finally
        super().connection_lost(error)

    def eof_received(self) -> bool | None:
        """A client that sent everything and shut its side (`nc -N`) is answered to the end:
        the commands read go on; the session ends at the end of what it sent."""
        self._reader.feed_eof()
        return self.session is None or self.session.ssl is None

    def _reset_timeout(self, duration: float | None = None) -> None:
        """aiosmtpd restarts its timer at every command; here the clock is `seen` (the last
        reply), checked by _idle, so a byte now and then does not keep a session open."""
        if self._timeout_handle is None:
            self._timeout_handle = self.loop.call_later(
                min(IDLE_TIMEOUT, STRESS_TIMEOUT), self._idle
            )

    def _idle(self) -> None:
        """Close a session that has not finished a command (or a line of data) within
        IDLE_TIMEOUT of its last reply (or line); STRESS_TIMEOUT once most places are taken."""
        if self.transport is None or self.transport.is_closing():
            return
        quiet = self.loop.time() - self.seen
        limit = (
            STRESS_TIMEOUT if len(self.room.sessions) >= MAX_SESSIONS * STRESS_AT else IDLE_TIMEOUT
        )
        if quiet >= limit and not self.waiting:
            self.close("421 4.4.2 idle too long, closing")
        else:
            self._timeout_handle = self.loop.call_later(
                max(min(limit - quiet, STRESS_TIMEOUT), 0.05), self._idle
            )

    def _open(self) -> bool:
        return self.transport is not None and not self.transport.is_closing()

    def write(self, line: str) -> None:
        """One reply, its control bytes (a bare CR or LF, NUL, ESC) made "?": what a client
        wrote and a reply repeats never reaches it raw (RFC 5321 §4.2)."""
        transport = self.transport
        if isinstance(transport, asyncio.WriteTransport) and not transport.is_closing():
            self.seen = self.loop.time()
            transport.write(_CONTROL.sub("?", line).encode("utf-8", "surrogateescape") + b"\r\n")

    async def push(self, status: str | bytes) -> None:
        if isinstance(status, bytes):
            status = status.decode("utf-8", "surrogateescape")
        if status[:3] in ERRORS:
            self.errors += 1
            if self.errors >= MAX_ERRORS:
                return self.close("421 4.7.0 too many errors, closing")
        self.write(status)
        if self._open():
            await self._writer.drain()

    def in_hand(self) -> Envelope:
        """The envelope of the message in hand: aiosmtpd gives a session one as it opens (a
        method, not a property: aiosmtpd reads every attribute as the session is made)."""
        assert self.envelope is not None
        return self.envelope

    def close(self, line: str) -> None:
        """Say LINE and close; out of the count at once (idle sessions closed together under
        stress each see the ones closed before them)."""
        self.write(line)
        self.room.sessions.discard(self)
        if self.transport is not None:
            self.transport.close()

    @property
    def busy(self) -> bool:
        """Within a message: its data is arriving or it is being stored."""
        return self.in_data or self.waiting

    # ---- commands -------------------------------------------------------------------------

    async def _handle_client(self) -> None:
        if len(self.room.sessions) > MAX_SESSIONS:
            return self.close("421 4.3.2 too many sessions, try again later")
        if (
            self.client
            and sum(1 for s in self.room.sessions if s.client == self.client)
            > MAX_SESSIONS_PER_CLIENT
        ):
            return self.close("421 4.7.0 too many sessions from your address, try again later")
        await self.push(f"220 {self.hostname} {self.__ident__}")
        try:
            while self._open():
                line = await self._line()
                if line is None:
                    break
                await self._command(line)
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            if self.transport is not None:
                self.transport.close()

    async def _line(self) -> bytes | None:
        """The next command line without its line end (a line ends at LF, as aiosmtpd and
        Postfix take it; a CR before it is dropped); None at the end of the client's data.
        A line over COMMAND_LIMIT is refused at once, however it arrives, and skipped."""
        while True:
            try:
                line = await self._reader.readuntil(b"\n")
            except asyncio.IncompleteReadError:
                return None
            except asyncio.LimitOverrunError as e:
                await self._reader.read(e.consumed)
                await self.push("500 5.5.2 line too long")
                while self._open():
                    try:
                        await self._reader.readuntil(b"\n")
                        break
                    except asyncio.LimitOverrunError as more:
                        await self._reader.read(more.consumed)
                    except asyncio.IncompleteReadError:
                        return None
                continue
            return line[:-2] if line.endswith(b"\r\n") else line[:-1]

    async def _command(self, line: bytes) -> None:
        verb_bytes, _, arg_bytes = line.partition(b" ")
        try:
            verb = verb_bytes.upper().decode("ascii")
        except UnicodeDecodeError:
            return await self.push("500 5.5.2 Error: bad syntax")
        if verb in JUNK:
            # A hundred commands that move no mail forward since the last message are fine;
            # beyond that each counts as an error (Postfix's smtpd_junk_command_limit).
            self.junk += 1
            if self.junk > JUNK_LIMIT:
                self.errors += 1
                if self.errors >= MAX_ERRORS:
                    return self.close("421 4.7.0 too many errors, closing")
        method = self._smtp_methods.get(verb) if verb else None
        if method is None:
            shown = (
                verb[:20]
                if verb[:20].isprintable()
                else verb[:20].encode("ascii", "backslashreplace").decode()
            )
            return await self.push(f'500 5.5.2 Error: command "{shown}" not recognized')
        arg = arg_bytes.strip().decode("utf-8", "surrogateescape") or None
        try:
            await method(arg)
        except (asyncio.CancelledError, asyncio.IncompleteReadError, ConnectionError):
            raise
        except Exception:  # never let one odd command end the session without an answer
            log.exception("SMTP command %r failed", line[:80])
            await self.push("451 4.3.0 internal error, try again later")
        if verb == "DATA" and self.refused_data and self._pending():
            # DATA refused, yet bytes follow it: DATA ends a pipelined group (RFC 2920 §3.1),
            # so they are the message the client did not wait for 354 to send. Obeyed as
            # commands, its "RSET / MAIL FROM:<gm@...> / RCPT / DATA" would be a second mail
            # with an envelope of its author's choosing.
            self.close("421 4.5.0 message sent without waiting for 354, closing")

    def _pending(self) -> bool:
        """Bytes of the client's already read and not yet taken (aiosmtpd itself reaches into
        the reader's buffer for STARTTLS)."""
        return bool(self._reader._buffer)  # type: ignore[attr-defined]

    def _getaddr(self, arg: str) -> tuple[str | None, str | None]:
        """The address of MAIL FROM / RCPT TO and what follows it (aiosmtpd's reading, for
        `<local@domain>` without a parser's detour)."""
        plain = _PLAIN_PATH.match(arg.lstrip()) if arg else None
        if plain:
            return plain.group(1), arg.lstrip()[plain.end() :].lstrip()
        return super()._getaddr(arg)

    @syntax("MAIL FROM: <address>", extended=" [SP <mail-parameters>]")
    async def smtp_MAIL(self, arg: str | None) -> None:
        if arg and not arg.isprintable():  # NUL, control or non-UTF-8 bytes: no store keeps them
            return await self.push("501 5.1.7 Bad sender address syntax")
        await super().smtp_MAIL(arg)

    @syntax("RCPT TO: <address>", extended=" [SP <mail-parameters>]")
    async def smtp_RCPT(self, arg: str | None) -> None:
        if arg and not arg.isprintable():
            return await self.push("501 5.1.3 Bad recipient address syntax")
        envelope = self.in_hand()
        if envelope.mail_from and len(envelope.rcpt_tos) >= MAX_RECIPIENTS:
            return await self.push("452 4.5.3 Too many recipients")
        await super().smtp_RCPT(arg)

    @syntax("VRFY <address>")
    async def smtp_VRFY(self, arg: str | None) -> None:
        await self.push("252 2.1.5 Cannot VRFY user, but will accept message and attempt delivery")

    @syntax("QUIT")
    async def smtp_QUIT(self, arg: str | None) -> None:
        self.close("221 2.0.0 Bye")

    async def smtp_STARTTLS(self, arg: str | None) -> None:
        if not self.tls_context:
            return await self.push("502 5.5.1 STARTTLS not implemented")
        await super().smtp_STARTTLS(arg)

    async def smtp_AUTH(self, arg: str | None) -> None:
        await self.push("502 5.5.1 AUTH not implemented")

    async def smtp_BDAT(self, arg: str | None) -> None:
        await self.push("502 5.5.1 BDAT not implemented")

    async def smtp_EXPN(self, arg: str | None) -> None:
        await self.push("502 5.5.1 EXPN not implemented")

    # ---- the data ---------------------------------------------------------------------------

    refused_data = False

    @syntax("DATA")
    async def smtp_DATA(self, arg: str | None) -> None:
        self.refused_data = True
        if await self.check_helo_needed():
            return
        if not self.in_hand().rcpt_tos:
            return await self.push("503 5.5.1 Error: need RCPT command")
        if arg:
            return await self.push("501 5.5.4 Syntax: DATA")
        self.refused_data, self.in_data = False, True
        try:
            await self.push("354 End data with <CR><LF>.<CR><LF>")
            outcome = await self._data()
        finally:
            self.in_data = False
        self.junk = 0
        if isinstance(outcome, str):
            self._hold(0)
            self._set_post_data_state()
            return await self.push(outcome)
        envelope = self.in_hand()
        envelope.content = envelope.original_content = outcome
        self.waiting = True
        try:
            status = await self._call_handler_hook("DATA")
        finally:
            self.waiting = False
            self._hold(0)
        self._set_post_data_state()
        await self.push(status)

    async def _data(self) -> bytes | str:
        """The message's data, unstuffed, once CRLF.CRLF arrived (what follows it is left for
        the commands), or the reply refusing it: 552 over the size limit, 452 when all
        sessions together hold too much (its data thrown away as it arrives, so memory stays
        flat)."""
        body = bytearray(b"\r\n")  # the CRLF of DATA: a message may be empty
        dropped = crowded = False
        limit = self.max_size
        while True:
            start = max(len(body) - 4, 0)
            chunk = await self._reader.read(PIECE)
            if not chunk:
                raise asyncio.IncompleteReadError(bytes(body), None)
            body += chunk
            if b"\n" in chunk:  # a line of data arrived: the time for the next one starts
                self.seen = self.loop.time()
            end = body.find(END, start)
            if end >= 0:
                break
            if not dropped and len(body) > limit + 2:
                dropped = True  # answered 552 at the end (RFC 5321 §4.2.5)
            elif not dropped and self.room.buffered + len(chunk) > max(BUFFER_BUDGET, 2 * limit):
                dropped = crowded = True
            if dropped:
                del body[:-4]
            self._hold(len(body))
        rest = bytes(body[end + 5 :])
        if rest:
            self._reader._buffer[:0] = rest  # type: ignore[attr-defined]  # pipelined commands
        if crowded:
            log.warning(
                "mail from %r refused with 452: the sessions hold %d MB of mail data at once",
                self.in_hand().mail_from,
                self.room.buffered // 2**20,
            )
            return "452 4.3.1 Insufficient system storage, try again later"
        if dropped or end - 2 > limit:
            return "552 5.3.4 Error: too much mail data"
        del body[end + 2 :]  # the data alone, copied once more at most
        if (
            body.find(b"\r\n.") >= 0
        ):  # RFC 5321 §4.5.2: a line's leading period is the client's stuffing
            body = body.replace(b"\r\n.", b"\r\n")
        raw = bytes(memoryview(body)[2:])
        del body
        self._hold(len(raw))  # until it is kept
        return raw

    def _hold(self, octets: int) -> None:
        """This session now holds OCTETS of mail data (counted in room.buffered)."""
        self.room.buffered += octets - self.held
        self.held = octets


class LmtpServer(Server):
    """One LMTP session (RFC 2033): LHLO instead of EHLO, and after the data one reply for
    each recipient taken (the handler gives them, a line each)."""

    greeting_ident = "LMTP mailref"

    @syntax("LHLO hostname")
    async def smtp_LHLO(self, arg: str | None) -> None:
        await super().smtp_EHLO(arg)

    async def smtp_HELO(self, arg: str | None) -> None:
        await self.push('500 5.5.1 Error: command "HELO" not recognized (this is LMTP: LHLO)')

    async def smtp_EHLO(self, arg: str | None) -> None:
        await self.push('500 5.5.1 Error: command "EHLO" not recognized (this is LMTP: LHLO)')

    async def check_helo_needed(self, helo: str = "LHLO") -> bool:
        return await super().check_helo_needed("LHLO")
