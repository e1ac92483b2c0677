"""One mail address, checked where it enters: the CLI (game address, GM, players) and the
outbox (a recipient a relay can take). mailref speaks SMTP without SMTPUTF8, so an address
must be plain ASCII; anything else would fail at every delivery attempt."""

from __future__ import annotations

import re

_ATOM = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
_LABEL = r"[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?"
ADDR_SPEC = re.compile(rf"{_ATOM}(?:\.{_ATOM})*@{_LABEL}(?:\.{_LABEL})*")


def problem(addr: object) -> str | None:
    """Why ADDR is not exactly one plain addr-spec (name@example.org) we can send to; None if it is."""
    if not isinstance(addr, str) or not addr.strip():
        return "is empty"
    if "\r" in addr or "\n" in addr:
        return "contains a line break"
    if any(ord(c) < 32 or ord(c) == 127 for c in addr):
        return "contains a control character"
    if "," in addr or ";" in addr:
        return "is a list: give exactly one address"
    if not addr.isascii():
        return "has non-ASCII characters, which mail relays without SMTPUTF8 cannot take"
    if "<" in addr or ">" in addr or " " in addr.strip():
        return "give the bare address (name@example.org), without a name or <>"
    if len(addr) > 254:
        return "is longer than 254 characters"
    if not ADDR_SPEC.fullmatch(addr.strip()):
        return "is not an address like name@example.org"
    return None


def check(addr: str, what: str = "address") -> str:
    """ADDR stripped, or ValueError naming WHAT and the problem."""
    why = problem(addr)
    if why:
        raise ValueError(f"{what} {addr!r} {why}")
    return addr.strip()
