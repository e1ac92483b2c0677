"""Never talk to machines (SPEC §2.2): the reason a message must get no reply, if any, and
for bounces the addresses they report."""

from __future__ import annotations

import re
from email.message import Message

_PRECEDENCE = {"bulk", "junk", "list", "auto_reply"}
_DAEMONS = re.compile(r"^(mailer-daemon|postmaster|mail-daemon|mailerdaemon|noreply-dmarc-support)@", re.I)
_BOUNCE_SUBJECT = re.compile(
    r"(undeliver|delivery status notification|delivery (has )?failed|returned mail|mail delivery failed|"
    r"failure notice|non[- ]?delivery)", re.I)


def machine_verdict(msg: Message, headers: dict[str, str], from_addr: str | None,
                    own_address: str, loop_header: str) -> tuple[str | None, list[str]]:
    """(reason, bounced addresses). Header names are compared lower-cased."""
    own = own_address.lower()
    if loop_header.lower() in headers:
        return "carries mailref's own loop header", []
    if own and from_addr == own:
        return "sent from mailref's own address", []
    ctype = msg.get_content_type()
    sender = from_addr or ""
    is_report = ctype == "multipart/report"
    is_daemon = bool(_DAEMONS.match(sender))
    if is_report or is_daemon or _BOUNCE_SUBJECT.search(headers.get("subject", "")) and headers.get("return-path", "").strip() == "<>":
        return ("delivery report" if is_report else "bounce"), _bounced(msg)
    auto = headers.get("auto-submitted", "").strip().lower()
    if auto and auto.split(";")[0].strip() != "no":
        return f"Auto-Submitted: {auto}", []
    prec = headers.get("precedence", "").strip().lower()
    if prec in _PRECEDENCE:
        return f"Precedence: {prec}", []
    if "x-auto-response-suppress" in headers:
        return "X-Auto-Response-Suppress", []
    if headers.get("return-path", "").strip() == "<>":
        return "null Return-Path", []
    if not from_addr:
        return "no From address", []
    return None, []


def _bounced(msg: Message) -> list[str]:
    try:
        from flufl.bounce import scan_message

        found = scan_message(msg)
    except Exception:
        found = set()
    out = []
    for a in found:
        a = a.decode("utf-8", "replace") if isinstance(a, bytes) else str(a)
        a = a.strip().strip("<>").lower()
        if "@" in a:
            out.append(a)
    return sorted(set(out))
