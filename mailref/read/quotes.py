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
_ADDRESS_WROTE = re.compile(
    r"\S\s+<[^<>\s@]+@[^<>\s]+>\s+(wrote|schrieb|a écrit|escribió|schreef|skrev)\s*+:?\s*$", re.I
)
# Thunderbird's and Gmail's attribution in more languages: a date, then the verb ending the line
# ("W dniu 1.12.2026 o 10:00, Bob pisze:", "01.12.2026 10:00, Bob пишет:", "Bob <b@x> 于2026年12月1日
# 写道："), or Gmail's with no verb at all, a date and the address ending it ("вт, 1 дек. 2026 г. в
# 10:00, Bob <b@x.org>:", "2026年12月1日(火) 10:00 Bob <b@x.org>:").
_DATED_WROTE = re.compile(
    r"^(?=[^\n]*\d)[^\n]*?(?:\b(?:pisze|napisał\(a\)|napisała?|napsal\(a\)|napsala?|пишет|написал\(а\)|написала?|"
    r"написав\(ла\)|написав|kirjoitti|yazdı|έγραψε|skrifaði|rašė|rakstīja|kirjutas|napisao|napisala|a scris|scrisse)|"
    r"写道|寫道|(?<!\d)(?:19|20)\d\d(?!\d)[^\n]*<[^<>\s@]+@[^<>\s]+>)\s*[:：]\s*$",
    re.I,
)
# mutt's and slrn's common "* Bob <bob@x.org> [2026-12-01 10:00]:" (attribution="* %n <%a> [%d]:").
_STAR_DATE = re.compile(r"^\*\s[^\[\]]+\[[^\[\]]{4,60}\]:\s*$")
# An attribution is a name, an address and a date: longer lines are the sender's own words,
# and are never given to the patterns above (which backtrack on long lines).
ATTRIBUTION_MAX = 300
_WROTE_END = re.compile(
    r"(wrote|schrieb|a\s+écrit|escribió|schreef|scritto|escreveu|skrev)\s*+:?\s*$", re.I
)
_WROTE_START = re.compile(r"^\s*(On|Am|Le|El|Op|Il|Em|Den)\s", re.I)
_CUT = re.compile(
    r"^\s*(-{2,}\s*(Original Message|Ursprüngliche Nachricht|Message d'origine|Mensaje original|"
    r"Oorspronkelijk bericht|Forwarded message|Weitergeleitete Nachricht|Message "
    r"transféré)\s*-{2,}|"
    r"Begin forwarded message:|_{10,}|-{5,}\s*Reply message\s*-{5,})\s*$",
    re.I,
)
# Outlook's header block in the languages it is localised to (its reply prefixes RE, AW, SV,
# Antw, VS, ... come with these: "Från: … Skickat: … Till: … Ämne:"), also as an HTML part
# renders it (`**From:** x`, `*Sent:* y`). html.py reads the same words.
HEADER_FROM_WORDS = (
    "From|Von|De|Van|Från|Fra|Frá|Da|Od|Lähettäjä|Feladó|От|Від|Kimden|Από|Saatja|Nuo|"
    "发件人|寄件者|差出人|보낸 사람"
)
HEADER_NEXT_WORDS = (
    "Sent|Date|Gesendet|Envoyé|Enviado|Enviado el|Verzonden|Skickat|Sendt|Sendt den|Inviato|"
    "Wysłano|Odesláno|Lähetetty|Elküldve|Отправлено|Надіслано|Gönderildi|Στάλθηκε|Datum|Data|"
    "To|An|À|Para|Aan|Till|Til|A|Do|Komu|Vastaanottaja|Címzett|Кому|Kime|Προς|"
    "Subject|Betreff|Objet|Asunto|Onderwerp|Ämne|Emne|Oggetto|Temat|Předmět|Aihe|Tárgy|Тема|Konu|"
    "Θέμα|Cc|Kopia|Kopie|Копия|"
    "发送时间|收件人|主题|傳送時間|收件者|主旨|送信日時|宛先|件名|보낸 날짜|받는 사람|제목"
)
_HEADER_BLOCK = re.compile(rf"^\s*[*_]{{0,2}}({HEADER_FROM_WORDS})\s*[:：][*_]{{0,2}}\s+\S", re.I)
_HEADER_NEXT = re.compile(rf"^\s*[*_]{{0,2}}({HEADER_NEXT_WORDS})\s*[:：]", re.I)
_FOOTER = re.compile(
    r"^\s*(Sent from my \w+|Sent from (Outlook|Mail|Yahoo Mail|ProtonMail)|Get Outlook for \w+|"
    r"Von meinem \w+ gesendet|Envoyé de mon \w+|Enviado desde mi \w+|Verzonden vanaf mijn \w+|"
    r"Sent with Proton Mail|Sent from Gmail Mobile|"
    # iOS and Android in other languages: the phrase and the device alone on the line.
    r"(?:Skickat från min|Sendt fra min|Verstuurd vanaf mijn|Inviato da(?: il mio)?|Enviado do "
    r"meu|Enviado de meu|"
    r"Wysłane z(?: mojego)?|Отправлено с|Lähetetty|Envoyé depuis(?: mon)?|Gesendet von(?: "
    r"meinem)?)\s+"
    r"(?:iPhone|iPad|Android|Galaxy|Samsung|Pixel|Huawei|Xiaomi|smartphone|telefon|mobil)[\w'’]*\s*$).*$",
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
            if out and _HEADER_NEXT.match(out[-1]):
                out.pop()  # GMX and web.de put "Gesendet: <date>" above "Von:"
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
    if len(line) <= ATTRIBUTION_MAX and (
        _ATTRIBUTION.match(line)
        or _ADDRESS_WROTE.search(line)
        or _STAR_DATE.match(line)
        or _DATED_WROTE.match(line)
    ):
        return 1
    # Clients wrap long attributions: "On Mon, 30 Nov 2026 at 10:02, Bob <b@x>\nwrote:"
    if (
        i + 1 < len(lines)
        and len(line) + len(lines[i + 1]) < 200
        and _WROTE_START.match(line)
        and _WROTE_END.search(lines[i + 1])
        and not lines[i + 1].lstrip().startswith(">")
    ):
        return 2
    return 0


def _next_nonblank(lines: list[str], i: int) -> int | None:
    while i < len(lines):
        if lines[i].strip():
            return i
        i += 1
    return None


def _looks_like_header_block(lines: list[str], i: int) -> bool:
    window = lines[i + 1 : i + 5]
    return sum(1 for w in window if _HEADER_NEXT.match(w)) >= 2
