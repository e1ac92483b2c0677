"""The relay connection the outbox sends over: smtplib's SMTP, sending a row its own way
(pipelined MAIL, RCPT and DATA; addresses not parsed again), and what SMTPUTF8 a row needs."""

from __future__ import annotations

import smtplib
import ssl
import threading
from collections.abc import Callable

from mailref.config import SmtpOut
from mailref.store import OutboxMessage
from mailref.write import address

NO_SMTPUTF8 = (
    "the relay {relay} does not offer SMTPUTF8, which mail to {to} needs (the part before the @ "
    "is not ASCII); a relay with SMTPUTF8 (Postfix smtputf8_enable, Exim, most providers) "
    "delivers it"
)


def tls_context(relay: SmtpOut) -> ssl.SSLContext:
    """The relay's certificate is checked against the system's CAs (and SSL_CERT_FILE),
    `[smtp_out] ca_file`'s too, and the host name: the same in the daemon and in every command
    (smtplib's own default checks nothing: the login would go to whoever answered)."""
    context = ssl.create_default_context()
    if relay.ca_file:
        context.load_verify_locations(cafile=relay.ca_file)
    return context


def needs_smtputf8(row: OutboxMessage) -> bool:
    """A non-ASCII local part in a recipient, or UTF-8 headers (RFC 6532) written for one."""
    head = row.raw[: row.raw.find(b"\r\n\r\n")]
    return not head.isascii() or any(address.needs_smtputf8(a) for a in row.recipients)


def offers_smtputf8(smtp: smtplib.SMTP) -> bool:
    """Whether the relay offers SMTPUTF8 (a broken connection is left to the row's sending)."""
    try:
        smtp.ehlo_or_helo_if_needed()
    except (OSError, smtplib.SMTPException):
        return True  # let the row's sending meet the broken connection and say so
    return smtp.has_extn("smtputf8")


def said(value: bytes | str) -> str:
    """What the relay said, as text."""
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def hang_up(smtp: smtplib.SMTP | None, quit: bool = False) -> None:
    """Close SMTP (with QUIT when asked), whatever state the connection is in; returns None."""
    if smtp is None:
        return None
    try:
        if quit:
            smtp.quit()
        else:
            smtp.close()
    except (OSError, smtplib.SMTPException):
        smtp.close()
    return None


class Relay(smtplib.SMTP):
    """smtplib's connection, sending a row its own way (`send_row`): addresses are not parsed
    again for every message (email.utils.parseaddr was about a tenth of the daemon's CPU in a
    burst; ours are bare addresses checked before, address.problem, and go out as <address>),
    and MAIL, RCPT and DATA are pipelined to a relay offering PIPELINING."""

    def _line(self, verb: str, path: str, options: tuple | list = ()) -> str:
        """The command line of MAIL or RCPT, as smtplib's putcmd writes it."""
        extra = ""
        if options and self.does_esmtp:
            if verb == "mail" and any(o.lower() == "smtputf8" for o in options):
                if not self.has_extn("smtputf8"):
                    raise smtplib.SMTPNotSupportedError("SMTPUTF8 not supported by server")
                self.command_encoding = "utf-8"
            extra = " " + " ".join(options)
        return f"{verb.upper()} {path}{extra}\r\n"

    def send_row(
        self,
        sender: str,
        recipients: list[str],
        raw: bytes,
        utf8: bool,
        finishing: threading.Lock,
        sent: Callable[[], None],
    ) -> None:
        """What smtplib's sendmail does, for one row, with FINISHING held from the end of the data
        to the relay's answer and SENT (our mark), so that of all connections at most one row is
        ever accepted by the relay and not yet marked. To a relay offering PIPELINING (RFC 2920:
        Postfix, Exim, most providers) MAIL, the RCPTs and DATA go in one write and their answers
        are read in order: two waits for the relay instead of four."""
        self.ehlo_or_helo_if_needed()
        options = []
        if self.does_esmtp:
            if self.has_extn("size"):
                options.append(f"SIZE={len(raw)}")
            if utf8:
                options.append("SMTPUTF8")
        lines = [self._line("mail", f"FROM:<{sender}>", options)] + [
            self._line("rcpt", f"TO:<{r}>") for r in recipients
        ]
        if self.does_esmtp and self.has_extn("pipelining"):
            self.send("".join(lines) + "DATA\r\n")
            answers = [self.getreply() for _ in lines]
            data = self.getreply()
        else:
            answers = []
            for line in lines:
                self.send(line)
                answers.append(self.getreply())
                if answers[0][0] != 250 or answers[-1][0] == 421:
                    break  # as sendmail: no RCPT after a refused MAIL, nothing after 421
            data = None
        code, resp = answers[0]
        if code != 250:
            self._failed(code, data)
            raise smtplib.SMTPSenderRefused(code, resp, sender)
        refused = {
            r: a for r, a in zip(recipients, answers[1:], strict=False) if a[0] not in (250, 251)
        }
        if any(a[0] == 421 for a in refused.values()):
            self.close()
            raise smtplib.SMTPRecipientsRefused(refused)
        if len(refused) == len(recipients):
            self._failed(550, data)
            raise smtplib.SMTPRecipientsRefused(refused)
        if data is None:
            self.send("DATA\r\n")
            data = self.getreply()
        code, resp = data
        if code != 354:
            self._failed(code)
            raise smtplib.SMTPDataError(code, resp)
        body = smtplib._quote_periods(raw)  # type: ignore[attr-defined]  # smtplib's own, unstubbed
        if not body.endswith(b"\r\n"):
            body += b"\r\n"
        self.send(body)  # the relay reads it meanwhile; only the final dot makes it take the mail
        with finishing:
            self.send(b".\r\n")
            code, resp = self.getreply()
            if code != 250:
                self._failed(code)
                raise smtplib.SMTPDataError(code, resp)
            sent()

    def login(self, user: str, password: str, *, initial_response_ok: bool = True):
        """One AUTH with the first mechanism offered (CRAM-MD5, PLAIN, LOGIN, as smtplib
        prefers them): smtplib tries the next after a refusal, so a wrong password cost two or
        three failed logins a connection, and relays lock an account out for that."""
        self.ehlo_or_helo_if_needed()
        if not self.has_extn("auth"):
            raise smtplib.SMTPNotSupportedError("SMTP AUTH extension not supported by server.")
        offered = self.esmtp_features["auth"].upper().split()
        mechanism = next((m for m in ("CRAM-MD5", "PLAIN", "LOGIN") if m in offered), None)
        if mechanism is None:
            raise smtplib.SMTPException("No suitable authentication method found.")
        self.user, self.password = user, password
        answer = getattr(self, "auth_" + mechanism.lower().replace("-", "_"))
        code, resp = self.auth(mechanism, answer, initial_response_ok=initial_response_ok)
        if code in (235, 503):  # 503: already logged in
            return code, resp
        raise smtplib.SMTPAuthenticationError(code, resp)

    def _failed(self, code: int, data: tuple[int, bytes] | None = None) -> None:
        """After a refusal: 421 closes; else the transaction is reset. DATA a pipeline sent
        anyway and the relay took (354, which it should not) is ended empty first."""
        if code == 421:
            self.close()
            return
        if data is not None and data[0] == 354:
            self.send(b".\r\n")
            self.getreply()
        self._rset()  # type: ignore[attr-defined]  # smtplib's own, unstubbed


class RelayOverTls(Relay, smtplib.SMTP_SSL):
    """The relay connection in TLS from its first byte (`[smtp_out] tls = "implicit"`, port
    465, RFC 8314)."""
