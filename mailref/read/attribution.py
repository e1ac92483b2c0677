"""The lines a mail program writes above the message it quotes or forwards: attributions
("On <date>, Bob <b@x.org> wrote:" in the languages of the common programs, wrapped over up to
three lines), separators ("-----Original Message-----" and its translations) and header blocks
(From/Date/Sent/To/Subject, in any order, in those languages). quotes.py decides what they cut."""

from __future__ import annotations

import re

# An attribution is a name, an address and a date: longer lines are the sender's own words,
# and are never given to the patterns below.
ATTRIBUTION_MAX = 300

# The verb that ends (or, in a few languages, sits inside) an attribution. English "sent" and
# "wrote" only count at the end: in the middle they are everyday words.
_VERBS_END = tuple(
    "wrote|sent|schrieb|a écrit|escribió|escribio|ha escrit|va escriure|schreef|"
    "het volgende geschreven|geschreven|ha scritto|scrisse|escreveu|skrev|skrifaði|kirjoitti|pisze|"
    "napisał(a)|napisała|napisał|napisal|napsal(a)|napsala|napsal|пишет|написал(а)|написала|"
    "написал|написав(ла)|написав|kirjutas|rašė|rakstīja|napisao|napisala|a scris|yazdı|έγραψε|"
    "đã viết|写道|寫道|のメッセージ|さんは書きました|님이 작성|님이작성|작성|쓴 글|쓴글|"
    "írta|ezt írta|napísal(a)|napísala|napísal|je napisal(a)|je napisala|je napisal|написа|"
    "пише|escribiu|het geskryf|menulis|kirjoitti seuraavaa|skriver|schrijft".split("|")
)
_VERBS_INSIDE = (
    r"schrieb|skrev|kirjoitti|escribió|escreveu|napisał\(a\)|napsal\(a\)|пишет|написал\(а\)"
)
# How an attribution begins in those languages ("On", "Am", "Le", "El", "Op", "Il giorno", "Em",
# "Den", "På", "W dniu", "Dne", "В", "Vào", "In data", "在"), after a leading "- " (Zimbra).
_LEAD = re.compile(
    r"^(?:On|Am|Le|El|Op|Il|Em|Den|På|W\s+dniu|Dnia|Dne|Dňa|В|Vào|In\s+data|Il\s+giorno|"
    r"Dana|Der|Kun|Pe|在)\s",
    re.I,
)
_INSIDE_VERB = re.compile(rf"(?:^|\s)(?:{_VERBS_INSIDE})\s", re.I)
_DATE = re.compile(
    r"\d{1,2}[:.]\d\d|(?<!\d)(?:19|20)\d\d(?!\d)|\d{1,2}[./-]\d{1,2}[./-]\d{2,4}|\d\s*[年월]"
)
_ADDR = re.compile(r"[^\s<>()\"'@:]+@[^\s<>()\"'@]+\.\w")
# mutt's and slrn's common "* Bob <bob@x.org> [2026-12-01 10:00]:" (attribution="* %n <%a> [%d]:").
_STAR_DATE = re.compile(r"^\*\s[^\[\]]+\[[^\[\]]{4,60}\]:\s*$")
# "reply On Wed, 2 Dec 2026 at 10:00, bob@x.org wrote:": the client put the attribution at the
# end of the sender's last line; the words before it are the sender's.
_ON_INSIDE = re.compile(r"(?:\s|-{2,}\s*)(?=On\s[^\n]{0,40}\d)")


def ends_with_verb(text: str) -> bool:
    """Does TEXT end with an attribution's verb (and a colon, if any), a word of its own? Tested
    in C at the end of the line: a pattern searched at every position costs more than the rest
    of the reading."""
    t = " ".join(text[-60:].split()).rstrip(":： ").lower()
    if not t.endswith(_VERBS_END):
        return False
    for verb in _VERBS_END:
        if t.endswith(verb):
            k = len(t) - len(verb)
            if k == 0 or t[k - 1] in " >)\"'”":
                return True
    return False


def _core(s: str) -> str:
    """S without the dashes and stars some clients wrap an attribution in
    ("---- On … wrote ----")."""
    return s.strip().strip("-*_ ").strip()


def is_attribution(text: str) -> bool:
    """Is TEXT (one line, or a wrapped attribution joined with spaces) a mail program's
    attribution line?"""
    if len(text) > ATTRIBUTION_MAX:
        return False
    if _STAR_DATE.match(text.strip()):
        return True
    s = _core(text)
    if not s:
        return False
    dashed = text.strip().startswith("--") and text.strip().endswith("--")
    colon = s.endswith((":", "："))
    if ends_with_verb(s):
        # "---- Bob wrote ----" (Android) is marked by its dashes alone.
        return dashed or bool(_LEAD.match(s) or _DATE.search(s) or "@" in s and _ADDR.search(s))
    if not colon:
        return False
    if _INSIDE_VERB.search(s) and _DATE.search(s):
        return True  # "Den 1 dec. 2026 kl. 10:00 skrev Bob:", "Bob kirjoitti 1.12.2026 10:00:"
    # Gmail's with no verb: a date, then the name and address ending the line ("вт, 1 дек. 2026 г.
    # в 10:00, Bob <b@x.org>:", "2026年12月1日(火) 10:00 Bob <b@x.org>:").
    return "@" in s and bool(_ADDR.search(s) and _DATE.search(s))


def has_date(text: str) -> bool:
    """Does TEXT hold a date or a time ("2026", "1.12.26", "10:00", "12月")?"""
    return _DATE.search(text) is not None


def dated_address(text: str) -> bool:
    """A date and an address with no verb: an attribution only right above a quote
    ("2026/12/1 Bob <b@x.org>" then "> ...")."""
    return (
        len(text) <= ATTRIBUTION_MAX
        and "@" in text
        and bool(_ADDR.search(text) and _DATE.search(text))
    )


def trailing_attribution(line: str) -> str | None:
    """The sender's words before an "On … wrote:" that ends LINE, or None."""
    if len(line) > ATTRIBUTION_MAX or "On " not in line:
        return None
    for m in _ON_INSIDE.finditer(line):
        if m.start() > 0 and is_attribution(line[m.end() :]):
            return line[: m.start()].rstrip(" -")
    return None


def may_end_attribution(line: str) -> bool:
    """A cheap test: could LINE be the last line of an attribution? (Most lines are not.)"""
    s = line.rstrip()
    return s.endswith((":", "：", "-", "]")) or ends_with_verb(s)


# ---- separators --------------------------------------------------------------------------------

_SEPARATOR_WORDS = (
    r"Original Message|Reply Message|Original|Ursprüngliche Nachricht|Antwort "
    r"Nachricht|Originalnachricht|"
    r"Message d'origine|Message original|Mensaje original|Missatge original|Messaggio originale|"
    r"Mensagem original|Oorspronkelijk bericht|Origineel bericht|Originele bericht|Ursprungligt "
    r"meddelande|"
    r"Oprindelig meddelelse|Original meddelelse|Opprinnelig melding|Alkuperäinen viesti|"
    r"Wiadomość oryginalna|Oryginalna wiadomość|Původní zpráva|Pôvodná správa|Исходное сообщение|"
    r"Оригинальное сообщение|Вихідне повідомлення|元のメッセージ|원본 메시지|原始邮件|原始郵件|"
    r"Forwarded message|Forwarded Message|Weitergeleitete Nachricht|Message transféré|Mensaje "
    r"reenviado|"
    r"Missatge reenviat|Messaggio inoltrato|Mensagem encaminhada|Doorgestuurd bericht|"
    r"Vidarebefordrat meddelande|Videresendt meddelelse|Videresendt melding|Välitetty viesti|"
    r"Przekazana wiadomość|Přeposlaná zpráva|Пересылаемое сообщение|Пересланное сообщение|"
    r"Переслане повідомлення|転送されたメッセージ|전달된 메시지|转发的邮件|轉寄的郵件|"
    r"Reply message|Oprindelig besked|Videresendt besked|Originalt meddelande|Eredeti üzenet|"
    r"Továbbított üzenet|"
    r"Orijinal mesaj|Özgün ileti|İletilen mesaj|Αρχικό μήνυμα|Προωθημένο μήνυμα|Mesaj original|"
    r"Mesaj redirecționat|Izvorna poruka|Proslijeđena poruka|Izvirno sporočilo|"
    r"Оригінальне повідомлення|Algne kiri|Pradinis laiškas|Sākotnējā ziņa|Mensagem encaminhada"
)
_SEPARATOR = re.compile(
    rf"^\s*(?:[-=_]{{2,}}\s*(?:{_SEPARATOR_WORDS})\s*[-=_]{{2,}}|[-=]{{2,}}\s*(?:{_SEPARATOR_WORDS})\s*$|"
    r"Begin forwarded message:|Anfang der weitergeleiteten Nachricht:|Début du message "
    r"réenvoyé\s*:|"
    r"Inicio del mensaje reenviado:|_{10,}|-{5,}\s*Reply message\s*-{5,})\s*$",
    re.I,
)


_SEPARATOR_FIRST = frozenset("-=_BADIbadi")


def is_separator(line: str) -> bool:
    """ "-----Original Message-----", "-------- Message transféré --------", "________", ..."""
    s = line.lstrip()
    return (
        bool(s) and s[0] in _SEPARATOR_FIRST and len(line) <= 120 and bool(_SEPARATOR.match(line))
    )


# ---- header blocks -----------------------------------------------------------------------------

# Outlook's, Apple Mail's, webmails' header blocks in the languages they are localised to, also as
# an HTML part renders them (`**From:** x`, `*Sent:* y`). html.py reads the same words.
HEADER_FROM_WORDS = (
    "From|Von|De|Van|Från|Fra|Frá|Da|Od|Lähettäjä|Feladó|От|Від|Kimden|Από|Saatja|Nuo|"
    "发件人|發件人|寄件者|寄件人|差出人|送信者|보낸 사람|보낸사람"
)
HEADER_NEXT_WORDS = (
    "Sent|Date|Gesendet|Datum|Envoyé|Envoyé le|Date d'envoi|Enviado|Enviado "
    "el|Enviada|Enviat|Fecha|"
    "Data|Verzonden|Skickat|Sendt|Sendt den|Inviato|Wysłano|Wysłane|Odesláno|Lähetetty|Päivämäärä|"
    "Elküldve|Отправлено|Дата|Надіслано|Gönderildi|Στάλθηκε|"
    "To|An|À|A|Para|Per a|Aan|Till|Til|Do|Komu|Vastaanottaja|Címzett|Кому|Kime|Προς|"
    "Subject|Betreff|Objet|Sujet|Asunto|Assumpte|Tema|Assunto|Onderwerp|Ämne|Emne|Oggetto|Temat|"
    "Předmět|Aihe|Tárgy|Тема|Konu|Θέμα|Cc|Kopia|Kopie|Копия|Copie à|CC|Bcc|"
    "发送时间|發送時間|日期|收件人|主题|主題|傳送時間|收件者|主旨|送信日時|日付|宛先|件名|"
    "보낸 날짜|날짜|받는 사람|제목|참조"
)
_FIELD = re.compile(
    rf"^\s*(?:>\s*)?[*_]{{0,2}}(?:(?P<first>{HEADER_FROM_WORDS})|(?P<next>{HEADER_NEXT_WORDS}))"
    r"\s*[*_]{0,2}\s*[:：]",
    re.I,
)
_FIRST_NEXT = re.compile(
    r"Sent|Date|Gesendet|Datum|Envoyé|Enviado|Data|Fecha|Verzonden|Skickat|Sendt|Inviato|"
    r"Wysłano|Odesláno|Lähetetty|Отправлено|Дата|"
    r"发送时间|傳送時間|送信日時|日付|보낸 날짜|날짜|日期",
    re.I,
)
# The French webmails' "Message du 01/12/26 10:00" above their block (De / A / Copie à / Objet).
_MESSAGE_DU = re.compile(
    r"^\s*(?:>\s*)?(?:Message du|Mensaje del|Nachricht vom)\s[^\n]{0,40}\d", re.I
)


def header_field(line: str) -> str | None:
    """ "first" for a From line (or a date line, which some blocks start with), "next" for any other
    header field, None for a line that is none."""
    if len(line) > 400 or ":" not in line[:48] and "：" not in line[:48]:
        return None
    m = _FIELD.match(line)
    if m is None:
        return _MESSAGE_DU.match(line) and "first"
    if m.group("first"):
        return "first"
    return "first" if _FIRST_NEXT.fullmatch(m.group("next")) else "next"


def header_block_at(lines: list[str], i: int) -> bool:
    """Does a header block start at line I? Three header lines within six (one of them From, Sent
    or Date), or two in a row with an address: "From: bob@x.org" / "Date: …", "Date: …" /
    "To: bob@x.org"."""
    if header_field(lines[i]) is None:
        return False
    window = lines[i : i + 6]
    kinds = [header_field(w) for w in window]
    if sum(k is not None for k in kinds) >= 3 and "first" in kinds:
        return True
    return (
        len(window) >= 2
        and kinds[1] is not None
        and "first" in kinds[:2]
        and bool(_ADDR.search(window[0]) or _ADDR.search(window[1]))
    )


# A From line alone, the rest of its block left out ("De: Bob <bob@x.org>", "Van: bob@x.org",
# "From: Bob [mailto:bob@x.org]"): nothing but the header word, a name and the address.
_LONE_FROM = re.compile(
    rf"^\s*[*_]{{0,2}}(?:{HEADER_FROM_WORDS})\s*[*_]{{0,2}}\s*[:：]\s*[*_]{{0,2}}\s*"
    r"(?:\"?[^\"<>\[\]@:]{0,60}\"?\s*)?"
    r"(?:<[^<>\s@]+@[^<>\s@]+>|\[mailto:[^\[\]\s@]+@[^\[\]\s@]+\]|[^\s<>@:]+@[^\s<>@]+\.\w+)"
    r"\s*[*_]{0,2}\s*$",
    re.I,
)


def lone_from(line: str) -> bool:
    """Is LINE a header block's From line standing alone, a name and an address?"""
    return len(line) <= 200 and bool(_LONE_FROM.match(line))


_RULE_LINE = re.compile(r"^\s*(?:[-=_*~#]\s?){3,}\s*$")


def is_rule_line(line: str) -> bool:
    """A line of dashes or equals signs alone ("-----", "====="): what a mail program's quote
    header leaves above the block it cut."""
    return bool(_RULE_LINE.match(line))
