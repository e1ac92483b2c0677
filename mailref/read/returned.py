"""Which mail of ours a bounce returns: the Message-IDs in the copy (or headers) of the
original that a delivery report attaches, read from the bytes after the bounce's own header.
A player of several games bounced by one game's mail is recorded in that game only: the
other games' GMs were told of a bounce of mail their game never sent."""

from __future__ import annotations

import re

_MID = re.compile(rb"^message-id:[ \t]*(<[^<>\s]+>)", re.I | re.M)
SCAN = 256 * 1024  # as the bounce detectors: a report says what failed before the mail it returns


def returned_message_ids(raw: bytes) -> list[str]:
    cut = raw.find(b"\r\n\r\n")
    if cut < 0:
        cut = raw.find(b"\n\n")
    if cut < 0:
        return []
    return list(
        dict.fromkeys(m.decode("ascii", "replace") for m in _MID.findall(raw[cut : cut + SCAN]))
    )[:20]
