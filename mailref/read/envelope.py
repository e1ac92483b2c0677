"""Raw bytes -> Envelope: who sent it, to whom, what subject and tag, the clean text of the
sender's own words, bold spans, and whether a machine sent it. Never raises on bad mail."""

from __future__ import annotations

import email
import email.parser
import email.policy
import email.utils
import hashlib
import re
from dataclasses import dataclass, field
from email.header import decode_header, make_header
from email.message import Message
from functools import lru_cache

from mailref.read.bold import bold_orders
from mailref.read.flowed import unflow
from mailref.read.html import html_texts
from mailref.read.identity import parse_mailbox
from mailref.read.limits import HEADER_MAX, too_many_parts, was_cut
from mailref.read.lists import list_post_address
from mailref.read.loops import machine_verdict
from mailref.read.quotes import own_words
from mailref.read.subject import Subject, parse_subject


@dataclass
class Envelope:
    message_id: str | None
    sha256: str
    from_addr: str | None  # the From addr-spec, normalised (identity.py); None when it names no one
    from_name: str
    reply_to: str | None
    recipients: list[str]  # every address it was sent to, lower-cased
    subject_line: str  # the Subject header as text; read as `subject` where the mail is routed
    date: str | None
    in_reply_to: list[str]
    references: list[str]
    list_id: str | None
    body: str  # the whole readable body (quotes included)
    text: str  # the sender's own words
    orders: list[str]  # bold sentences in the sender's own words
    machine: str | None  # why no reply may go back (SPEC §2.2), else None
    bounce_for: list[str] = field(default_factory=list)  # addresses a bounce reports
    attachments: int = 0
    defects: list[str] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)
    from_problem: str | None = None  # why From names no one sender (two addresses, two headers ...)
    auth_results: list[str] = field(
        default_factory=list
    )  # Authentication-Results values, top first
    truncated: bool = False  # the body is longer than reading looks at (limits.py)
    _subject: Subject | None = field(default=None, repr=False, compare=False)

    @property
    def subject(self) -> Subject:
        """The subject as read where the mail was routed: routing reads it once with its game's
        labels (mailref/routing.py) and sets it; read here without them for mail of no game."""
        if self._subject is None:
            self._subject = parse_subject(self.subject_line)
        return self._subject

    @subject.setter
    def subject(self, subject: Subject | None) -> None:
        self._subject = subject


def clean(value: object) -> str:
    """A header as text: RFC 2047 decoded, 8-bit bytes repaired, no line breaks."""
    if value is None:
        return ""
    s = _eight_bit(str(value))
    if "=?" in s:  # only an encoded word needs decoding; without one, decoding returns S as it is
        try:
            s = str(make_header(decode_header(s)))
        except Exception:
            pass
    return " ".join(s.replace("\x00", "").split())


def _eight_bit(s: str) -> str:
    """S with the 8-bit bytes compat32 kept as surrogates read as text: UTF-8, as RFC 6532
    headers are (the listener offers SMTPUTF8, so clients send them), else Windows-1252, the
    charset of old clients that wrote 8-bit headers before there was a rule."""
    if s.isascii():
        return s
    raw = s.encode("utf-8", "surrogateescape")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("cp1252", "replace")


def _decode_part(part: Message) -> str:
    try:
        payload = part.get_payload(decode=True)
    except Exception:
        payload = None
    if not isinstance(payload, bytes):
        raw = part.get_payload()
        return raw if isinstance(raw, str) else ""
    charset = (part.get_content_charset() or "utf-8").lower()
    for cs in (charset, "utf-8", "cp1252"):
        try:
            return payload.decode(cs).replace("\x00", "")
        except (LookupError, UnicodeDecodeError):
            continue
    return payload.decode("utf-8", "replace").replace("\x00", "")


def _is_attachment(part: Message) -> bool:
    disp = (part.get("Content-Disposition") or "").lower()
    return (
        disp.startswith("attachment")
        or bool(part.get_param("name"))
        and not part.get_content_type().startswith("text/")
    )


def body_text(msg: Message) -> tuple[str, int]:
    """The text/plain part, else the HTML part as text; and how many attachments were skipped."""
    plain, html, attachments = body_parts(msg)
    if plain is not None and plain.strip():
        return plain, attachments
    return html_texts(html)[0] if html is not None else (plain or ""), attachments


def body_parts(msg: Message) -> tuple[str | None, str | None, int]:
    """(text/plain, the HTML part's source, attachments skipped)."""
    plain = html = None
    attachments = 0
    for part in msg.walk() if msg.is_multipart() else [msg]:
        if part.is_multipart():
            continue
        ctype = part.get_content_type()
        if _is_attachment(part):
            attachments += 1
            continue
        if ctype == "text/plain" and plain is None:
            plain = _decode_part(part)
            if str(part.get_param("format") or "").lower() == "flowed":
                plain = unflow(plain, delsp=str(part.get_param("delsp") or "").lower() == "yes")
        elif ctype == "text/html" and html is None:
            html = _decode_part(part)
        elif ctype not in ("text/plain", "text/html"):
            attachments += 1
    return plain, html, attachments


def _addresses(values: list[object]) -> list[str]:
    return list(_addresses_of(tuple(str(v) for v in values)))


# Players' mail carries the same To and Cc lines again and again (the game's address), so each
# distinct set of lines is parsed once, as From lines are (identity.py).
@lru_cache(maxsize=4096)
def _addresses_of(values: tuple[str, ...]) -> tuple[str, ...]:
    out: dict[str, None] = {}  # ordered, and a membership test in constant time
    for _name, addr in email.utils.getaddresses([clean(v) for v in values]):
        addr = addr.strip().strip("<>").lower()
        if "@" in addr:
            out[addr] = None
    return tuple(out)


def _ids(value: str) -> list[str]:
    return re.findall(r"<[^<>\s]+>", value or "")


def read_envelope(
    raw: bytes,
    rcpt_to: list[str] | None = None,
    own_address: str = "",
    loop_header: str = "X-Mailref-Loop",
    null_sender: bool = False,
) -> Envelope:
    """Read RAW as a player wrote it. Bad MIME, charsets, NULs and long lines all yield an
    Envelope (with `defects`) rather than an exception. NULL_SENDER: it came with
    `MAIL FROM:<>` (machine mail, SPEC §2.2)."""
    sha = hashlib.sha256(raw).hexdigest()
    cut = raw.find(b"\r\n\r\n")
    cut = raw.find(b"\n\n") if cut < 0 else cut
    cut = cut if cut >= 0 else len(raw)
    parts = too_many_parts(raw, cut)
    try:
        # compat32 is an order of magnitude faster than policy.default (see shared notes).
        msg = email.message_from_bytes(raw, policy=email.policy.compat32) if not parts else None
    except RecursionError:  # the parser recurses once per level of nesting
        msg, parts = None, raw.count(b"\n--", cut)
    if msg is None:
        # Only the header: its parts would hold the referee for minutes (limits.py).
        msg = email.parser.BytesHeaderParser(policy=email.policy.compat32).parsebytes(
            raw[: cut + 4]
        )
    defects = [type(d).__name__ for d in msg.defects] + (
        [f"too many MIME parts ({parts} boundary lines)"] if parts else []
    )
    # Raw values: compat32's items() turn an 8-bit header into a Header whose text is U+FFFD.
    raw_headers = [
        (k, v[-HEADER_MAX:] if k.lower() == "references" else v[:HEADER_MAX])
        for k, v in msg.raw_items()
    ]
    headers = {k.lower(): clean(v) for k, v in raw_headers}
    # Identity from the raw header, never from decoded text (see identity.py).
    sender = parse_mailbox([v for k, v in raw_headers if k.lower() == "from"])
    from_addr, from_name = sender.address, sender.display_name
    reply_to = None
    if "reply-to" in headers:
        reply_to = parse_mailbox(
            [v for k, v in raw_headers if k.lower() == "reply-to"], "Reply-To"
        ).address
    recipients = list(
        dict.fromkeys(
            [a.lower() for a in (rcpt_to or [])]
            + _addresses(
                [
                    v
                    for name in ("to", "cc", "delivered-to", "x-original-to")
                    for k, v in raw_headers
                    if k.lower() == name
                ]
            )
        )
    )
    mid = _ids(headers.get("message-id", ""))
    try:
        plain, html, attachments = body_parts(msg) if not parts else ("", None, parts // 2)
    except Exception as e:  # a truncated or contradictory MIME tree: say so, keep going
        defects.append(f"body: {type(e).__name__}")
        plain, html, attachments = "", None, 0
    # The HTML part's quotes are removed as HTML (html.py), then the text rules run as well.
    html_full, html_own = html_texts(html) if html is not None else (None, None)
    if plain is not None and plain.strip():
        body, text = plain, own_words(plain)
    else:
        body, text = html_full if html_full is not None else plain or "", own_words(html_own or "")
    # Bold lives in the HTML part: a client's plain alternative often drops it (Outlook does).
    html_words = (
        text if body is html_full else own_words(html_own) if html_own is not None else None
    )
    orders = bold_orders(html_words) if html_words is not None else []
    orders = orders or bold_orders(text)
    list_id = None
    if m := re.search(r"<([^>]+)>", headers.get("list-id", "")):
        list_id = m.group(1).lower()
    if reply_to and reply_to == list_post_address(headers):
        # a list that sets Reply-To to itself: the answer is for the sender only (SPEC §2.6)
        reply_to = None
    verdict, bounced = machine_verdict(
        msg, headers, from_addr, own_address, loop_header, recipients, null_sender, raw, cut
    )
    return Envelope(
        message_id=mid[0] if mid else None,
        sha256=sha,
        from_addr=from_addr,
        from_name=clean(from_name),
        from_problem=sender.problem,
        auth_results=[str(v) for k, v in raw_headers if k.lower() == "authentication-results"],
        truncated=bool(parts) or was_cut(body),
        reply_to=reply_to,
        recipients=recipients,
        subject_line=headers.get("subject", ""),
        date=headers.get("date"),
        in_reply_to=_ids(headers.get("in-reply-to", "")),
        references=_ids(headers.get("references", "")),
        list_id=list_id,
        body=body,
        text=text,
        orders=orders,
        machine=verdict,
        bounce_for=bounced,
        attachments=attachments,
        defects=defects,
        headers=headers,
    )
