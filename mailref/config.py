"""mailref.toml: embedded defaults, `mailref init`, and refusal of a bad file by key."""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

from mailref.config_database import database_problem
from mailref.config_template import DEFAULT_TOML
from mailref.timeutil import parse_duration


class ConfigError(Exception):
    """A bad configuration: names the file, the key and what is wrong."""


@dataclass
class SmtpIn:
    host: str = "127.0.0.1"
    port: int = 2525
    max_message_size: int = 10 * 1024 * 1024


@dataclass
class LmtpIn:
    """The LMTP listener (RFC 2033): how a front MTA hands mail over (Postfix's `lmtp:`)."""

    host: str = "127.0.0.1"
    port: int = 2424
    max_message_size: int = 10 * 1024 * 1024


@dataclass
class Imap:
    host: str = "127.0.0.1"
    port: int = 993
    ssl: bool = True
    starttls: bool = False  # a plain port (143) upgraded to TLS before LOGIN; needs ssl = false
    username: str = "referee"
    password: str = field(default="", repr=False)  # never logged
    folder: str = "INBOX"
    processed_folder: str = "mailref/processed"
    rejected_folder: str = "mailref/rejected"
    idle: bool = True
    poll_interval: timedelta = timedelta(seconds=60)
    use_move: bool = True  # tests turn this off to prove the COPY/EXPUNGE path


@dataclass
class SmtpOut:
    host: str = "127.0.0.1"
    port: int = 25
    starttls: bool = False  # the same as tls = "starttls" (the older key)
    username: str = ""
    password: str = field(default="", repr=False)
    tls: str = "none"  # none | starttls | implicit (TLS from the first byte, port 465)
    ehlo_name: str = ""  # the name said in EHLO; "" is the host's FQDN
    ca_file: str = ""  # a CA trusted beside the system's (a private relay's certificate)

    def __post_init__(self) -> None:
        if self.starttls and self.tls == "none":
            self.tls = "starttls"
        self.starttls = self.tls == "starttls"


TLS_MODES = ("none", "starttls", "implicit")


@dataclass
class SiteConfig:
    dir: Path
    base_url: str = ""  # ends with "/" when set


@dataclass
class Config:
    path: Path | None
    base: Path
    database: str
    from_address: str = "referee@localhost"
    admin_address: str = "gm@localhost"
    timezone: str = "UTC"
    replies_per_sender_per_day: int = 20
    replies_per_stranger_per_day: int = 5  # to an address that plays in no game it wrote to
    smtp_in: SmtpIn | None = None
    lmtp_in: LmtpIn | None = None
    imap: Imap | None = None
    smtp_out: SmtpOut | None = None
    outbox_maildir: Path = Path("var/outbox")
    site: SiteConfig | None = None  # the published site (SPEC §4.5)
    trusted_authserv_ids: list[str] = field(default_factory=list)  # [auth] (SPEC §2.7)
    web_listen: str = ""  # [web] listen: "host:port" of the one-click unsubscribe (SPEC §4.3)

    def describe(self) -> str:
        parts = [f"database {redact_url(self.database)}"]
        parts.append(
            f"smtp listener {self.smtp_in.host}:{self.smtp_in.port}"
            if self.smtp_in
            else "no smtp listener"
        )
        if self.lmtp_in:
            parts.append(f"lmtp listener {self.lmtp_in.host}:{self.lmtp_in.port}")
        parts.append(
            f"imap {self.imap.username}@{self.imap.host}:{self.imap.port}/{self.imap.folder}"
            if self.imap
            else "no imap"
        )
        parts.append(
            f"relay {self.smtp_out.host}:{self.smtp_out.port}"
            if self.smtp_out
            else f"outbox maildir {self.outbox_maildir}"
        )
        # SPEC §1.2 "It logs what it uses": the published pages and the trusted verifiers too.
        parts.append(f"site {self.site.dir}" if self.site else "no site")
        if self.trusted_authserv_ids:
            parts.append("trusted authentication servers " + " ".join(self.trusted_authserv_ids))
        return ", ".join(parts)


def _same_folder(a: str, b: str) -> bool:
    """The same IMAP folder (INBOX is one name in any case, RFC 3501)."""
    return a == b or a.upper() == b.upper() == "INBOX"


def redact_url(url: str) -> str:
    return re.sub(r"//([^:/@]+):[^@]*@", r"//\1:***@", url)


def _size(value: object, where: str) -> int:
    if isinstance(value, int):
        return value
    m = re.fullmatch(r"\s*(\d+)\s*([kmg]?)b?\s*", str(value), re.I)
    if not m:
        raise ConfigError(f"{where}: {value!r} is not a size like 10MB")
    return int(m.group(1)) * {"": 1, "k": 1024, "m": 1024**2, "g": 1024**3}[m.group(2).lower()]


class _Table:
    """Reads one TOML table, naming file and key in every complaint."""

    def __init__(self, data: dict[str, Any], name: str, file: str, base: Path):
        self.data, self.name, self.file, self.base = dict(data), name, file, base

    def where(self, key: str) -> str:
        return f"{self.file}: [{self.name}] {key}"

    def get(self, key: str, kind: type, default: Any) -> Any:
        if key not in self.data:
            return default
        value = self.data.pop(key)
        if kind is bool and not isinstance(value, bool):
            raise ConfigError(f"{self.where(key)}: expected true or false, got {value!r}")
        if kind is int and (not isinstance(value, int) or isinstance(value, bool)):
            raise ConfigError(f"{self.where(key)}: expected a whole number, got {value!r}")
        if kind is str and not isinstance(value, str):
            raise ConfigError(f"{self.where(key)}: expected a string, got {value!r}")
        return value

    def duration(self, key: str, default: timedelta) -> timedelta:
        if key not in self.data:
            return default
        value = self.data.pop(key)
        try:
            return parse_duration(str(value))
        except ValueError as e:
            raise ConfigError(f"{self.where(key)}: {e}") from None

    def secret(self, default: str = "") -> str:
        password: str | None = self.get("password", str, None)
        pfile = self.get("password_file", str, "")
        if password is not None:
            return password
        if pfile:
            p = (self.base / pfile) if not os.path.isabs(pfile) else Path(pfile)
            try:
                return p.read_text().strip()
            except OSError as e:
                raise ConfigError(
                    f"{self.where('password_file')}: cannot read {p}: {e.strerror}"
                ) from None
        return default

    def done(self) -> None:
        if self.data:
            key = sorted(self.data)[0]
            raise ConfigError(f"{self.where(key)}: unknown key")


def _resolve_db(url: str, base: Path) -> str:
    # sqlite:///relative/path is relative to the configuration file's folder.
    if url.startswith("sqlite:///") and not url.startswith("sqlite:////") and ":memory:" not in url:
        return "sqlite:///" + str((base / url[len("sqlite:///") :]).resolve())
    return url


def load(path: str | os.PathLike[str] | None = None) -> Config:
    """The configuration from PATH, $MAILREF_CONFIG, ./mailref.toml, or embedded defaults."""
    if path is None:
        path = os.environ.get("MAILREF_CONFIG") or None
    if path is None and Path("mailref.toml").exists():
        path = "mailref.toml"
    if path is None:
        text, file, base = DEFAULT_TOML, "<embedded defaults>", Path.cwd()
    else:
        p = Path(path)
        try:
            text = p.read_text()
        except OSError as e:
            raise ConfigError(f"{p}: cannot read: {e.strerror}") from None
        file, base = str(p), p.resolve().parent
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{file}: not valid TOML: {e}") from None
    known = {"daemon", "smtp_in", "lmtp_in", "imap", "smtp_out", "outbox", "site", "auth", "web"}
    for key in data:
        if key not in known:
            raise ConfigError(f"{file}: [{key}]: unknown table (known: {', '.join(sorted(known))})")

    d = _Table(data.get("daemon", {}), "daemon", file, base)
    cfg = Config(
        path=Path(path) if path else None,
        base=base,
        database=_resolve_db(d.get("database", str, "sqlite:///var/mailref.sqlite3"), base),
        from_address=d.get("from_address", str, "referee@localhost"),
        admin_address=d.get("admin_address", str, "gm@localhost"),
        timezone=d.get("timezone", str, "UTC"),
        replies_per_sender_per_day=d.get("replies_per_sender_per_day", int, 20),
        replies_per_stranger_per_day=d.get("replies_per_stranger_per_day", int, 5),
    )
    why = database_problem(cfg.database)
    if why:
        raise ConfigError(f"{d.where('database')}: {redact_url(cfg.database)!r} {why}")
    try:
        from zoneinfo import ZoneInfo

        ZoneInfo(cfg.timezone)
    except Exception:
        raise ConfigError(f"{d.where('timezone')}: unknown time zone {cfg.timezone!r}") from None
    from mailref.write.address import ascii_domain, problem

    for key in ("from_address", "admin_address"):
        # The envelope sender of everything must pass relays without SMTPUTF8.
        why = problem(getattr(cfg, key), ascii_local=key == "from_address")
        if why:
            raise ConfigError(f"{d.where(key)}: {getattr(cfg, key)!r} {why}")
        setattr(cfg, key, ascii_domain(getattr(cfg, key).strip()))
    d.done()

    if "smtp_in" in data:
        t = _Table(data["smtp_in"], "smtp_in", file, base)
        size = t.data.pop("max_message_size", "10MB")
        cfg.smtp_in = SmtpIn(
            host=t.get("host", str, "127.0.0.1"),
            port=t.get("port", int, 2525),
            max_message_size=_size(size, t.where("max_message_size")),
        )
        t.done()
    if "lmtp_in" in data:
        t = _Table(data["lmtp_in"], "lmtp_in", file, base)
        size = t.data.pop("max_message_size", "10MB")
        cfg.lmtp_in = LmtpIn(
            host=t.get("host", str, "127.0.0.1"),
            port=t.get("port", int, 2424),
            max_message_size=_size(size, t.where("max_message_size")),
        )
        t.done()
    if "imap" in data:
        t = _Table(data["imap"], "imap", file, base)
        cfg.imap = Imap(
            host=t.get("host", str, "127.0.0.1"),
            port=t.get("port", int, 993),
            ssl=t.get("ssl", bool, True),
            starttls=t.get("starttls", bool, False),
            username=t.get("username", str, "referee"),
            password=t.secret(),
            folder=t.get("folder", str, "INBOX"),
            processed_folder=t.get("processed_folder", str, "mailref/processed"),
            rejected_folder=t.get("rejected_folder", str, "mailref/rejected"),
            idle=t.get("idle", bool, True),
            poll_interval=t.duration("poll_interval", timedelta(seconds=60)),
            use_move=t.get("use_move", bool, True),
        )
        for key in ("processed_folder", "rejected_folder"):
            # Filing into the folder read gives each mail a new UID: it would be read again,
            # filed again, for ever, a pass after the other.
            if _same_folder(getattr(cfg.imap, key), cfg.imap.folder):
                raise ConfigError(
                    f"{t.where(key)}: {getattr(cfg.imap, key)!r} is the folder mail is read from "
                    f"([imap] folder): mail filed there would be read again; name another folder"
                )
        if cfg.imap.ssl and cfg.imap.starttls:
            raise ConfigError(
                f"{t.where('starttls')}: STARTTLS upgrades a plain connection: set ssl = false "
                "with it (port 143), or keep ssl = true alone (port 993)"
            )
        t.done()
    if "smtp_out" in data:
        t = _Table(data["smtp_out"], "smtp_out", file, base)
        starttls = t.get("starttls", bool, False)
        tls = t.get("tls", str, "starttls" if starttls else "none")
        if tls not in TLS_MODES:
            raise ConfigError(f"{t.where('tls')}: {tls!r} is none of {', '.join(TLS_MODES)}")
        if starttls and tls != "starttls":
            raise ConfigError(
                f"{t.where('starttls')}: starttls = true says tls = \"starttls\", but tls is "
                f"{tls!r}: keep tls alone"
            )
        ehlo = t.get("ehlo_name", str, "")
        if ehlo and not re.fullmatch(r"[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?", ehlo):
            raise ConfigError(
                f"{t.where('ehlo_name')}: {ehlo!r} is no host name (letters, digits, dots and "
                "hyphens, such as mail.example.org)"
            )
        ca = t.get("ca_file", str, "")
        if ca:
            ca = str(base / ca) if not os.path.isabs(ca) else ca
            try:
                Path(ca).read_bytes()
            except OSError as e:
                raise ConfigError(f"{t.where('ca_file')}: cannot read {ca}: {e.strerror}") from None
        cfg.smtp_out = SmtpOut(
            host=t.get("host", str, "127.0.0.1"),
            port=t.get("port", int, 25),
            username=t.get("username", str, ""),
            password=t.secret(),
            tls=tls,
            ehlo_name=ehlo,
            ca_file=ca,
        )
        t.done()
    t = _Table(data.get("outbox", {}), "outbox", file, base)
    md = t.get("maildir", str, "var/outbox")
    cfg.outbox_maildir = (base / md) if not os.path.isabs(md) else Path(md)
    t.done()
    if "site" in data:
        t = _Table(data["site"], "site", file, base)
        sd = t.get("dir", str, "var/site")
        url = t.get("base_url", str, "").strip()
        if url and not re.match(r"https?://[^/\s]+", url):
            raise ConfigError(
                f"{t.where('base_url')}: {url!r} is not an http(s) URL like "
                "https://games.example.org/"
            )
        cfg.site = SiteConfig(
            (base / sd) if not os.path.isabs(sd) else Path(sd),
            url + ("/" if url and not url.endswith("/") else ""),
        )
        t.done()
    t = _Table(data.get("auth", {}), "auth", file, base)
    ids = t.data.pop("trusted_authserv_ids", [])
    if not isinstance(ids, list) or not all(
        isinstance(i, str) and i.strip() and " " not in i.strip() for i in ids
    ):
        raise ConfigError(
            f"{t.where('trusted_authserv_ids')}: expected a list of server names like "
            f'["mx.example.org"], got {ids!r}'
        )
    cfg.trusted_authserv_ids = [i.strip().lower() for i in ids]
    t.done()
    t = _Table(data.get("web", {}), "web", file, base)
    cfg.web_listen = listen = t.get("listen", str, "").strip()
    if listen and not re.fullmatch(r"[\w.-]+:\d{1,5}|\[[0-9a-fA-F:]+\]:\d{1,5}", listen):
        raise ConfigError(f"{t.where('listen')}: {listen!r} is no host:port like 127.0.0.1:8087")
    t.done()
    for tbl in (cfg.smtp_in, cfg.lmtp_in, cfg.imap, cfg.smtp_out):
        if tbl is not None and not (0 < tbl.port < 65536):
            name = {
                id(cfg.smtp_in): "smtp_in",
                id(cfg.lmtp_in): "lmtp_in",
                id(cfg.imap): "imap",
                id(cfg.smtp_out): "smtp_out",
            }[id(tbl)]
            raise ConfigError(f"{file}: [{name}] port: {tbl.port} is out of range (1-65535)")
    if (
        cfg.smtp_in
        and cfg.lmtp_in
        and (cfg.smtp_in.host, cfg.smtp_in.port) == (cfg.lmtp_in.host, cfg.lmtp_in.port)
    ):
        raise ConfigError(
            f"{file}: [lmtp_in] port: {cfg.lmtp_in.port} is [smtp_in]'s too; give each its own"
        )
    return cfg


def valid_zone(name: str) -> bool:
    """NAME is an IANA time zone (not a path: `../../etc/passwd` is refused)."""
    from zoneinfo import ZoneInfo

    if not re.fullmatch(r"[A-Za-z0-9_+-]+(/[A-Za-z0-9_+-]+)*", name or ""):
        return False
    try:
        ZoneInfo(name)
    except Exception:
        return False
    return True


SERVICE_STATE = Path("/var/lib/mailref")  # the unit's StateDirectory= and WorkingDirectory=
SERVICE_CONFIG = Path("/etc/mailref/mailref.toml")  # the unit's MAILREF_CONFIG


def defaults_note(cfg: Config, service_config: Path = SERVICE_CONFIG) -> str:
    """On embedded defaults, why (no file was named or found), and the service's file when the
    host has one: an operator who ran `mailref init /etc/mailref` and then `mailref game create` in
    a shell without MAILREF_CONFIG would make the game in ./var, where the service never looks."""
    if cfg.path is not None:
        return ""
    note = "embedded defaults: no --config, no $MAILREF_CONFIG, no ./mailref.toml here"
    if service_config.exists():
        note += f"; the service reads {service_config}: give it with --config or MAILREF_CONFIG"
    return note


def state_dir_for(folder: Path) -> Path | None:
    """Where a configuration in FOLDER keeps its state: under /etc (read-only to the service,
    ProtectSystem=strict) it is the unit's /var/lib/mailref; elsewhere None, meaning the
    relative `var/` beside the file."""
    resolved = folder.resolve()
    return SERVICE_STATE if resolved == Path("/etc") or Path("/etc") in resolved.parents else None


def init_text(folder: str | os.PathLike[str] = ".") -> str:
    """The commented mailref.toml `mailref init FOLDER` writes."""
    state = state_dir_for(Path(folder))
    if state is None:
        return DEFAULT_TOML
    return (
        DEFAULT_TOML.replace(
            '"sqlite:///var/mailref.sqlite3"', f'"sqlite:///{state}/mailref.sqlite3"'
        )
        .replace('maildir = "var/outbox"', f'maildir = "{state}/outbox"')
        .replace('dir = "var/site"', f'dir = "{state}/site"')
    )


def init(folder: str | os.PathLike[str] = ".") -> Path:
    """Write a commented mailref.toml with the defaults; refuse to overwrite."""
    p = Path(folder) / "mailref.toml"
    if p.exists():
        raise ConfigError(f"{p}: already exists; not overwritten")
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(init_text(folder))
    return p


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite database URL; None for another database or one in memory."""
    if url.startswith("sqlite:///") and ":memory:" not in url:
        return Path(url[len("sqlite:///") :].split("?", 1)[0])
    return None
