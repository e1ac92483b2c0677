"""What is not the sender's own words: quotes, attributions, forwarded and original
messages, signatures and mobile footers. A vote or an order in any of these never counts."""

from __future__ import annotations

import re

from mailref.read.limits import bounded

# "On <date>, <name> wrote:" and its cousins in other languages; may wrap over two lines.
_ATTRIBUTION = re.compile(
    r"^\s*(On\s.+\swrote:|Am\s.+\sschrieb.*:|Le\s.+\sa\s+écrit\s*:|El\s.+\sescribió:|"
    r"Op\s.+\sschreef.*:|Il\s.+\sha\s+scritto:|Em\s.+\sescreveu:|Den\s.+\sskrev.*:)\s*$",
    re.I,
)
# "Bob <bob@x.org> wrote:" in any language above; searched, and linear: an address token
# holds no space or angle bracket, so no two ways to split a line are ever tried.
_ADDRESS_WROTE = re.compile(r"\S\s+<[^<>\s@]+@[^<>\s]+>\s+(wrote|schrieb|a écrit|escribió|schreef|skrev)\s*+:?\s*$", re.I)
# An attribution is a name, an address and a date: longer lines are the sender's own words,
# and are never given to the patterns above (which backtrack on long lines).
ATTRIBUTION_MAX = 300
_WROTE_END = re.compile(r"(wrote|schrieb|a\s+écrit|escribió|schreef|scritto|escreveu|skrev)\s*+:?\s*$", re.I)
_WROTE_START = re.compile(r"^\s*(On|Am|Le|El|Op|Il|Em|Den)\s", re.I)
_CUT = re.compile(
    r"^\s*(-{2,}\s*(Original Message|Ursprüngliche Nachricht|Message d'origine|Mensaje original|"
    r"Oorspronkelijk bericht|Forwarded message|Weitergeleitete Nachricht|Message transféré)\s*-{2,}|"
    r"Begin forwarded message:|_{10,}|-{5,}\s*Reply message\s*-{5,})\s*$",
    re.I,
)
# Outlook's header block, also as an HTML part renders it (`**From:** x`, `*Sent:* y`).
_HEADER_BLOCK = re.compile(r"^\s*[*_]{0,2}(From|Von|De|Van)\s*:[*_]{0,2}\s+\S", re.I)
_HEADER_NEXT = re.compile(r"^\s*[*_]{0,2}(Sent|Date|Gesendet|Envoyé|Enviado|Verzonden|To|An|À|Para|Aan|Subject|Betreff|Objet|Asunto|Onderwerp)\s*:", re.I)
_FOOTER = re.compile(
    r"^\s*(Sent from my \w+|Sent from (Outlook|Mail|Yahoo Mail|ProtonMail)|Get Outlook for \w+|"
    r"Von meinem \w+ gesendet|Envoyé de mon \w+|Enviado desde mi \w+|Verzonden vanaf mijn \w+|"
    r"Sent with Proton Mail|Sent from Gmail Mobile).*$",
    re.I,
)


def own_words(text: str) -> str:
    """The sender's own lines: everything quoted, attributed, forwarded or signed removed."""
    lines = bounded(text).replace("\r\n", "\n").replace("\r", "\n").split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if line.rstrip("\r") in ("-- ", "--") or stripped == "-- ":
            break  # signature: the rest is not commands
        if _CUT.match(line):
            break
        if _HEADER_BLOCK.match(line) and _looks_like_header_block(lines, i):
            break
        attrib_len = _attribution_at(lines, i)
        if attrib_len:
            nxt = _next_nonblank(lines, i + attrib_len)
            if nxt is not None and lines[nxt].lstrip().startswith(">"):
                i += attrib_len  # bottom-posting: drop the attribution, the quote goes below
                continue
            break  # top-posting: everything after the attribution is the old mail
        if stripped.startswith(">"):
            i += 1
            continue
        if _FOOTER.match(line):
            i += 1
            continue
        out.append(line)
        i += 1
    while out and not out[-1].strip():
        out.pop()
    while out and not out[0].strip():
        out.pop(0)
    return "\n".join(out)


def _attribution_at(lines: list[str], i: int) -> int:
    line = lines[i]
    if len(line) <= ATTRIBUTION_MAX and (_ATTRIBUTION.match(line) or _ADDRESS_WROTE.search(line)):
        return 1
    # Clients wrap long attributions: "On Mon, 30 Nov 2026 at 10:02, Bob <b@x>\nwrote:"
    if i + 1 < len(lines) and len(line) + len(lines[i + 1]) < 200 and _WROTE_START.match(line) \
            and _WROTE_END.search(lines[i + 1]) and not lines[i + 1].lstrip().startswith(">"):
        return 2
    return 0


def _next_nonblank(lines: list[str], i: int) -> int | None:
    while i < len(lines):
        if lines[i].strip():
            return i
        i += 1
    return None


def _looks_like_header_block(lines: list[str], i: int) -> bool:
    window = lines[i + 1:i + 5]
    return sum(1 for w in window if _HEADER_NEXT.match(w)) >= 2
