"""Well-formed outgoing mail: Message-ID, Date, In-Reply-To/References on replies,
Auto-Submitted and the loop header on everything, no header injection from player text.
Built with the compat32 classes: the modern EmailMessage API costs several times more per
mail and this runs for every reply."""

from __future__ import annotations

import email.utils
from datetime import datetime
from email import encoders
from email.charset import QP, Charset
from email.header import Header
from email.message import Message
from email.mime.base import MIMEBase
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText

LOOP_HEADER = "X-Mailref-Loop"
_UTF8 = Charset("utf-8")
_UTF8.body_encoding = QP  # readable in any client's "view source", safe for long lines


def header_safe(value: str, limit: int = 300) -> str:
    """Player-supplied text in a header: one line, no control characters, bounded."""
    s = " ".join(str(value).replace("\x00", "").split())
    s = "".join(ch for ch in s if ch >= " ")
    return s[:limit]


def _text(body: str, subtype: str = "plain") -> MIMEText:
    part = MIMEText("", subtype)
    part.set_payload(body, _UTF8)
    return part


def _h(value: str) -> str | Header:
    return value if value.isascii() else Header(value, "utf-8")


def compose(*, sender: str, to: str, subject: str, body: str, kind: str, game: str | None,
            now: datetime, reply: bool = False, in_reply_to: str | None = None,
            references: list[str] | None = None, html: str | None = None,
            attachments: list[tuple[str, str, bytes]] | None = None) -> Message:
    msg: Message = _text(body)
    if html:
        alt = MIMEMultipart("alternative")
        alt.attach(msg)
        alt.attach(_text(html, "html"))
        msg = alt
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
    msg["From"] = sender
    msg["To"] = header_safe(to)
    msg["Subject"] = _h(header_safe(subject))
    msg["Date"] = email.utils.format_datetime(now)
    domain = sender.rpartition("@")[2] or "localhost"
    msg["Message-ID"] = email.utils.make_msgid(domain=domain)
    msg["Auto-Submitted"] = "auto-replied" if reply else "auto-generated"
    msg[LOOP_HEADER] = sender
    if game:
        msg["X-Mailref-Game"] = header_safe(game)
    msg["X-Mailref-Kind"] = kind
    if in_reply_to:
        msg["In-Reply-To"] = header_safe(in_reply_to, 998)
        refs = [r for r in (references or []) if r != in_reply_to][-10:] + [in_reply_to]
        msg["References"] = header_safe(" ".join(refs), 998)
    return msg
