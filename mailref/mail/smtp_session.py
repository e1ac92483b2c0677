"""One SMTP session (RFC 5321) as an asyncio protocol: the dialogue only. What a recipient
is worth and where a message goes are the Desk's (mailref.mail.smtp): it answers RCPT and
takes each message's bytes, calling back once they are kept.

Why our own and not aiosmtpd's session: aiosmtpd reads a message line by line through a
StreamReader, a coroutine step per line, and spent about three times the CPU of the whole
store behind it; this protocol finds a command line or the end of the data in the bytes as
they arrive (docs/decisions/listener.md).

What it speaks: EHLO/HELO, MAIL (SIZE, BODY, SMTPUTF8), RCPT, DATA, RSET, NOOP, QUIT, VRFY,
HELP; PIPELINING (commands wait, in order, while a message is being stored). The data ends
only at CRLF.CRLF (a bare LF never ends it: no SMTP smuggling). Lines longer than 1,000
octets are accepted, as RFC 5321 §4.5.3.1 recommends where the store copes; the whole
message is bounded by the size limit, counted while it arrives."""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import re
from collections.abc import Callable
from typing import Protocol

log = logging.getLogger("mailref.smtp")

COMMAND_LIMIT = 2048  # octets of one command line (RFC 5321: 512; extensions add parameters)
MAX_RECIPIENTS = 100  # RFC 5321 §4.5.3.1.8: at least 100 must be accepted
MAX_SESSIONS = 500  # open at once; more are told to come back later
# Open at once from one client (an IPv4 address, an IPv6 /64): one host holding every place
# with idle connections kept everyone else's mail out ("421 too many sessions"). Postfix's
# smtpd_client_connection_count_limit is 50 too; an MTA relaying to the listener opens far
# fewer (Postfix's smtp_destination_concurrency_limit is 20).
MAX_SESSIONS_PER_CLIENT = 50
MAX_ERRORS = 20  # bad commands before the session is closed: a confused or hostile client
JUNK_LIMIT = 100  # commands moving no mail forward (NOOP, RSET, ...) before each counts as an error
IDLE_TIMEOUT = 300.0  # seconds to send a command, or a line of data (RFC 5321 §4.5.3.2.7)
STRESS_TIMEOUT = 10.0  # the same once most sessions are taken (STRESS_AT): idle ones make room
STRESS_AT = 0.8  # of MAX_SESSIONS
# Mail data held in memory by all sessions at once (the larger of this and two messages of
# the size limit): past it, a message arriving is refused 452 and its data thrown away, so
# 500 senders of 10 MB each cannot take 5 GB (docs/decisions/listener.md).
BUFFER_BUDGET = 256 * 1024 * 1024
JUNK = frozenset(("NOOP", "RSET", "VRFY", "HELP", "EHLO", "HELO"))
END = b"\r\n.\r\n"
COMMANDS = "EHLO HELO MAIL RCPT DATA RSET NOOP QUIT VRFY HELP"
_CONTROL = re.compile(r"\r(?!\n)|(?<!\r)\n|[\x00-\x09\x0b\x0c\x0e-\x1f\x7f]")  # all but a CRLF pair

Answer = Callable[[str], None]  # called with the reply to the end of DATA


class Desk(Protocol):
    """What sessions ask of the listener."""

    domain: str
    max_size: int
    buffered: int  # octets of mail data all sessions hold now (the sessions keep it)

    def recipient(self, address: str) -> str | asyncio.Future[str]:
        """The reply to RCPT TO:<ADDRESS> ("250 ..." accepts), or a future of it (which
        never fails: a lookup that cannot be made is a 451 reply)."""

    def deliver(self, raw: bytes, mail_from: str, rcpt_to: list[str], answer: Answer) -> None:
        """Keep RAW; call ANSWER(reply) on the event loop once it is kept (or not)."""


class Session(asyncio.Protocol):
    def __init__(self, desk: Desk, sessions: set[Session]):
        self.desk, self.sessions = desk, sessions
        self.transport: asyncio.Transport | None = None
        self.buf = b""
        self.skipping = False  # the rest of a command line already refused as too long
        self.body: bytearray | None = None  # while in DATA: b"\r\n" + the data so far
        self.dropped = False  # data over the size limit was thrown away
        self.crowded = False  # ...or thrown away because the sessions together held too much
        self.held = 0  # octets of this session's mail data counted in desk.buffered
        self.waiting = False  # an answer (RCPT lookup or storing) is outstanding
        self.greeted, self.mail_from, self.rcpt_to = False, None, list[str]()
        self.errors, self.junk, self.seen, self.timer = 0, 0, 0.0, None
        self.client: str | None = None

    # ---- the connection -------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        self.sessions.add(self)
        self.loop = asyncio.get_running_loop()
        self.seen = self.loop.time()
        self.timer = self.loop.call_later(min(IDLE_TIMEOUT, STRESS_TIMEOUT), self._idle)
        if len(self.sessions) > MAX_SESSIONS:
            return self.close("421 4.3.2 too many sessions, try again later")
        self.client = client_of(transport.get_extra_info("peername"))
        if (
            self.client
            and sum(1 for s in self.sessions if s.client == self.client) > MAX_SESSIONS_PER_CLIENT
        ):
            return self.close("421 4.7.0 too many sessions from your address, try again later")
        self.reply(f"220 {self.desk.domain} ESMTP mailref")

    def connection_lost(self, exc: Exception | None) -> None:
        self.sessions.discard(self)
        if self.timer:
            self.timer.cancel()
        self.transport, self.body, self.buf = None, None, b""
        self._hold(0)

    def _hold(self, octets: int) -> None:
        """This session now holds OCTETS of mail data (the others see it in desk.buffered)."""
        self.desk.buffered += octets - self.held
        self.held = octets

    def _idle(self) -> None:
        """Close a session that has not finished a command (or a line of data) within
        IDLE_TIMEOUT of its last reply (or line): a byte now and then does not keep it open
        (slowloris). Once most sessions are taken, STRESS_TIMEOUT applies, so idle
        connections cannot hold every place (as Postfix's stress-dependent smtpd_timeout).
        Re-armed at most STRESS_TIMEOUT ahead, not reset on every read."""
        if self.transport is None:
            return
        quiet = self.loop.time() - self.seen
        limit = STRESS_TIMEOUT if len(self.sessions) >= MAX_SESSIONS * STRESS_AT else IDLE_TIMEOUT
        if quiet >= limit and not self.waiting:
            self.close("421 4.4.2 idle too long, closing")
        else:
            self.timer = self.loop.call_later(
                max(min(limit - quiet, STRESS_TIMEOUT), 0.05), self._idle
            )

    def reply(self, line: str) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.seen = self.loop.time()  # the client's time for its next command starts now
            # What the client wrote and a reply repeats (a command, an address) may hold a bare
            # CR or other control bytes: a reply line must not (RFC 5321 §4.2; found by
            # tests/fuzz_smtp.py). The CRLFs between the lines of a multi-line reply stay.
            line = _CONTROL.sub("?", line)
            self.transport.write(line.encode("utf-8", "surrogateescape") + b"\r\n")

    def close(self, line: str) -> None:
        self.reply(line)
        # Out of the count at once, not when the loop gets to connection_lost: idle sessions
        # closed together under stress each see the ones closed before them.
        self.sessions.discard(self)
        if self.transport is not None:
            self.transport.close()

    @property
    def busy(self) -> bool:
        """Within a message: its data is arriving or it is being stored."""
        return self.body is not None or self.waiting

    # ---- bytes in ---------------------------------------------------------------------------

    def _open(self) -> bool:
        """Not closed nor closing: after QUIT (or 421) the rest of a pipeline is not obeyed."""
        return self.transport is not None and not self.transport.is_closing()

    def data_received(self, data: bytes) -> None:
        if not self._open():
            return
        if self.body is not None:
            self._data(data)
        else:
            self.buf += data
            self._commands()

    def _commands(self) -> None:
        """Obey the complete command lines in the buffer. A line ends at LF, its CR before
        the LF removed: clients and scripts that end commands with LF alone are answered
        (as aiosmtpd, which this replaced, and Postfix do; the data still ends only at
        CRLF.CRLF). A line over COMMAND_LIMIT is refused once, whether it came in one write
        or in many, and the rest of it skipped. The buffer is read at an index, not cut after
        every line (a pipeline of many short commands would copy it again for each)."""
        buf, pos = self.buf, 0
        while not self.waiting and self.body is None and self._open():
            end = buf.find(b"\n", pos)
            if self.skipping:
                if end < 0:
                    pos = len(buf)
                    break
                pos, self.skipping = end + 1, False
                continue
            if end < 0:
                if len(buf) - pos > COMMAND_LIMIT:
                    pos, self.skipping = len(buf), True
                    self._error("500 5.5.2 line too long")
                break
            line, pos = buf[pos:end], end + 1
            if len(line) > COMMAND_LIMIT:
                self._error("500 5.5.2 line too long")
                continue
            if line.endswith(b"\r"):
                line = line[:-1]
            try:
                self._command(line.decode("utf-8", "surrogateescape"))
            except Exception:  # never let one odd command end the session without an answer
                log.exception("SMTP command %r failed", line[:80])
                self.reply("451 4.3.0 internal error, try again later")
            if (
                self.body is None
                and pos < len(buf)
                and line[:4].upper() == b"DATA"
                and self._open()
            ):
                # DATA refused, yet bytes follow it: DATA ends a pipelined group (RFC 2920
                # §3.1), so they are the message the client did not wait for 354 to send.
                # Obeyed as commands, a body's "RSET / MAIL FROM:<gm@...> / RCPT / DATA"
                # would be a second mail with an envelope of its author's choosing.
                self.close("421 4.5.0 message sent without waiting for 354, closing")
        self.buf = buf[pos:] if pos else buf
        if self.body is not None and self.buf:  # pipelined data right behind DATA
            rest, self.buf = self.buf, b""
            self._data(rest)

    def _error(self, line: str) -> None:
        self.errors += 1
        if self.errors >= MAX_ERRORS:
            self.close("421 4.7.0 too many errors, closing")
        else:
            self.reply(line)

    def _command(self, line: str) -> None:
        verb, _, arg = line.partition(" ")
        verb, arg = verb.upper(), arg.strip()
        if verb in JUNK:
            # A hundred commands that move no mail forward, since the last message, are
            # fine; beyond that each counts as an error, so a flood of them (10,000 NOOPs in
            # one write) ends in 421 instead of an answer for each (Postfix's
            # smtpd_junk_command_limit).
            self.junk += 1
            if self.junk > JUNK_LIMIT:
                self.errors += 1
                if self.errors >= MAX_ERRORS:
                    return self.close("421 4.7.0 too many errors, closing")
        if verb in ("EHLO", "HELO"):
            if not arg:
                return self._error(f"501 5.5.4 Syntax: {verb} hostname")
            self.greeted, self.mail_from, self.rcpt_to = True, None, []
            if verb == "HELO":
                return self.reply(f"250 {self.desk.domain}")
            return self.reply(
                f"250-{self.desk.domain}\r\n250-SIZE {self.desk.max_size}\r\n250-8BITMIME\r\n"
                "250-SMTPUTF8\r\n250-PIPELINING\r\n250 HELP"
            )
        if verb == "MAIL":
            return self._mail(arg)
        if verb == "RCPT":
            return self._rcpt(arg)
        if verb == "DATA":
            if self.mail_from is None or not self.rcpt_to:
                return self._error("503 5.5.1 Error: need RCPT command")
            if arg:
                return self._error("501 5.5.4 Syntax: DATA")
            self.body, self.dropped, self.crowded = bytearray(b"\r\n"), False, False
            return self.reply("354 End data with <CR><LF>.<CR><LF>")
        if verb == "RSET":
            self.mail_from, self.rcpt_to = None, []
            return self.reply("250 2.0.0 OK")
        if verb == "NOOP":
            return self.reply("250 2.0.0 OK")
        if verb == "QUIT":
            return self.close("221 2.0.0 Bye")
        if verb == "VRFY":
            return self.reply(
                "252 2.1.5 Cannot VRFY user, but will accept message and attempt delivery"
            )
        if verb == "HELP":
            return self.reply(f"250 Supported commands: {COMMANDS}")
        if verb in ("STARTTLS", "AUTH", "BDAT", "EXPN", "ETRN", "TURN"):
            return self._error(f"502 5.5.1 {verb} not implemented")
        shown = (
            verb[:20]
            if verb[:20].isprintable()
            else verb[:20].encode("ascii", "backslashreplace").decode()
        )
        self._error(f'500 5.5.2 Error: command "{shown}" not recognized')

    # ---- the envelope -----------------------------------------------------------------------

    def _mail(self, arg: str) -> None:
        if not self.greeted:
            return self._error("503 5.5.1 Error: send HELO first")
        if self.mail_from is not None:
            return self._error("503 5.5.1 Error: nested MAIL command")
        path, params = _path(arg, "FROM:")
        if path is None:
            return self._error("501 5.5.4 Syntax: MAIL FROM:<address>")
        if not path.isprintable():  # NUL, control or non-UTF-8 bytes: no store keeps them
            return self._error("501 5.1.7 Bad sender address syntax")
        for key, value in params:
            if key == "SIZE":
                if not value.isdigit():
                    return self._error("501 5.5.4 Syntax: SIZE=<number>")
                if int(value) > self.desk.max_size:
                    return self.reply("552 5.3.4 Message size exceeds fixed maximum message size")
            elif key == "BODY":
                if value.upper() not in ("7BIT", "8BITMIME"):
                    return self._error("501 5.5.4 Error: BODY can only be one of 7BIT, 8BITMIME")
            elif key != "SMTPUTF8":
                return self._error(
                    "555 5.5.4 MAIL FROM parameters not recognized or not implemented"
                )
        self.mail_from, self.rcpt_to = path, []
        self.reply("250 2.1.0 OK")

    def _rcpt(self, arg: str) -> None:
        if self.mail_from is None:
            return self._error("503 5.5.1 Error: need MAIL command")
        path, params = _path(arg, "TO:")
        if not path:
            return self._error("501 5.5.4 Syntax: RCPT TO:<address>")
        if not path.isprintable():
            return self._error("501 5.1.3 Bad recipient address syntax")
        if params:
            return self._error("555 5.5.4 RCPT TO parameters not recognized or not implemented")
        if len(self.rcpt_to) >= MAX_RECIPIENTS:
            return self.reply("452 4.5.3 Too many recipients")
        answer = self.desk.recipient(path)
        if isinstance(answer, str):
            return self._recipient(path, answer)
        self._wait()
        answer.add_done_callback(lambda f: self._resume(lambda: self._recipient(path, _outcome(f))))

    def _recipient(self, path: str, answer: str) -> None:
        if answer.startswith("250"):
            self.rcpt_to.append(path)
        else:
            self.junk += 1  # refused recipients are junk too: each unknown one costs a lookup
        self.reply(answer)

    # ---- the data ---------------------------------------------------------------------------

    def _data(self, chunk: bytes) -> None:
        body = self.body
        assert body is not None
        start = max(len(body) - 4, 0)
        body += chunk
        if b"\n" in chunk:  # a line of data arrived: the time for the next one starts
            self.seen = self.loop.time()
        end = body.find(END, start)
        if end < 0:
            if not self.dropped and len(body) > self.desk.max_size + 2:
                self.dropped = True  # answered 552 at the end (RFC 5321 §4.2.5); memory stays flat
            elif not self.dropped and self.desk.buffered + len(chunk) > max(
                BUFFER_BUDGET, 2 * self.desk.max_size
            ):
                self.dropped = self.crowded = True  # answered 452 at the end: come back later
            if self.dropped:
                del body[:-4]
            self._hold(len(body))
            return
        rest = bytes(body[end + 5 :])
        mail_from, rcpt_to = self.mail_from or "", self.rcpt_to
        self.body, self.junk, self.mail_from, self.rcpt_to = None, 0, None, []
        if self.crowded:
            self._hold(0)
            log.warning(
                "mail from %r refused with 452: the sessions hold %d MB of mail data at once",
                mail_from,
                self.desk.buffered // 2**20,
            )
            self.reply("452 4.3.1 Insufficient system storage, try again later")
        elif self.dropped or end - 2 > self.desk.max_size:
            self._hold(0)
            self.reply("552 5.3.4 Error: too much mail data")
        else:
            del body[
                end + 2 :
            ]  # the data alone, copied once more at most (a 10 MB mail took 50 MB)
            if (
                body.find(b"\r\n.") >= 0
            ):  # RFC 5321 §4.5.2: a line's leading period is the client's stuffing
                body = body.replace(b"\r\n.", b"\r\n")
            raw = bytes(memoryview(body)[2:])
            del body
            self._hold(len(raw))  # until it is kept
            self._wait()
            self.desk.deliver(
                raw, mail_from, rcpt_to, lambda line: self._resume(lambda: self._kept(line))
            )
        self.buf = rest + self.buf
        if self.buf and not self.waiting:
            self._commands()

    def _kept(self, line: str) -> None:
        self._hold(0)
        self.reply(line)

    # ---- waiting for an answer ----------------------------------------------------------------

    def _wait(self) -> None:
        """Hold the session's further commands (pipelined ones stay in order) until the answer."""
        self.waiting = True
        if self.transport is not None:
            self.transport.pause_reading()

    def _resume(self, answer: Callable[[], None]) -> None:
        self.waiting = False
        answer()
        if self.transport is not None and not self.transport.is_closing():
            self.transport.resume_reading()
            self._commands()


def _path(arg: str, keyword: str) -> tuple[str | None, list[tuple[str, str]]]:
    """The address and the parameters of `MAIL FROM:<a@b> SIZE=1` / `RCPT TO:<a@b>`: the address
    without its angle brackets ("" for <>), None when the syntax is wrong."""
    if arg[: len(keyword)].upper() != keyword:
        return None, []
    arg = arg[len(keyword) :].lstrip()
    if arg.startswith("<"):
        end = arg.find(">")
        if end < 0:
            return None, []
        path, rest = arg[1:end], arg[end + 1 :]
        if ":" in path and path.startswith("@"):  # an old source route, @a,@b:user@c: the mailbox
            path = path.rpartition(":")[2]
    else:  # no brackets: lenient, as many clients are
        path, _, rest = arg.partition(" ")
    if rest and not rest.startswith(" "):
        return None, []
    params = []
    for word in rest.split():
        key, _, value = word.partition("=")
        params.append((key.upper(), value))
    return path.strip(), params


def _outcome(f: asyncio.Future[str]) -> str:
    """The Desk's answer; a lookup cancelled (the listener stopping) is a 451."""
    return "451 4.3.0 try again later" if f.cancelled() else f.result()


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
