"""One mail address, checked where it enters: the CLI (game address, GM, players) and the
outbox (a recipient a relay can take).

Internationalised addresses are mail addresses (RFC 6530): a non-ASCII domain travels as its
IDNA form (`xn--…`), so `anna@münchen.example` needs nothing of the relay; a non-ASCII local
part (`jürgen@…`, `δοκιμή@example.gr`) needs a relay that offers SMTPUTF8 (RFC 6531), and the
outbox refuses such a row, with its reason, only when the relay does not."""

from __future__ import annotations

import re
import unicodedata

_ATOM = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
_LABEL = r"[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?"
ADDR_SPEC = re.compile(rf"{_ATOM}(?:\.{_ATOM})*@{_LABEL}(?:\.{_LABEL})*")
# RFC 6531 atext: ASCII atext or any non-ASCII character that is not a control, a separator
# or unassigned (checked below with unicodedata).
_UTF8_ATOM = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~\x80-\U0010ffff-]+")


def ascii_domain(addr: str) -> str:
    """ADDR with its domain in IDNA form (what DNS and every relay take); the local part as is.
    An address whose domain is no valid IDN is returned unchanged (problem() says why)."""
    local, at, domain = addr.rpartition("@")
    if not at or domain.isascii():
        return addr
    try:
        return f"{local}@{unicodedata.normalize('NFC', domain).encode('idna').decode('ascii')}"
    except (UnicodeError, ValueError):
        return addr


def needs_smtputf8(addr: str) -> bool:
    """Whether mail to ADDR must travel with SMTPUTF8: its local part is not ASCII."""
    return not addr.rpartition("@")[0].isascii()


def _local_ok(local: str) -> bool:
    if local.isascii():
        return ADDR_SPEC.fullmatch(f"{local}@x") is not None
    atoms = local.split(".")
    return all(_UTF8_ATOM.fullmatch(a) for a in atoms) and not any(
        unicodedata.category(ch)[0] in "CZ" for ch in local if ord(ch) > 127
    )


def problem(addr: object, ascii_local: bool = False) -> str | None:
    """Why ADDR is not exactly one plain addr-spec (name@example.org) we can send to; None if it is.
    ASCII_LOCAL: the local part must be ASCII too (the game's own address, which every mail is
    From)."""
    if not isinstance(addr, str) or not addr.strip():
        return "is empty"
    if "\r" in addr or "\n" in addr:
        return "contains a line break"
    if any(ord(c) < 32 or ord(c) == 127 for c in addr):
        return "contains a control character"
    if "," in addr or ";" in addr:
        return "is a list: give exactly one address"
    if "<" in addr or ">" in addr or " " in addr.strip():
        return "is not a bare address: write it as name@example.org, without a name or <>"
    addr = addr.strip()
    if len(addr.encode("utf-8")) > 254:
        return "is longer than 254 octets"
    local, at, domain = addr.rpartition("@")
    if not at or not local or not domain:
        return "is not an address like name@example.org"
    wire = ascii_domain(addr)
    if not domain.isascii() and wire == addr:
        return "has a domain that is not a valid international domain name"
    if ascii_local and not local.isascii():
        return (
            "has a non-ASCII part before the @, which only relays with SMTPUTF8 take: use an "
            "ASCII address here"
        )
    if not _local_ok(local) or not ADDR_SPEC.fullmatch(f"x@{wire.rpartition('@')[2]}"):
        return "is not an address like name@example.org"
    return None


def check(addr: str, what: str = "address", ascii_local: bool = False) -> str:
    """ADDR stripped, its domain in IDNA form, or ValueError naming WHAT and the problem."""
    why = problem(addr, ascii_local)
    if why:
        raise ValueError(f"{what} {addr!r} {why}")
    return ascii_domain(addr.strip())
