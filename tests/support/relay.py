"""Every mail any test causes goes through a real relay (SPEC §4.3): an aiosmtpd Controller
with its default limits (data size, 998 octets + CRLF a line) plus a conformance check that
a relay would not do for us (CRLF only, Date, Message-ID, MIME-Version, a transfer encoding
for every 8-bit body, parseable by `email.policy.default` without defects).

Like a real relay with `enable_SMTPUTF8=True` (Postfix's smtputf8_enable, the default), it
offers SMTPUTF8: a mail to an address whose local part is not ASCII is passed with it, and
only such a mail may carry UTF-8 headers (RFC 6532); any other 8-bit header is refused.

The autouse fixture in conftest.py collects, after each test, the outbox rows of every store
the test opened in this process, every SQLite file and every Maildir under its tmp_path (what
CLI and daemon subprocesses wrote), and passes them over ONE SMTP connection. A mail that
fails fails the test that caused it."""

from __future__ import annotations

import email
import email.errors
import email.policy
import email.utils
import hashlib
import mailbox
import re
import smtplib
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from aiosmtpd.controller import Controller

from support.dovecot import free_port
from support.parsed import DEFAULT, SMTPUTF8

MAX_LINE = 998


class _Sink:
    def __init__(self) -> None:
        self.received = 0

    async def handle_DATA(self, server, session, envelope) -> str:
        self.received += 1
        return "250 OK"


@dataclass
class Relay:
    """A session-wide standard relay; `check` returns what it (or the conformance check) refused."""

    controller: Controller
    sink: _Sink
    checked: set[str] = field(default_factory=set)

    @classmethod
    def start(cls) -> Relay:
        sink = _Sink()
        # Default limits on purpose: data_size_limit 32 MiB, line_length_limit 1001.
        c = Controller(sink, hostname="127.0.0.1", port=free_port(), enable_SMTPUTF8=True)
        c.start()
        return cls(c, sink)

    def stop(self) -> None:
        self.controller.stop()

    def check(self, mails: list[tuple[str, bytes]]) -> list[str]:
        problems: list[str] = []
        todo = []
        for label, raw in mails:
            sha = hashlib.sha256(raw).hexdigest()
            if sha in self.checked:
                continue
            self.checked.add(sha)
            problems += [f"{label}: {p}" for p in conformance(raw)]
            todo.append((label, raw))
        if not todo:
            return problems
        with smtplib.SMTP(self.controller.hostname, self.controller.port, timeout=30) as smtp:
            for label, raw in todo:
                to, options = "player@players.example", []
                if needs_smtputf8(raw):
                    to, options = _to(raw), ["SMTPUTF8"]
                try:
                    refused = smtp.sendmail("referee@ref.example", [to], raw, mail_options=options)
                    if refused:
                        problems.append(f"{label}: relay refused recipients {refused}")
                except smtplib.SMTPResponseException as e:
                    problems.append(f"{label}: relay said {e.smtp_code} {e.smtp_error!r}")
                    smtp.rset()
        return problems


RAW_TIME = re.compile(r"\b\d{4}-\d\d-\d\dT\d\d:\d\d")


def conformance(raw: bytes) -> list[str]:
    """What makes RAW unfit for a standard relay or a strict reader (RFC 5322, MIME)."""
    out = []
    lines = raw.split(b"\r\n")
    if any(b"\n" in ln or b"\r" in ln for ln in lines):
        out.append("a bare LF or CR (lines must end CRLF)")
    long = [i for i, ln in enumerate(lines, 1) if len(ln) > MAX_LINE]
    if long:
        out.append(f"line {long[0]} is {len(lines[long[0] - 1])} octets (at most {MAX_LINE})")
    harmless: tuple[type, ...] = ()
    if needs_smtputf8(raw):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            return out + ["8-bit headers that are not UTF-8"]
        if _to(raw).partition("@")[0].isascii():
            return out + [
                "UTF-8 headers (RFC 6532) in a mail to an ASCII address, which needs no SMTPUTF8"
            ]
        msg = email.message_from_string(text, policy=SMTPUTF8)
        harmless = (email.errors.NonASCIILocalPartDefect,)  # what RFC 6532 allows
    else:
        msg = email.message_from_bytes(raw, policy=DEFAULT)
    for h in ("Date", "Message-ID", "MIME-Version", "From", "To", "Subject"):
        if msg[h] is None:
            out.append(f"no {h} header")
    for name, value in msg.items():
        for d in getattr(value, "defects", ()):
            if not isinstance(d, harmless):
                out.append(f"header {name}: {type(d).__name__}")
    for part in msg.walk():
        out += [f"{part.get_content_type()}: {type(d).__name__}" for d in part.defects]
        if part.is_multipart():
            continue
        cte = (part["Content-Transfer-Encoding"] or "7bit").lower()
        payload = part.get_payload()
        if isinstance(payload, str) and cte in ("7bit", "8bit", "binary") and not payload.isascii():
            out.append(
                f"{part.get_content_type()}: 8-bit text with Content-Transfer-Encoding {cte}"
            )
        if cte not in ("7bit", "quoted-printable", "base64", "8bit"):
            out.append(f"{part.get_content_type()}: Content-Transfer-Encoding {cte}")
        if part.get_content_type() == "text/plain" and (iso := RAW_TIME.search(part.get_content())):
            out.append(
                f"text/plain: the raw time {iso.group()!r} (SPEC §2.6: times are written for "
                "people)"
            )
    if iso := RAW_TIME.search(str(msg["Subject"] or "")):
        out.append(
            f"Subject: the raw time {iso.group()!r} (SPEC §2.6: times are written for people)"
        )
    return out


def needs_smtputf8(raw: bytes) -> bool:
    """8-bit octets in the header section: a mail that can only travel with SMTPUTF8."""
    end = raw.find(b"\r\n\r\n")
    return not raw[: end if end >= 0 else len(raw)].isascii()


def _to(raw: bytes) -> str:
    msg = email.message_from_string(raw.decode("utf-8", "replace"), policy=email.policy.compat32)
    return email.utils.parseaddr(msg["To"] or "")[1]


def outbox_rows(url_or_path) -> list[tuple[str, bytes]]:
    """(label, raw) of every outbox row in a SQLite file."""
    try:
        con = sqlite3.connect(f"file:{url_or_path}?mode=ro", uri=True, timeout=10)
    except sqlite3.Error:
        return []
    try:
        rows = con.execute("SELECT id, kind, raw FROM outbox").fetchall()
    except sqlite3.Error:
        return []
    finally:
        con.close()
    return [(f"{Path(url_or_path).name} outbox #{i} ({kind})", bytes(raw)) for i, kind, raw in rows]


def engine_rows(engine) -> list[tuple[str, bytes]]:
    """(label, raw) of every outbox row of a store this process opened (any database)."""
    from sqlalchemy import text

    try:
        with engine.connect() as c:
            rows = c.execute(text("SELECT id, kind, raw FROM outbox")).all()
    except Exception:
        return []
    return [(f"{engine.url.database} outbox #{i} ({kind})", bytes(raw)) for i, kind, raw in rows]


def maildir_files(root: Path) -> list[tuple[str, bytes]]:
    """Every message file of every Maildir under ROOT, in the wire form (the Maildir holds
    LF line ends, SPEC §4.3; a program that sends one on writes CRLF)."""
    out = []
    for cur in root.rglob("cur"):
        box = cur.parent
        if not (box / "new").is_dir() or not (box / "tmp").is_dir():
            continue
        try:
            for key in mailbox.Maildir(str(box), create=False).keys():
                for sub in ("new", "cur"):
                    for f in (box / sub).glob(f"{key}*"):
                        raw = f.read_bytes().replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
                        out.append((f"maildir {f.relative_to(root)}", raw))
        except OSError:
            continue
    return out


def sqlite_files(root: Path) -> list[Path]:
    return [p for p in root.rglob("*.sqlite3") if p.is_file()]
