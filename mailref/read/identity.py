"""Who sent a mail: the one addr-spec of its From header, never a decoded display name.

The header is parsed raw (RFC 5322 grammar of `email.headerregistry`, before any encoded
word is decoded), so `=?utf-8?q?alice=40example.org?= <mallory@evil.test>` is mallory. A
From that does not name exactly one mailbox cleanly (two addresses, two From headers,
syntax the parser had to guess at, a line break in a name) names nobody: the mail is
refused without a reply, since any reply would go to an address the sender chose."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from email.headerregistry import AddressHeader, HeaderRegistry
from functools import lru_cache
from typing import cast

_REGISTRY = HeaderRegistry()
# Defects that do not make the sender ambiguous: an SMTPUTF8 local part, a trailing comma.
_HARMLESS = ("local-part contains non-ASCII", "address-list entry with no content")
_ASCII_UPPER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


@dataclass(frozen=True)
class Sender:
    address: str | None  # normalised addr-spec (see normalise_address), None when unknown
    display_name: str = ""  # what the sender calls themselves; a name, never an identity
    problem: str | None = None  # why the From names no one sender


def raw_text(value: str) -> tuple[str, bool]:
    """A header value as compat32 gives it (8-bit bytes as surrogate escapes) back as text:
    UTF-8 (RFC 6532) when it is valid, else cp1252; and whether it was valid UTF-8."""
    data = value.encode("utf-8", "surrogateescape")
    try:
        return data.decode("utf-8"), True
    except UnicodeDecodeError:
        return data.decode("cp1252", "replace"), False


def unfold(value: str) -> str:
    return re.sub(r"\r?\n(?=[ \t])", "", value)


def normalise_address(addr: str) -> str:
    """The form addresses are compared in: the domain IDNA-encoded and lower-cased, the local
    part as written except ASCII case (NFC for non-ASCII, never a replacement character)."""
    addr = unicodedata.normalize("NFC", addr.strip().strip("<>"))
    local, at, domain = addr.rpartition("@")
    if not at:
        return addr.translate(_ASCII_UPPER)
    domain = domain.rstrip(".")
    try:
        domain = domain.encode("idna").decode("ascii")
    except (UnicodeError, ValueError):
        pass  # not a valid IDN (an address literal, an odd label): compared as written
    return f"{local.translate(_ASCII_UPPER)}@{domain.lower()}"


def parse_mailbox(values: list[str], header: str = "From") -> Sender:
    """The one mailbox named by the header's VALUES (every occurrence of it in the mail)."""
    if not values:
        return Sender(None, problem=f"there is no {header} header")
    if len(values) > 1:
        return Sender(None, problem=f"the mail has {len(values)} {header} headers")
    return _parse_one(header, values[0])


# A game's mail comes from a handful of players whose mail programs write the same From
# line every time; the full RFC 5322 parse is a third of the reading step, so each distinct
# header is parsed once. Sender is frozen, so a cached answer cannot be changed by a caller.
@lru_cache(maxsize=4096)
def _parse_one(header: str, value: str) -> Sender:
    text, utf8 = raw_text(unfold(value))
    try:
        parsed = _REGISTRY(header, text)
    except Exception as e:  # e.g. a CR or LF hidden in an encoded name; the parser's own slips
        # (an AttributeError on a group inside a bad encoded word, found by fuzzing)
        return Sender(None, problem=f"the {header} header cannot be read ({e})")
    defects = [str(d) for d in parsed.defects if not str(d).startswith(_HARMLESS)]
    # the headers read here (From, Sender, Reply-To) are address headers
    named = cast(AddressHeader, parsed).addresses
    addresses = [a for a in named if a.username or a.domain]
    if len(addresses) != 1:
        return Sender(
            None, problem=f"the {header} header names {len(addresses)} addresses, not one"
        )
    a = addresses[0]
    if defects:
        return Sender(None, problem=f"the {header} header is malformed ({defects[0]})")
    if not a.domain or not a.username:
        return Sender(None, problem=f"the {header} header has no complete address")
    if not utf8 and not a.addr_spec.isascii():
        return Sender(None, problem=f"the {header} address is not valid UTF-8")
    if (
        "\ufffd" in a.addr_spec
    ):  # a replacement character: what was meant is lost, no reply can reach it
        return Sender(None, problem=f"the {header} address holds a replacement character (U+FFFD)")
    name = " ".join(a.display_name.replace("\x00", "").split())
    return Sender(normalise_address(a.addr_spec), name)
