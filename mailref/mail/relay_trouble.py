"""What went wrong with the relay, in one line an operator can act on (SPEC §7): the relay's
own words without Python's b'...', and for TLS which key or certificate to look at."""

from __future__ import annotations

import re
import smtplib
import ssl

from mailref.config import SmtpOut


def relay_trouble(e: BaseException, relay: SmtpOut) -> str:
    """E, raised while connecting to RELAY (greeting, STARTTLS, login), as one line."""
    if isinstance(e, ssl.SSLCertVerificationError):
        ca = (
            f"the system's or [smtp_out] ca_file {relay.ca_file}"
            if relay.ca_file
            else "the system's; [smtp_out] ca_file names another, for the daemon and every "
            "command alike"
        )
        return (
            f"its certificate is not trusted ({e.verify_message or e}): it must name "
            f"{relay.host!r} ([smtp_out] host) and come from a known CA ({ca})"
        )
    if isinstance(e, ssl.SSLError) and relay.tls == "implicit":
        return (
            f"TLS failed ({e.reason or e}): does it speak TLS from the first byte on port "
            f'{relay.port}? ([smtp_out] tls = "implicit" is for port 465; "starttls" for '
            "587 and 25)"
        )
    if isinstance(e, ssl.SSLError):
        return (
            f"TLS failed ({e.reason or e}): does it offer STARTTLS on port {relay.port}? "
            "([smtp_out] starttls)"
        )
    if isinstance(e, smtplib.SMTPNotSupportedError) and "STARTTLS" in str(e):
        return (
            f"it does not offer STARTTLS on port {relay.port}: set [smtp_out] starttls = false, "
            "or use a relay that does"
        )
    if isinstance(e, smtplib.SMTPNotSupportedError) and "AUTH" in str(e):
        tls = (
            ""
            if relay.starttls
            else " (many relays offer it only over TLS: [smtp_out] starttls = true)"
        )
        return (
            f"it offers no login (AUTH) on port {relay.port}{tls}; or clear [smtp_out] username "
            "if it needs none"
        )
    if isinstance(e, smtplib.SMTPResponseException):
        said = (
            e.smtp_error.decode("utf-8", "replace")
            if isinstance(e.smtp_error, bytes)
            else str(e.smtp_error)
        )
        return f"it said {e.smtp_code} {said}"
    return str(e) or type(e).__name__


# The relay's own words for "log in first" (Postfix, Exim, Exchange, providers); not a remote
# server's DMARC verdict relayed back ("550 5.7.26 Unauthenticated email from ..."), which is
# about the mail, not about this host.
_WANTS_LOGIN = re.compile(
    r"authentication (is )?required|requires? authentication|must (first )?authenticate"
    r"|authenticate first|please authenticate|\bnot authenticated|not logged in"
    r"|log ?in (first|required)|login required",
    re.I,
)
_NO_RELAY = re.compile(
    r"relay(ing)?\s+(access\s+)?(is\s+)?(denied|not permitted|prohibited|not allowed|refused)"
    r"|unable to relay|not permitted to relay|we do not relay|relay not permitted",
    re.I,
)


def refuses_us(code: int, said: str, relay: SmtpOut) -> str | None:
    """A refusal (CODE, SAID) of MAIL or RCPT that is the relay refusing to take mail from this
    host at all (no login, or not allowed to relay), said as one line naming the keys; None for
    anything else. Such a refusal is ours to fix, not the recipient's: every row would get it,
    so the mail waits instead of failing for good (a relay wanting AUTH failed every reply)."""
    if code == 530 or _WANTS_LOGIN.search(said):
        if relay.username:
            return (
                f"relay {relay.host}:{relay.port} refuses mail from {relay.username} ({code} "
                f"{said}): "
                "check [smtp_out] username and password_file, and that the relay lets that login "
                "send"
            )
        tls = "" if relay.starttls else " (and starttls = true if it logs in only over TLS)"
        return (
            f"relay {relay.host}:{relay.port} wants a login ({code} {said}): "
            f"set [smtp_out] username and password_file{tls}"
        )
    if _NO_RELAY.search(said):
        login = "" if relay.username else ", or log in with [smtp_out] username and password_file"
        return (
            f"relay {relay.host}:{relay.port} does not relay for this host ({code} {said}): "
            f"let it relay for this host (Postfix: mynetworks){login}"
        )
    return None
