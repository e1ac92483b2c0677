"""What went wrong with the relay, in one line an operator can act on (SPEC §7): the relay's
own words without Python's b'...', and for TLS which key or certificate to look at."""

from __future__ import annotations

import smtplib
import ssl

from mailref.config import SmtpOut


def relay_trouble(e: BaseException, relay: SmtpOut) -> str:
    """E, raised while connecting to RELAY (greeting, STARTTLS, login), as one line."""
    if isinstance(e, ssl.SSLCertVerificationError):
        return (f"its certificate is not trusted ({e.verify_message or e}): it must name {relay.host!r} "
                f"([smtp_out] host) and come from a known CA (SSL_CERT_FILE names another)")
    if isinstance(e, ssl.SSLError):
        return f"TLS failed ({e.reason or e}): does it offer STARTTLS on port {relay.port}? ([smtp_out] starttls)"
    if isinstance(e, smtplib.SMTPNotSupportedError) and "STARTTLS" in str(e):
        return f"it does not offer STARTTLS on port {relay.port}: set [smtp_out] starttls = false, or use a relay that does"
    if isinstance(e, smtplib.SMTPResponseException):
        said = e.smtp_error.decode("utf-8", "replace") if isinstance(e.smtp_error, bytes) else str(e.smtp_error)
        return f"it said {e.smtp_code} {said}"
    return str(e) or type(e).__name__
