"""Delivery over an SMTP relay: a batch's rows spread over up to three connections at once,
each recipient's mail on one connection and in order, with the relay's answers turned into
each row's Result. Mixed into the outbox's Deliverer, whose state (the relay, the sender, the
round's start and the mark of each row sent) it reads."""

from __future__ import annotations

import logging
import smtplib
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from mailref.config import SmtpOut
from mailref.mail.outbox_rows import Result
from mailref.mail.relay import (
    NO_SMTPUTF8,
    Relay,
    RelayOverTls,
    hang_up,
    needs_smtputf8,
    offers_smtputf8,
    said,
    tls_context,
)
from mailref.mail.relay_trouble import refuses_us, relay_trouble
from mailref.store import OutboxMessage
from mailref.write import address

log = logging.getLogger("mailref.outbox")
RELAY_SESSIONS = 3  # relay connections a batch is spread over (docs/decisions/outbox.md)
FEWER_FOR = 3600.0  # seconds fewer connections are used after the relay refused one
# Seconds a delivery round may go on before each connection stops after its row in hand: the
# daemon processes incoming mail between rounds, and a slow relay (seconds a command) held
# every mail that arrived meanwhile for the whole batch of 50.
ROUND_BUDGET = 10.0


class RelayLanes:
    """The relay half of the Deliverer: it sends, the Deliverer claims and marks (its
    `_sent_now(row)` marks a row the moment the relay took it). The relay is handed to each
    step: lanes run only where there is one (without, the Deliverer writes a maildir)."""

    relay: SmtpOut | None
    sender: str
    sessions: int  # relay connections at once (fewer when the relay refuses more)
    fewer_since: float  # monotonic: when the relay last refused a connection
    started: float  # monotonic: when the round began
    cut_short: bool  # the last round stopped at ROUND_BUDGET with rows left
    finishing: threading.Lock  # one row at a time between the end of its data and our mark
    _pool: ThreadPoolExecutor | None
    # A refused login: how many in a row, no new attempt before this (monotonic), its answer.
    login_refusals: int = 0
    login_wait_until: float = 0.0
    login_refusal: tuple[int, bytes | str] = (535, b"")

    def _sent_now(self, row: OutboxMessage) -> None:
        raise NotImplementedError  # the Deliverer's: it marks the row in the store

    def _connect(self, r: SmtpOut) -> Relay:
        if time.monotonic() < self.login_wait_until:
            # After a refused login, no other attempt until its back-off ends (a relay locks
            # out an account that fails often), however much mail is queued meanwhile.
            raise smtplib.SMTPAuthenticationError(*self.login_refusal)
        name = r.ehlo_name or None  # None: smtplib says the host's FQDN
        smtp: Relay
        if r.tls == "implicit":
            # smtplib's own default checks no certificate: the login would go to anyone.
            tls = tls_context(r)
            smtp = RelayOverTls(r.host, r.port, local_hostname=name, timeout=30, context=tls)
        else:
            smtp = Relay(r.host, r.port, local_hostname=name, timeout=30)
        # The final dot goes alone, right behind the data: Nagle would hold it for the data's ACK.
        assert smtp.sock is not None  # smtplib connects as it is made, given a host
        smtp.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            if (
                r.starttls
            ):  # smtplib's own default checks no certificate: the relay login would go to anyone
                smtp.starttls(context=tls_context(r))
            if r.username:
                try:
                    smtp.login(r.username, r.password)
                except smtplib.SMTPAuthenticationError as e:
                    self.login_refusals += 1
                    wait = min(30.0 * 2 ** (self.login_refusals - 1), 3600.0)
                    self.login_wait_until = time.monotonic() + wait
                    self.login_refusal = (e.smtp_code, e.smtp_error)
                    raise
                self.login_refusals = 0
            smtp.ehlo_or_helo_if_needed()  # a relay at its connection limit may say so only here
        except BaseException:
            smtp.close()
            raise
        return smtp

    def _send_smtp(self, r: SmtpOut, rows: list[OutboxMessage]) -> dict[int, Result]:
        """The rows over up to `self.sessions` relay connections at once, one recipient's mail
        on one connection, in order. While one connection waits for the relay's answer another
        sends: a relay without PIPELINING answers each of MAIL, RCPT, DATA and the data in
        turn, and that wait was half of a row's time. The end of each data, the relay's 250
        and our mark of the row run one connection at a time, so a crash still finds at most
        one row accepted by the relay and not marked (SPEC §6)."""
        if self.sessions < RELAY_SESSIONS and time.monotonic() - self.fewer_since > FEWER_FOR:
            self.sessions = RELAY_SESSIONS  # the relay may have been busy only: try again
        lanes: list[list[OutboxMessage]] = [[] for _ in range(min(self.sessions, len(rows)))]
        lane_of: dict[tuple[str, ...], int] = {}  # each recipient's lane, dealt in turn
        for row in rows:
            lanes[lane_of.setdefault(tuple(row.recipients), len(lane_of) % len(lanes))].append(row)
        lanes = [lane for lane in lanes if lane]
        if len(lanes) == 1:
            return self._send_lane(r, lanes[0])
        try:  # the first connection before the others: if any connection can be had, it is this one
            first = self._connect(r)
        except (OSError, smtplib.SMTPException) as e:
            return self._unsent(rows, {}, self._unreachable(e, r))
        if self._pool is None:
            self._pool = ThreadPoolExecutor(RELAY_SESSIONS - 1, thread_name_prefix="relay")
        others = [self._pool.submit(self._send_lane, r, lane, None, False) for lane in lanes[1:]]
        results: dict[int, Result] = {}
        try:
            results.update(self._send_lane(r, lanes[0], first))
        finally:  # never leave a connection sending past this batch
            for lane in others:
                results.update(lane.result())
        return results

    def _unreachable(self, e: BaseException, r: SmtpOut) -> str:
        if isinstance(e, smtplib.SMTPAuthenticationError):
            return (
                f"relay {r.host}:{r.port} refused the login: {e.smtp_code} {said(e.smtp_error)}: "
                "check [smtp_out] username and password_file"
            )
        return f"relay {r.host}:{r.port} unreachable: {relay_trouble(e, r)}"

    def _send_lane(
        self,
        r: SmtpOut,
        rows: list[OutboxMessage],
        smtp: Relay | None = None,
        first: bool = True,
    ) -> dict[int, Result]:
        """ROWS in order over one connection (SMTP, when already open); FIRST: the batch's
        first connection, whose failure means the relay cannot be reached."""
        results: dict[int, Result] = {}
        on_connection = 0  # rows the relay took on the connection in hand
        for n, row in enumerate(rows):
            if n and time.monotonic() - self.started > ROUND_BUDGET:
                self.cut_short = True  # the rest go with the next round, not counted as attempts
                for rest in rows[n:]:
                    results[rest.id] = Result("the round's time ran out", tried=False)
                break
            bad = next(
                (f"recipient {a!r} {why}" for a in row.recipients if (why := address.problem(a))),
                None,
            )
            if bad:
                results[row.id] = Result(bad, permanent=True)
                continue
            if smtp is None:
                try:
                    smtp, on_connection = self._connect(r), 0
                except (OSError, smtplib.SMTPException) as e:
                    if not first and not isinstance(e, smtplib.SMTPAuthenticationError):
                        # The relay takes fewer connections at once than we opened: from now on,
                        # fewer; these rows go with the next round, not counted as attempts.
                        self.sessions, self.fewer_since = (
                            max(1, self.sessions - 1),
                            time.monotonic(),
                        )
                        log.info(
                            "relay %s:%s refused another connection (%s); using %s at once",
                            r.host,
                            r.port,
                            e,
                            self.sessions,
                        )
                        for rest in rows:
                            results.setdefault(
                                rest.id, Result("relay refused another connection", tried=False)
                            )
                        return results
                    return self._unsent(rows, results, self._unreachable(e, r))
            utf8 = needs_smtputf8(row)
            if utf8 and not offers_smtputf8(smtp):
                results[row.id] = Result(
                    NO_SMTPUTF8.format(relay=f"{r.host}:{r.port}", to=", ".join(row.recipients)),
                    permanent=True,
                )
                continue
            send = (
                self.sender,
                row.recipients,
                row.raw,
                utf8,
                self.finishing,
                lambda row=row: self._sent_now(row),
            )
            try:
                try:
                    smtp.send_row(*send)
                except smtplib.SMTPSenderRefused as e:
                    if e.smtp_code != 421 or not on_connection:
                        raise
                    # A 421 at MAIL after mails on this connection is the relay's limit per
                    # connection (Exim's smtp_accept_max_per_connection, providers' own): the row
                    # goes at once on a new one. A 421 there too is trouble, answered as any 4xx.
                    hang_up(smtp)
                    smtp, on_connection = None, 0
                    smtp = self._connect(r)
                    smtp.send_row(*send)
                results[row.id] = Result()
                on_connection += 1
                continue
            except smtplib.SMTPRecipientsRefused as e:
                code, msg = next(iter(e.recipients.values()))
                if ours := refuses_us(
                    code, said(msg), r
                ):  # no login, no relaying: the mail waits (relay_trouble.py)
                    hang_up(smtp)
                    return self._unsent(rows, results, ours)
                results[row.id] = Result(
                    f"relay refused the recipient: {code} {said(msg)}", permanent=code >= 500
                )
            except smtplib.SMTPResponseException as e:
                if ours := refuses_us(e.smtp_code, said(e.smtp_error), r):
                    hang_up(smtp)
                    return self._unsent(rows, results, ours)
                results[row.id] = Result(
                    f"relay said {e.smtp_code} {said(e.smtp_error)}", permanent=e.smtp_code >= 500
                )
            except (OSError, smtplib.SMTPServerDisconnected) as e:
                # The connection broke under this row: try it again later, reconnect for the rest.
                results[row.id] = Result(f"relay {r.host}:{r.port} connection lost: {e}")
                hang_up(smtp)
                smtp = None
                continue
            except (
                Exception
            ) as e:  # a row smtplib cannot even send: never retried, never blocks the rest
                results[row.id] = Result(f"cannot be sent: {type(e).__name__}: {e}", permanent=True)
            if smtp is None:  # a new connection for a capped one failed: the next row tries again
                continue
            try:
                smtp.rset()
            except (OSError, smtplib.SMTPException):
                hang_up(smtp)
                smtp = None
        hang_up(smtp, quit=True)
        return results

    @staticmethod
    def _unsent(
        rows: list[OutboxMessage], results: dict[int, Result], why: str
    ) -> dict[int, Result]:
        for row in rows:
            results.setdefault(row.id, Result(why, relay_down=True))
        return results
