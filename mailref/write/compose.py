"""Well-formed outgoing mail: Message-ID, Date, In-Reply-To/References on replies,
Auto-Submitted and the loop header on everything, no header injection from player text.
Built with the compat32 classes: the modern EmailMessage API costs several times more per
mail and this runs for every reply."""

from __future__ import annotations

import email.policy
import email.utils
import re
from datetime import datetime
from email import encoders
from email.charset import QP, Charset
from email.header import Header
from email.message import Message
from email.mime.base import MIMEBase
from email.mime.multipart import MIMEMultipart
from email.mime.nonmultipart import MIMENonMultipart
from email.policy import Compat32
from functools import lru_cache
from typing import Any

LOOP_HEADER = "X-Mailref-Loop"
_UTF8 = Charset("utf-8")
_UTF8.body_encoding = QP  # readable in any client's "view source", safe for long lines


def header_safe(value: str, limit: int = 300) -> str:
    """Player-supplied text in a header: one line, no control characters, bounded. Bidi
    embeddings, overrides and isolates go too: a title starting with U+202E reversed the rest
    of the subject after it ("[Proposal 12] …"), and a header has no markup to isolate them."""
    s = " ".join(str(value).replace("\x00", "").split())
    return _UNSAFE.sub("", s)[:limit] if _UNSAFE.search(s) else s[:limit]


# Control characters and the bidi embeddings, overrides and isolates. One regex, not a test of
# each character: every header of every mail passes here (a twentieth of composing a reply).
_UNSAFE = re.compile("[\x00-\x1f\u202a-\u202e\u2066-\u2069]")


# Bidi embeddings, overrides and isolates in a mail's text. A proposal titled "Hats \u202eecilA yb"
# was announced as `Proposal 1: "Hats \u202eecilA yb" by Carol`, which a mail client shows as
# `Proposal 1: "Hats loraC yb "by Alice`: a player could pass a text off as another's. Plain text
# has no markup to isolate them with (the pages do, site/pages.py), so they go, as in headers;
# Hebrew and Arabic still read right to left by the implicit bidi algorithm.
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")


def _text(body: str, subtype: str = "plain") -> MIMENonMultipart:
    if _BIDI.search(body):
        body = _BIDI.sub("", body)
    # Not MIMEText: it fixes "7bit" before the charset is set, and set_payload then leaves
    # 8-bit UTF-8 (and lines of any length) under that label, which relays refuse.
    part = MIMENonMultipart("text", subtype)
    part.set_payload(body.replace("\r\n", "\n").replace("\r", "\n"), _UTF8)
    return part


@lru_cache(maxsize=1024)  # a game's mail always comes from the same sender
def _from(sender: str) -> str:
    """A display name is encoded (RFC 2047) when it is not ASCII and quoted when it must be."""
    name, addr = email.utils.parseaddr(sender)
    if not name:
        return addr or sender
    return email.utils.formataddr((header_safe(name, 78), addr), charset="utf-8")


def _h(value: str, name: str) -> str | Header:
    # The header's name is given so that the first line's encoded word leaves room for it.
    # Text that holds "=?" is encoded too: a player's subject that decodes to a literal
    # encoded word would otherwise be decoded again by the reader's client (to "\r\nBcc: …").
    return (
        value if value.isascii() and "=?" not in value else Header(value, "utf-8", header_name=name)
    )


def compose(
    *,
    sender: str,
    to: str,
    subject: str,
    body: str,
    kind: str,
    game: str | None,
    now: datetime,
    reply: bool = False,
    in_reply_to: str | None = None,
    references: list[str] | None = None,
    html: str | None = None,
    attachments: list[tuple[str, str, bytes]] | None = None,
    loop: str | None = None,
    inline: list[tuple[str, str, str, bytes]] | None = None,
    message_id: str | None = None,
    headers: dict[str, str] | None = None,
) -> Message:
    """SENDER is the From header (the game's "Name <address>", or the referee's address);
    LOOP the referee's own address for the loop header (default: SENDER's address); HEADERS
    more headers (Reply-To, the list headers)."""
    msg: Message = _text(body)
    if html:
        alt = MIMEMultipart("alternative")
        alt.attach(msg)
        alt.attach(_text(html, "html"))
        msg = alt
    if inline:  # (content id, filename, mime, data): pictures the HTML shows as cid:ID
        related = MIMEMultipart("related")
        related.attach(msg)
        for cid, name, mime, data in inline:
            maintype, _, subtype = mime.partition("/")
            part = MIMEBase(maintype, subtype)
            part.set_payload(data)
            encoders.encode_base64(part)
            part.add_header("Content-ID", f"<{cid}>")
            part.add_header("Content-Disposition", "inline", filename=name)
            related.attach(part)
        msg = related
    if attachments:
        mixed = MIMEMultipart("mixed")
        mixed.attach(msg)
        for name, mime, data in attachments:
            maintype, _, subtype = mime.partition("/")
            if maintype == "text":
                part = _text(data.decode("utf-8"), subtype)
            else:
                part = MIMEBase(maintype, subtype)
                part.set_payload(data)
                encoders.encode_base64(part)
            part.add_header("Content-Disposition", "attachment", filename=name)
            mixed.attach(part)
        msg = mixed
    msg["From"] = _from(sender)
    to = header_safe(to)
    msg["To"] = to
    # A non-ASCII local part travels with SMTPUTF8, its headers UTF-8 as written (RFC 6532):
    # the subject raw too (an encoded word would do, but UTF-8 is what such a reader expects).
    subject = header_safe(subject)
    raw = not to.isascii() and "=?" not in subject
    # compat32 takes a Header object as a header's value; the stubs say str only
    msg["Subject"] = subject if raw else _h(subject, "Subject")  # type: ignore[assignment]
    msg["Date"] = email.utils.format_datetime(now)
    address = email.utils.parseaddr(sender)[1] or sender
    domain = address.rpartition("@")[2] or "localhost"
    msg["Message-ID"] = message_id or email.utils.make_msgid(domain=domain)
    msg["Auto-Submitted"] = "auto-replied" if reply else "auto-generated"
    msg[LOOP_HEADER] = loop or address
    # On everything (SPEC §2.6), empty on mail that belongs to no game (the referee's help).
    msg["X-Mailref-Game"] = header_safe(game or "")
    msg["X-Mailref-Kind"] = kind
    if in_reply_to:
        msg["In-Reply-To"] = header_safe(in_reply_to, 998)
        refs = [r for r in (references or []) if r != in_reply_to][-10:] + [in_reply_to]
        msg["References"] = header_safe(" ".join(refs), 998)
    for name, value in (headers or {}).items():
        msg[name] = header_safe(value, 998)
    return msg


# A header line that already fits: printable ASCII words separated by single spaces. The
# compat32 folder (a Header object per line) gives exactly `Name: value` for these (checked
# against it on random values in tests/test_fast_paths.py) and was most of `wire`'s time.
_FITS = re.compile(r"[\x21-\x7e]+(?: [\x21-\x7e]+)*\Z")


class _Wire(Compat32):
    def fold_binary(self, name: str, value: Any) -> bytes:
        if (
            isinstance(value, str)
            and self.max_line_length is not None
            and len(name) + 2 + len(value) <= self.max_line_length
            and _FITS.match(value)
        ):
            return f"{name}: {value}{self.linesep}".encode("ascii")
        if isinstance(value, Header):
            # RFC 2047 §2: an encoded word is at most 75 characters. Folded at 78, compat32
            # writes words of up to 77 on continuation lines; at 76 they stay within 75.
            return (
                f"{name}: "
                f"{value.encode(linesep=self.linesep, maxlinelen=_ENCODED_LINE)}{self.linesep}"
            ).encode("ascii")
        return super().fold_binary(name, value)


_ENCODED_LINE = 76


_WIRE = _Wire(linesep="\r\n", max_line_length=78)
# Only for mail to an address with a non-ASCII local part, which goes with SMTPUTF8 anyway:
# compat32 would write its To header as an encoded word, which is no address at all.
_WIRE_UTF8 = email.policy.SMTPUTF8.clone(linesep="\r\n", max_line_length=78)


def wire(msg: Message) -> bytes:
    """MSG as a relay takes it: CRLF line ends, headers folded, bodies already encoded
    (quoted-printable text, base64 binaries), so no line exceeds 998 octets."""
    for part in msg.walk():
        if part is not msg and "MIME-Version" in part:
            del part["MIME-Version"]
    to = msg["To"]
    return msg.as_bytes(policy=_WIRE if to is None or str(to).isascii() else _WIRE_UTF8)
