"""Which earlier mail a new one duplicates, read from its header at intake (no parse).

The same Message-ID with other bytes is the same mail come another way (through a list and
directly, a second MX) only when it names the same author: a Message-ID alone is the
sender's to choose (one seen in a Cc or a list's archive can be reused, and some gateways
write one Message-ID for every mail), so it never drops another sender's mail as a
duplicate. A list's copy (List-Id) still counts as the mail it copies, whatever its From
(lists that rewrite From for DMARC)."""

from __future__ import annotations

import re

from mailref.read.identity import normalise_address

_FROM = re.compile(rb"^from:[ \t]*([^\r\n]*(?:\r?\n[ \t][^\r\n]*)*)", re.I | re.M)
_LIST_ID = re.compile(rb"^list-id:", re.I | re.M)
_ANGLE = re.compile(r"<([^<>\s]+@[^<>\s]+)>")
_BARE = re.compile(r"[^\s<>\"(),;:]+@[^\s<>\"(),;:]+")


def head_of(raw: bytes) -> bytes:
    return raw[:65536].split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0]


def author(raw: bytes) -> tuple[str, bool]:
    """The From address as the store compares senders ("" when none), and whether a list sent it."""
    head = head_of(raw)
    found = _FROM.search(head)
    addr = ""
    if found:
        text = found.group(1).decode("utf-8", "replace")
        m = _ANGLE.search(text) or _BARE.search(text)
        addr = normalise_address(m.group(1) if m and m.re is _ANGLE else m.group(0)) if m else ""
    return addr[:320], bool(_LIST_ID.search(head))
