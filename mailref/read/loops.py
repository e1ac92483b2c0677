"""Never talk to machines (SPEC §2.2): the reason a message must get no reply, if any, and
for bounces the addresses they report."""

from __future__ import annotations

import functools
import logging
import re
from email.message import Message

from mailref.read.route import base_address

_PRECEDENCE = {"bulk", "junk", "list", "auto_reply"}
_DAEMONS = re.compile(r"^(mailer-daemon|postmaster|mail-daemon|mailerdaemon|noreply-dmarc-support)@", re.I)
# Matched against the subject as decoded from RFC 2047 ("=?utf-8?q?Delivery_failure?=").
_BOUNCE_SUBJECT = re.compile(
    r"(undeliver|delivery status notification|delivery (has )?failed|delivery failure|failed delivery|"
    r"failure delivery|returned mail|mail delivery failed|failure notice|non[- ]?delivery|"
    r"mail could not be delivered|not delivered|delivery problem|failed mail)", re.I)
# Parts only a mail system attaches: the returned message, its headers, a delivery status.
_RETURNED = {"message/rfc822", "text/rfc822-headers", "message/delivery-status", "message/global",
             "message/global-headers", "message/global-delivery-status"}
# Words every bounce flufl.bounce recognises carries somewhere in its body. Running its
# detectors costs a few milliseconds, more than reading a whole mail, so a person's vote
# (which has none of these words) never pays for it.
# Plain substring tests of the lower-cased body: a case-insensitive regex alternation
# costs a millisecond a mail, these a few microseconds.
_BOUNCE_WORDS = (b"deliver", b"recipient", b"address", b"fail", b"error", b"return", b"unknown", b"reject",
                 b"no such", b"mailbox", b"bounce", b"daemon")
log = logging.getLogger("mailref.loops")


def machine_verdict(msg: Message, headers: dict[str, str], from_addr: str | None, own_address: str,
                    loop_header: str, recipients: list[str] | None = None, null_sender: bool = False,
                    raw: bytes = b"", body_at: int = 0) -> tuple[str | None, list[str]]:
    """(reason, bounced addresses). Header names are compared lower-cased; HEADERS hold
    decoded values. NULL_SENDER: the SMTP listener saw `MAIL FROM:<>`. RAW[BODY_AT:]: the raw body."""
    own = _base(own_address) if own_address else ""
    if loop_header.lower() in headers:
        return "carries mailref's own loop header", []
    if own and from_addr and (from_addr == own or "+" in from_addr and base_address(from_addr) == own):
        return "sent from mailref's own address", []
    if own and any("+" in r and base_address(r) == own for r in recipients or ()):
        return "sent to a +tag of mailref's own address (a return path, never a person)", []
    ctype = msg.get_content_type()
    is_report = ctype == "multipart/report"
    null_return = headers.get("return-path", "").strip() == "<>"
    bounce_subject = bool(_BOUNCE_SUBJECT.search(headers.get("subject", "")))
    signs = is_report or bool(_DAEMONS.match(from_addr or "")) or "x-failed-recipients" in headers \
        or bounce_subject and (null_return or null_sender or _returns_a_message(msg))
    if signs or null_sender or _has_bounce_words(raw, body_at):
        found = _failures(msg)
        if found or signs:
            return ("delivery report" if is_report else "bounce"), found
    auto = headers.get("auto-submitted", "").strip().lower()
    if auto and auto.split(";")[0].strip() != "no":
        return f"Auto-Submitted: {auto}", []
    prec = headers.get("precedence", "").strip().lower()
    if prec in _PRECEDENCE:
        return f"Precedence: {prec}", []
    if "x-auto-response-suppress" in headers:
        return "X-Auto-Response-Suppress", []
    if null_return:
        return "null Return-Path", []
    if null_sender:
        return "null reverse-path (MAIL FROM:<>)", []
    if not from_addr:
        return "no From address", []
    return None, []


def _has_bounce_words(raw: bytes, body_at: int) -> bool:
    # A failed recipient is an address written in the body (a header naming one, such as
    # X-Failed-Recipients, is a sign of its own): no "@", nothing for the detectors to find.
    if raw.find(b"@", body_at) < 0:
        return False
    low = raw[body_at:body_at + 200_000].lower()
    return any(w in low for w in _BOUNCE_WORDS)


@functools.lru_cache(maxsize=64)
def _base(address: str) -> str:
    return base_address(address)


def _returns_a_message(msg: Message) -> bool:
    return msg.is_multipart() and any(p.get_content_type() in _RETURNED for p in msg.walk())


def _failures(msg: Message) -> list[str]:
    """Every address flufl.bounce finds failing, permanently or for now."""
    try:
        from flufl.bounce import all_failures

        temporary, permanent = all_failures(msg)
    except Exception:  # a detector tripping over odd mail must not lose the mail
        log.warning("flufl.bounce could not scan a message", exc_info=True)
        return []
    out = []
    for a in set(temporary) | set(permanent):
        a = a.decode("utf-8", "replace") if isinstance(a, bytes) else str(a)
        a = a.strip().strip("<>").lower()
        if "@" in a:
            out.append(a)
    return sorted(set(out))
