"""What went wrong with the IMAP mailbox, in an operator's words, and saying it once.

imapclient's errors read like `b'[AUTHENTICATIONFAILED] Authentication failed.'` or
`select failed: Mailbox doesn't exist: games (0.001 + 0.000 secs).`: true, but not what to
change. `explain` says which `[imap]` key to look at. `Trouble` keeps the poller to one line
per fault while it lasts and one when it clears (SPEC §7: a bad password is one clear line),
as store faults are said (mailref/store/faults.py); before, a missing folder was one warning
a second, for as long as the daemon ran."""

from __future__ import annotations

import logging
import re
import socket
import ssl

from mailref.config import Imap

log = logging.getLogger("mailref.imap")


def _text(e: BaseException) -> str:
    """The server's words, without Python's b'...' around them or Dovecot's timings."""
    text = str(e).strip() or type(e).__name__
    m = re.fullmatch(r"b(['\"])(.*)\1", text, re.S)
    if m:
        text = m.group(2)
    text = re.sub(r"\s*\(\d+\.\d+ \+ \d+\.\d+(?: \+ \d+\.\d+)? secs\)\.?$", "", text)
    # Dovecot's "Internal error occurred. Refer to server log ... [2026-12-01 11:38:29]": a
    # new time each try made each try a new line, a warning a second while it lasted.
    text = re.sub(r"\s*\[\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\]", "", text)
    return text.rstrip(".")


def explain(e: BaseException, cfg: Imap) -> str:
    """One line: what is wrong, and which key or server to look at."""
    from imapclient.exceptions import LoginError

    from mailref.mail.imap_folders import FolderTrouble

    if isinstance(e, FolderTrouble):
        return (
            f"cannot file mail into the folder {e.name!r} ([imap] {e.key}): {_text(e.said)}; mail "
            "waits "
            f"in {cfg.folder!r} until it can be filed: create that folder, or name one that can be"
        )
    text = _text(e)
    low = text.lower()
    if "privacyrequired" in low or "plaintext authentication disallowed" in low:
        return (
            f"the server refuses a login without TLS ({text}): set [imap] starttls = true on this "
            "port, "
            f"or ssl = true and its TLS port (993)"
        )
    if cfg.starttls and "starttls" in low and ("not supported" in low or "capabilit" in low):
        return (
            f"the server does not offer STARTTLS on port {cfg.port} ({text}): set [imap] starttls "
            "= false, "
            f"or ssl = true and its TLS port (993)"
        )
    if (
        "[limit]" in low
        or "maximum number of connections" in low
        or "too many simultaneous connections" in low
    ):
        # Said at login, and imapclient calls it a LoginError: the password is fine. Hosts allow
        # a few connections a mailbox (Dovecot's mail_max_userip_connections, Gmail's 15).
        return (
            f"the server refuses one more connection as {cfg.username!r} ({text}): close other "
            "mail "
            f"clients (or other mailref daemons) on this mailbox, or raise the host's limit"
        )
    if isinstance(e, LoginError) or "authenticationfailed" in low or "authentication failed" in low:
        return (
            f"login as {cfg.username!r} refused ({text}): check [imap] username and password "
            f"(or password_file)"
        )
    if (
        "doesn't exist" in low
        or "does not exist" in low
        or "nonexistent" in low
        or "no such mailbox" in low
    ):
        return (
            f"the folder {cfg.folder!r} does not exist on the server ({text}): create it, or "
            "correct [imap] folder"
        )
    if isinstance(e, ssl.SSLCertVerificationError):
        return (
            f"the server's certificate is not trusted ({e.verify_message or text}): it must name "
            f"{cfg.host!r} ([imap] host) and come from a known CA (SSL_CERT_FILE names another)"
        )
    if isinstance(e, ssl.SSLError):
        how = "starttls = true" if cfg.starttls else f"ssl = {str(cfg.ssl).lower()}"
        return f"TLS failed ({text}): does the server speak TLS on port {cfg.port}? ([imap] {how})"
    if isinstance(e, socket.timeout | TimeoutError):
        if not cfg.ssl:  # a TLS port waits for our TLS hello while we wait for its greeting
            return (
                f"the server did not answer in time (is port {cfg.port} a TLS port? then set "
                "[imap] ssl = true)"
            )
        return "the server did not answer in time"
    if isinstance(e, ConnectionRefusedError):
        return (
            "unreachable: connection refused (is the server running, and [imap] host and port "
            "right?)"
        )
    if isinstance(e, socket.gaierror):
        return f"unreachable: the name {cfg.host!r} does not resolve ({text})"
    if isinstance(e, OSError) and e.strerror:
        return f"unreachable: {e.strerror.lower()}"
    if m := re.search(r"unexpected response: (?:b['\"])?(220|\+OK)\b", text):
        # Another mail server on that port (SMTP greets with 220, POP3 with +OK): a port mix-up.
        kind = "an SMTP" if m.group(1) == "220" else "a POP3"
        return (
            f"port {cfg.port} is {kind} server, not IMAP ({text}): set [imap] port to its IMAP "
            "port "
            f"(993 with ssl = true, or 143)"
        )
    if "eof" in low or "socket error" in low or isinstance(e, ConnectionError):
        return f"the connection was lost ({text}); the server restarted or dropped it"
    return text


class Trouble:
    """The poller's fault in hand: said once while it lasts, once more when it clears."""

    def __init__(self, cfg: Imap):
        self.cfg = cfg
        self.said: str | None = None

    def where(self) -> str:
        return f"IMAP {self.cfg.username}@{self.cfg.host}:{self.cfg.port}/{self.cfg.folder}"

    def failed(self, e: BaseException, retry_in: float) -> None:
        line = explain(e, self.cfg)
        if line == self.said:
            log.debug("%s: still %s", self.where(), line)
            return
        self.said = line
        log.warning(
            "%s: %s; trying again with back-off (now %.0fs, at most 5 min), and saying so "
            "once it works",
            self.where(),
            line,
            retry_in,
        )

    def cleared(self) -> None:
        if self.said is not None:
            log.info("%s works again (was: %s)", self.where(), self.said)
            self.said = None
