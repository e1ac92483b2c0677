"""How much of a mail is read for commands. The raw mail is always kept whole in the inbox;
reading sees at most READ_MAX characters of text, lines cut at LINE_MAX, so no mail can hold
the referee longer than a fixed budget whatever it contains."""

from __future__ import annotations

READ_MAX = 100_000  # characters of a body read for commands (a long proposal is ~20,000)
LINE_MAX = 2_000  # characters of one line; longer lines are prose, not commands
HTML_MAX = 200_000  # characters of an HTML part turned into text (HTML is verbose)
# Boundary lines ("--...") in the body of a multipart mail, and multiparts declared in it (each
# names its own boundary). The standard library's MIME parser takes time that grows faster than
# the parts (a 3.6 MB mail of 100,000 parts took 20 s to read) and much faster than the nesting,
# recursing once per level (RecursionError past ~900 levels, caught where it is read). A
# person's mail has a few parts; a list's MIME digest some hundreds.
BOUNDARIES_MAX = 1_000
MULTIPARTS_MAX = 100
# Characters of a header read (References: its newest end). The standard library's address
# and encoded-word parsers are slow on huge headers (a To of 100,000 addresses took minutes);
# a subject past 2,000 characters is no command anyway, and 20,000 hold some 600 addresses.
HEADER_MAX = 20_000
# Authentication-Results headers read, from the top (auth.py). The receiving server writes its
# own on top; a chain of internal hops adds a few above it. Each costs ~0.1 ms to parse, and a
# 10 MB mail holds 200,000 of them: 20 s of the referee's time for every such mail, where the
# answer is always in the first few.
AUTH_RESULTS_MAX = 50
# Bytes of a mail the bounce detectors (flufl.bounce) look at: their patterns searched 9 MB of
# text for 40 s; a bounce says what failed before the message it returns.
BOUNCE_SCAN_MAX = 256 * 1024


def bounded(text: str) -> str:
    """TEXT cut to what reading looks at: READ_MAX characters, every line at most LINE_MAX."""
    if len(text) > READ_MAX:
        text = text[:READ_MAX]
    if len(text) <= LINE_MAX:
        return text
    lines = text.split("\n")
    if max(map(len, lines)) <= LINE_MAX:
        return text
    return "\n".join(ln[:LINE_MAX] for ln in lines)


def too_many_parts(raw: bytes, body_at: int) -> int:
    """The boundary lines of RAW's body (from BODY_AT) when it is multipart and has more than
    BOUNDARIES_MAX of them or more than MULTIPARTS_MAX multiparts inside, else 0: then only
    its header is read."""
    if b"multipart" not in raw[:body_at].lower():
        return 0
    n = raw.count(b"\n--", body_at)
    if (
        n > BOUNDARIES_MAX
        or n > MULTIPARTS_MAX
        and raw.lower().count(b"boundary=", body_at) > MULTIPARTS_MAX
    ):
        return n
    return 0


def was_cut(text: str) -> bool:
    """Whether reading TEXT leaves something unread."""
    return len(text) > READ_MAX or any(len(ln) > LINE_MAX for ln in text.split("\n"))
