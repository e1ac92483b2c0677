"""The separator line ("-----Original Message-----" and its translations) and the header block
(From/Date/Sent/To/Subject, in any order, in the common languages) above a quoted or forwarded
mail end the sender's own words; a line of the sender that merely looks like one is kept
(SPEC §2.4)."""

from __future__ import annotations

import pytest

from mailref.read import own_words

pytestmark = pytest.mark.spec("2.4")

MINE = "FOR — a fair rule.\nOisin"
OLD = "AGAINST\nThe old mail."

SEPARATORS = [
    "-----Original Message-----",
    "----- Original Message -----",
    "-------- Original message --------",
    "-----Ursprüngliche Nachricht-----",
    "-----Antwort Nachricht-----",
    "-----Message d'origine-----",
    "-----Mensaje original-----",
    "-----Missatge original-----",
    "-----Messaggio originale-----",
    "-----Mensagem original-----",
    "-----Oorspronkelijk bericht-----",
    "-----Ursprungligt meddelande-----",
    "-----Oprindelig meddelelse-----",
    "-----Opprinnelig melding-----",
    "-----Alkuperäinen viesti-----",
    "-----Wiadomość oryginalna-----",
    "-----Původní zpráva-----",
    "-----Исходное сообщение-----",
    "-----元のメッセージ-----",
    "-----원본 메시지-----",
    "------------------ 原始邮件 ------------------",
    "---------- Forwarded message ---------",
    "-------- Weitergeleitete Nachricht --------",
    "-------- Message transféré --------",
    "---------- Mensaje reenviado ----------",
    "-------- Messaggio inoltrato --------",
    "---------- Doorgestuurd bericht ---------",
    "Begin forwarded message:",
    "________________________________",
    "----- Reply message -----",
]


@pytest.mark.parametrize("separator", SEPARATORS)
def test_a_separator_ends_the_own_words(separator):
    assert own_words(f"{MINE}\n\n{separator}\n{OLD}\n") == MINE


# (From, Sent/Date, To, Subject) as each language's mail programs write them.
HEADER_WORDS = {
    "english": ("From", "Sent", "To", "Subject"),
    "english, date": ("From", "Date", "To", "Subject"),
    "german": ("Von", "Gesendet", "An", "Betreff"),
    "french": ("De", "Envoyé", "À", "Objet"),
    "spanish": ("De", "Enviado el", "Para", "Asunto"),
    "catalan": ("De", "Enviat", "Per a", "Assumpte"),
    "italian": ("Da", "Inviato", "A", "Oggetto"),
    "portuguese": ("De", "Enviada", "Para", "Assunto"),
    "dutch": ("Van", "Verzonden", "Aan", "Onderwerp"),
    "swedish": ("Från", "Skickat", "Till", "Ämne"),
    "danish": ("Fra", "Sendt", "Til", "Emne"),
    "norwegian": ("Fra", "Sendt", "Til", "Emne"),
    "finnish": ("Lähettäjä", "Lähetetty", "Vastaanottaja", "Aihe"),
    "polish": ("Od", "Wysłano", "Do", "Temat"),
    "czech": ("Od", "Odesláno", "Komu", "Předmět"),
    "russian": ("От", "Отправлено", "Кому", "Тема"),
    "japanese": ("差出人", "送信日時", "宛先", "件名"),
    "korean": ("보낸 사람", "보낸 날짜", "받는 사람", "제목"),
    "chinese": ("发件人", "发送时间", "收件人", "主题"),
    "chinese, traditional": ("寄件者", "傳送時間", "收件者", "主旨"),
}
VALUES = (
    "Nora Quill <nora@quill.example>",
    "Tuesday, 1 December 2026 10:00",
    "Oisin <oisin@x.org>",
    "Re: [Proposal 5] Dice",
)


def block(words: tuple[str, ...], start: int, bold: bool = False) -> str:
    fields = [f"**{w}:** {v}" if bold else f"{w}: {v}" for w, v in zip(words, VALUES, strict=True)]
    return "\n".join(fields[start:] + fields[:start])


@pytest.mark.parametrize("start", range(4), ids=["from", "sent", "to", "subject"])
@pytest.mark.parametrize("language", HEADER_WORDS)
def test_a_header_block_starting_with_any_field_ends_the_own_words(language, start):
    assert own_words(f"{MINE}\n\n{block(HEADER_WORDS[language], start)}\n\n{OLD}\n") == MINE


def test_a_header_block_as_an_html_part_renders_it_ends_the_own_words():
    assert own_words(f"{MINE}\n\n{block(HEADER_WORDS['english'], 0, bold=True)}\n\n{OLD}\n") == MINE


def test_two_header_lines_with_an_address_are_a_block():
    assert (
        own_words(
            f"{MINE}\n\nFrom: nora@quill.example\nDate: Tue, 1 Dec 2026 10:00:00 +0000\n\n{OLD}"
        )
        == MINE
    )
    assert (
        own_words(f"{MINE}\n\nDate: Tue, 1 Dec 2026 10:00:00 +0000\nTo: oisin@x.org\n\n{OLD}")
        == MINE
    )


def test_a_sent_line_above_the_block_goes_with_it():
    body = f"{MINE}\n\nGesendet: Dienstag, 01. Dezember 2026 um 10:00 Uhr\nVon: Nora\nAn: Oisin\nBetreff: Dice\n{OLD}"
    assert own_words(body) == MINE


def test_the_french_webmail_block_ends_the_own_words():
    body = (
        f'{MINE}\n\nMessage du 01/12/26 10:00\nDe : "Nora Quill" <nora@quill.example>\n'
        "A : oisin@x.org\nCopie à : \nObjet : [Proposal 5] Dice\n\n" + OLD
    )
    assert own_words(body) == MINE
    quoted = (
        body.replace("\nDe :", "\n> De :")
        .replace("\nA :", "\n> A :")
        .replace("\nCopie", "\n> Copie")
    )
    assert own_words(quoted.replace("\nObjet", "\n> Objet")) == MINE


@pytest.mark.parametrize(
    "text",
    [
        "Date: Friday 4 December\nTime: 10:00\nPlace: the usual table",
        "To: every player\nSubject: the new scoring\nThe winner is the first to 100 points.",
        "From: the GM's notes\nThe dice are fair.",
        "A: yes\nQ: and the dice?\nA: fair",
    ],
)
def test_lines_of_the_sender_that_look_like_one_or_two_headers_are_kept(text):
    assert own_words(f"FOR\n\n{text}\n") == f"FOR\n\n{text}"
