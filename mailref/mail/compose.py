"""Well-formed outgoing mail: Message-ID, Date, In-Reply-To/References on replies,
Auto-Submitted and the loop header on everything, no header injection from player text."""

from __future__ import annotations

import email.policy
import email.utils
from datetime import datetime
from email.message import EmailMessage

LOOP_HEADER = "X-Mailref-Loop"


def header_safe(value: str, limit: int = 300) -> str:
    """Player-supplied text in a header: one line, no control characters, bounded."""
    s = " ".join(str(value).replace("\x00", "").split())
    s = "".join(ch for ch in s if ch >= " ")
    return s[:limit]


def compose(*, sender: str, to: str, subject: str, body: str, kind: str, game: str | None,
            now: datetime, reply: bool = False, in_reply_to: str | None = None,
            references: list[str] | None = None, html: str | None = None,
            attachments: list[tuple[str, str, bytes]] | None = None) -> EmailMessage:
    msg = EmailMessage(policy=email.policy.SMTP)
    msg["From"] = sender
    msg["To"] = header_safe(to)
    msg["Subject"] = header_safe(subject)
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
    msg.set_content(body, charset="utf-8")
    if html:
        msg.add_alternative(html, subtype="html", charset="utf-8")
    for name, mime, data in attachments or []:
        maintype, _, subtype = mime.partition("/")
        msg.add_attachment(data, maintype=maintype, subtype=subtype, filename=name)
    return msg
