"""What is not the sender's own words: quotes, attributions, forwarded and original
messages, signatures and mobile footers. A vote or an order in any of these never counts.

Top-posting (own words, then the attribution and the old mail): everything from the attribution
on is cut. Bottom-posting and inline replies (an attribution right above `>` lines): the
attribution and the `>` lines go, the sender's words between and below them stay."""

from __future__ import annotations

import re

from mailref.read.attribution import (
    ATTRIBUTION_MAX,
    HEADER_FROM_WORDS,
    HEADER_NEXT_WORDS,
    dated_address,
    has_date,
    header_block_at,
    header_field,
    is_attribution,
    is_rule_line,
    is_separator,
    lone_from,
    may_end_attribution,
    trailing_attribution,
)
from mailref.read.footers import is_footer
from mailref.read.limits import bounded

__all__ = ["ATTRIBUTION_MAX", "HEADER_FROM_WORDS", "HEADER_NEXT_WORDS", "is_footer", "own_words"]

# A wrapped quote line that lost its `>`: between two quoted lines, the tail of a link or a
# parenthesis ("(http://x.org/a) >", "_nonce=3dd518)").
_LOST_MARK = re.compile(r"^\s*[(\[_=&?/#)\]]|://|>\s*$")
# ">>> http://x.org <<<": a banner between arrows, not a quote.
_BANNER = re.compile(r"^>>[^<]*<<+$")


_SEPARATOR_FIRST = frozenset("-=_BADIbadi")  # how every separator line starts (attribution.py)
_BLANK_OR_QUOTE = ("", " ", "\t", ">")
_ENDS = frozenset(":：-]")


def own_words(text: str) -> str:
    """The sender's own lines: everything quoted, attributed, forwarded or signed removed."""
    lines = bounded(text).replace("\r\n", "\n").replace("\r", "\n").split("\n")
    out: list[str] = []
    src: list[int] = []  # the line each kept line came from
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        stripped = line.strip()
        if not stripped:
            if not (out and not out[-1].strip() and src[-1] < i - 1):  # one blank where a quote was
                out.append(line)
                src.append(i)
            i += 1
            continue
        if line in ("-- ", "--") or stripped == "-- ":
            break  # signature: the rest is not commands
        first = stripped[0]
        if first == ">" and not (stripped.endswith("<<") and _BANNER.match(stripped)):
            if (
                stripped[-1] == ":"
                and _quoted_verb_ends_attribution(stripped, out)
                and _drop_wrapped(out, src, lines, i)
                and not _quote_follows(lines, i + 1)
            ):
                break  # its original follows unquoted
            i += 1
            continue
        if first in _SEPARATOR_FIRST and is_separator(line):
            break
        if (
            (":" in line[:48] or "：" in line[:48])
            and header_field(line)
            and (header_block_at(lines, i) or lone_from(line))
        ):
            while out and out[-1].strip() and header_field(out[-1]):
                out.pop()  # GMX puts "Gesendet: <date>" above "Von:", webmails "Message du …"
            break
        quoted_below = (
            i + 1 < n and lines[i + 1][:1] in _BLANK_OR_QUOTE and _quote_follows(lines, i + 1)
        )
        if quoted_below or stripped[-1] in _ENDS or may_end_attribution(stripped):
            own_start = not _begins_attribution(stripped) and trailing_attribution(line)
            wrapped = None if own_start else _attribution_lines(lines, i, out, src, quoted_below)
            if wrapped is not None:
                del out[len(out) - wrapped :]
                del src[len(src) - wrapped :]
                if quoted_below:
                    i += 1  # bottom-posting: drop the attribution, the quote goes below
                    continue
                break  # top-posting: everything after the attribution is the old mail
            if (before := trailing_attribution(line)) is not None:
                if before.strip():
                    out.append(before)
                    src.append(i)
                if quoted_below:
                    i += 1
                    continue
                break
        if is_footer(line):
            break  # the phone's footer closes what the sender wrote; the original may follow
        if (
            0 < i < n - 1
            and lines[i - 1].lstrip().startswith(">")
            and lines[i + 1].lstrip().startswith(">")
            and _LOST_MARK.search(line)
        ):
            i += 1
            continue
        out.append(line)
        src.append(i)
        i += 1
    while out and (not out[-1].strip() or i < n and is_rule_line(out[-1])):
        out.pop()  # what was cut leaves no separator line ("-----", "=====") behind
    while out and not out[0].strip():
        out.pop(0)
    return "\n".join(out)


def _quote_follows(lines: list[str], i: int) -> bool:
    """Is the next non-blank line (within two) a quoted one?"""
    if i >= len(lines) or lines[i][:1] not in ("", " ", "\t", ">"):
        return False  # the common case: the next line is text
    for line in lines[i : i + 3]:
        if line.strip():
            return line.lstrip().startswith(">")
    return False


def _attribution_lines(
    lines: list[str], i: int, out: list[str], src: list[int], quoted_below: bool
) -> int | None:
    """When line I ends an attribution: how many of the kept lines just above it belong to it
    (a client wraps a long one: "On Mon, 30 Nov 2026 at 10:02, Bob <" / "bob@x.org> wrote:");
    None when it ends none. The lines joined to it are the source lines right above it, none
    blank or ending a sentence, the first starting as an attribution starts ("On …", a date)."""
    line = lines[i].strip()
    if len(line) > ATTRIBUTION_MAX:
        return None
    above: list[str] = []
    j = len(out) - 1
    while len(above) < 3 and j >= 0 and src[j] == i - 1 - len(above):
        ln = out[j].strip()
        if not ln or ln.endswith((".", "!", "?")) and not ln.endswith(("a.m.", "p.m.")):
            break
        above.insert(0, ln)
        j -= 1
    for k in range(len(above), 0, -1):
        if _begins_attribution(above[-k]) and sum(map(len, above[-k:])) <= ATTRIBUTION_MAX:
            joined = " ".join([*above[-k:], line])
            if is_attribution(joined) or quoted_below and dated_address(joined):
                return k
    if is_attribution(line) or quoted_below and dated_address(line):
        return 0
    return None


_LEADS = re.compile(
    r"^(?:-\s)?(?:On|Am|Le|El|Op|Il|Em|Den|På|W\s+dniu|Dnia|Dne|Dňa|В|Vào|In\s+data|"
    r"Il\s+giorno|Dana|在)\s",
    re.I,
)
_DATED_START = re.compile(r"^\W{0,2}\d|^\w{1,4}\.?,?\s+\d{1,2}\b")


def _begins_attribution(line: str) -> bool:
    """Does LINE start as an attribution does: "On …", "Am …", or a date ("01.12.2026 10:00, …",
    "ti 1. jouluk. 2026 …")? A line that starts with a number and holds no date ("12 FOR")
    does not."""
    line = line.lstrip("-* ")
    return bool(_LEADS.match(line) or _DATED_START.match(line) and has_date(line))


_VERB_ONLY = re.compile(
    r"^>\s*(wrote|schrieb|a écrit|escribió|schreef|skrev|kirjoitti|napisał\(a\)|написал\(а\))\s*:$",
    re.I,
)


def _quoted_verb_ends_attribution(stripped: str, out: list[str]) -> bool:
    """ "> wrote:" (a client that wrapped the attribution and quoted its last line)."""
    return bool(_VERB_ONLY.match(stripped)) and any(
        _begins_attribution(ln.strip()) for ln in out[-5:] if ln.strip()
    )


def _drop_wrapped(out: list[str], src: list[int], lines: list[str], i: int) -> bool:
    """Remove the kept lines of an attribution whose last line is the quoted verb at I; whether
    there were such lines."""
    for back in range(min(5, len(out)), 0, -1):
        first = out[-back].strip()
        if first and _begins_attribution(first) and src[-back] >= i - 6:
            joined = (
                " ".join(ln.strip() for ln in out[-back:] if ln.strip())
                + " "
                + lines[i].strip().lstrip("> ")
            )
            if is_attribution(joined):
                del out[-back:]
                del src[-back:]
                return True
            return False
    return False
