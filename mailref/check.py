"""`mailref check`: the configuration, then a real connection to each server it names
(the database, the IMAP mailbox, the SMTP relay) and the folders it writes, one line per
check. Nothing is changed: no database is created, no mail is sent or moved."""

from __future__ import annotations

import os
import smtplib
import socket
import ssl
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from mailref.config import (  # noqa: F401 - callers import it from here too
    Config,
    LmtpIn,
    SmtpIn,
    sqlite_path,
)

TIMEOUT = 10


@dataclass
class Check:
    ok: bool
    what: str
    detail: str

    def line(self) -> str:
        return f"{'ok  ' if self.ok else 'FAIL'}  {self.what}: {self.detail}"


def _writable_folder(p: Path) -> bool:
    """P exists and is writable, or could be created."""
    while not p.exists():
        if p.parent == p:
            return False
        p = p.parent
    return p.is_dir() and os.access(p, os.W_OK | os.X_OK)


def check_database(cfg: Config) -> Check:
    from sqlalchemy import create_engine, text

    path = sqlite_path(cfg.database)
    what = f"database {path or cfg.database.split('@')[-1]}"
    if path is not None and not path.exists():
        if _writable_folder(path.parent):
            return Check(True, what, "none yet; `mailref serve` or a changing command creates it")
        return Check(False, what, f"none yet, and {path.parent} is not writable")
    engine = create_engine(
        cfg.database, connect_args={"timeout": 2} if path else {"connect_timeout": TIMEOUT}
    )
    try:
        with engine.connect() as c:
            if not _has_schema(c):  # a PostgreSQL database the DBA just made: its usual first state
                return Check(
                    True, what, "empty; `mailref serve` or a changing command creates the tables"
                )
            version = c.execute(text("SELECT version_num FROM alembic_version")).scalar()
            if path is not None:
                # Take the write lock and let it go: a read-only file or a held lock shows here.
                c.exec_driver_sql("BEGIN IMMEDIATE")
                c.exec_driver_sql("ROLLBACK")
        return Check(True, what, f"opens and is writable, schema {version}")
    except Exception as e:
        from mailref.store.faults import describe

        return Check(False, what, describe(e))
    finally:
        engine.dispose()


T = TypeVar("T")


def _has_schema(conn) -> bool:
    from sqlalchemy import inspect

    return inspect(conn).has_table("alembic_version")


def _filed_into(c, i) -> str:
    """Where the poller files, by the server's names, and which folder it will create."""
    from mailref.mail.imap_folders import on_server, written_for

    said = []
    for key, name in (
        ("processed_folder", i.processed_folder),
        ("rejected_folder", i.rejected_folder),
    ):
        found = on_server(c, name)
        if c.folder_exists(found):
            said.append(repr(found))
        else:
            said.append(f"{written_for(c, name)!r} (to be created, [imap] {key})")
    return "files into " + " and ".join(said)


def check_imap(cfg: Config) -> Check:
    from imapclient.exceptions import IMAPClientError

    from mailref.mail.imap import open_imap
    from mailref.mail.imap_folders import on_server

    i = configured(cfg.imap, "[imap]")
    what = f"IMAP {i.username}@{i.host}:{i.port}"
    try:
        c = open_imap(i, timeout=TIMEOUT)
    except (OSError, IMAPClientError) as e:
        from mailref.mail.imap_trouble import explain

        return Check(False, what, explain(e, i))
    try:
        c.login(i.username, i.password)
        info = c.select_folder(on_server(c, i.folder), readonly=True)
        tls = ", over STARTTLS" if i.starttls else ""
        return Check(
            True,
            what,
            f"login ok{tls}, {i.folder} has {info.get(b'EXISTS', '?')} message(s); "
            f"{_filed_into(c, i)}",
        )
    except Exception as e:
        from mailref.mail.imap_trouble import explain

        return Check(False, what, explain(e, i))
    finally:
        try:
            c.logout()
        except Exception:
            pass


def check_smtp_out(cfg: Config) -> Check:
    r = configured(cfg.smtp_out, "[smtp_out]")
    what = f"SMTP relay {r.host}:{r.port}"
    from mailref.mail.relay import Relay, RelayOverTls, tls_context  # as the outbox connects

    name = r.ehlo_name or None
    try:
        if r.tls == "implicit":  # as the outbox connects: the certificate checked
            smtp: Relay = RelayOverTls(
                r.host,
                r.port,
                local_hostname=name,
                timeout=TIMEOUT,
                context=tls_context(r),
            )
        else:
            smtp = Relay(r.host, r.port, local_hostname=name, timeout=TIMEOUT)
    except ssl.SSLError as e:
        from mailref.mail.relay_trouble import relay_trouble

        return Check(False, what, relay_trouble(e, r))
    except (OSError, smtplib.SMTPException) as e:
        return Check(False, what, f"unreachable: {_why(e)}")
    try:
        code, _ = smtp.ehlo()
        if code != 250:
            return Check(False, what, f"EHLO answered {code}")
        steps = ["TLS ok, EHLO ok" if r.tls == "implicit" else "EHLO ok"]
        if r.starttls:
            smtp.starttls(context=tls_context(r))  # as the outbox does: the certificate checked
            smtp.ehlo()
            steps.append("STARTTLS ok")
        if r.username:
            smtp.login(r.username, r.password)
            steps.append(f"login as {r.username} ok")
        # A relay wanting a login, or not relaying for this host, says so only at MAIL or RCPT:
        # ask as the daemon will (from_address to admin_address), then RSET (nothing is sent).
        code, said = smtp.mail(cfg.from_address)
        whom = f"MAIL FROM:<{cfg.from_address}> ([daemon] from_address)"
        if code == 250:
            code, said = smtp.rcpt(cfg.admin_address)
            whom = f"RCPT TO:<{cfg.admin_address}> ([daemon] admin_address)"
        smtp.rset()
        if code not in (250, 251):
            from mailref.mail.relay_trouble import refuses_us

            words = said.decode("utf-8", "replace") if isinstance(said, bytes) else str(said)
            return Check(
                False, what, refuses_us(code, words, r) or f"refuses {whom}: {code} {words}"
            )
        steps.append("takes mail from from_address to admin_address")
        steps.append(
            "SMTPUTF8 offered"
            if smtp.has_extn("smtputf8")
            else "no SMTPUTF8: mail to addresses with a non-ASCII part before the @ will fail"
        )
        return Check(True, what, ", ".join(steps))
    except smtplib.SMTPAuthenticationError as e:
        return Check(False, what, f"login refused: {e.smtp_code} {_text(e.smtp_error)}")
    except (OSError, smtplib.SMTPException) as e:
        from mailref.mail.relay_trouble import relay_trouble

        plain = isinstance(e, OSError) and e.strerror and not isinstance(e, ssl.SSLError)
        return Check(False, what, _why(e) if plain else relay_trouble(e, r))
    finally:
        try:
            smtp.quit()
        except (OSError, smtplib.SMTPException):
            smtp.close()


def check_smtp_in(cfg: Config) -> Check:
    return _check_listener(configured(cfg.smtp_in, "[smtp_in]"), "SMTP")


def check_lmtp_in(cfg: Config) -> Check:
    return _check_listener(configured(cfg.lmtp_in, "[lmtp_in]"), "LMTP")


def _check_listener(s: SmtpIn | LmtpIn, kind: str) -> Check:
    what = f"{kind} listener {s.host}:{s.port}"
    try:
        with socket.create_connection((s.host, s.port), timeout=2) as c:
            try:
                banner = c.recv(200).decode("ascii", "replace").strip()
            except OSError:
                banner = ""
    except OSError:
        pass
    else:
        # Ok only when mailref itself answers there: Postfix on 25 or any other holder of the
        # port leaves `mailref serve` unable to listen.
        if f"{kind} mailref" in banner.split("\n", 1)[0]:
            return Check(True, what, f"in use by a running mailref serve ({banner[:60]!r})")
        said = f"answering {banner[:60]!r}" if banner else "silent"
        return Check(
            False,
            what,
            f"held by another process ({said}): `mailref serve` cannot listen there; stop that "
            "process or give mailref another port (and have your MX deliver to it)",
        )
    try:
        with socket.socket(socket.AF_INET6 if ":" in s.host else socket.AF_INET) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((s.host, s.port))
        return Check(True, what, "free: `mailref serve` can listen there")
    except OSError as e:
        from mailref.mail.intake import port_hint

        return Check(False, what, f"cannot listen: {_why(e)}{port_hint(s.port, _why(e))}")


def check_maildir(cfg: Config) -> Check:
    p = cfg.outbox_maildir
    ok = _writable_folder(p)
    return Check(
        ok, f"outbox Maildir {p}", "writable" if ok else "not writable (outgoing mail would wait)"
    )


def check_site(cfg: Config) -> Check:
    from mailref.site import trouble

    p = Path(configured(cfg.site, "[site]").dir)
    e = trouble.probe(
        p
    )  # written to, as the daemon will (os.access says yes to root where root cannot)
    return Check(
        e is None, f"site {p}", "writable" if e is None else f"not writable: {trouble.why(e, p)}"
    )


def configured(section: T | None, name: str) -> T:
    """SECTION of the configuration, which `checks` runs its check only when it is set."""
    if section is None:
        raise RuntimeError(f"{name} is not configured")
    return section


def _text(said: bytes | str) -> str:
    return said.decode("utf-8", "replace") if isinstance(said, bytes) else said


def _why(e: BaseException) -> str:
    if isinstance(e, OSError) and e.strerror:
        return e.strerror.lower()
    return f"{e}" or type(e).__name__


def checks(cfg: Config) -> Iterator[Callable[[Config], Check]]:
    yield check_database
    if cfg.smtp_in:
        yield check_smtp_in
    if cfg.lmtp_in:
        yield check_lmtp_in
    if cfg.imap:
        yield check_imap
    if cfg.smtp_out:
        yield check_smtp_out
    else:
        yield check_maildir
    if getattr(cfg, "site", None):
        yield check_site


def run(cfg: Config, out: Callable[[str], None]) -> int:
    """Run every check, print one line each; 0 when all pass."""
    from mailref.config import defaults_note

    out(Check(True, "configuration", str(cfg.path) if cfg.path else defaults_note(cfg)).line())
    failed = 0
    for fn in checks(cfg):
        try:
            result = fn(cfg)
        except Exception as e:  # a check must report, never crash the others
            result = Check(False, fn.__name__.removeprefix("check_"), f"{type(e).__name__}: {e}")
        failed += not result.ok
        out(result.line())
    return 1 if failed else 0
