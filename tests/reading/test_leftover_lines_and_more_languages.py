"""What mail programs leave around the old mail, in more languages: a separator line alone
("-----", "=====") left over above the quote header it precedes, a phone's or a mail app's
footer in the languages the apps speak, a From line standing alone above the old mail, and
quote headers in more languages. None of it is the sender's words; what the sender wrote above
it is kept whole (SPEC §2.4)."""

from __future__ import annotations

import pytest

from mailref.read import own_words, read_envelope
from support.helpers import mail

pytestmark = pytest.mark.spec("2.4")

MINE = "FOR — a fair rule.\nOisin"
OLD = "AGAINST\nThe old mail."


@pytest.mark.parametrize("rule", ["-----", "=====", "__________", "- - - - -", "*****"])
def test_a_separator_line_left_above_a_header_block_goes_with_it(rule):
    block = "From: Bob <bob@x.org>\nSent: Tuesday, 1 December 2026 10:00\nTo: g@x.org\nSubject: Tea"
    assert own_words(f"{MINE}\n\n{rule}\n{block}\n\n{OLD}\n") == MINE


@pytest.mark.parametrize("rule", ["-----", "====="])
def test_a_separator_line_left_above_an_attribution_goes_with_it(rule):
    body = f"{MINE}\n{rule}\nOn Tue, 1 Dec 2026 at 10:00, Bob <bob@x.org> wrote:\n\n{OLD}\n"
    assert own_words(body) == MINE


def test_a_line_of_dashes_between_the_senders_own_paragraphs_is_kept():
    body = f"{MINE}\n\n-----\nP.S. Tea at five.\n"
    assert own_words(body) == f"{MINE}\n\n-----\nP.S. Tea at five."


@pytest.mark.parametrize(
    "separator",
    [
        "-------- Oprindelig besked --------",
        "-------- Videresendt besked --------",
        "-----Eredeti üzenet-----",
        "-------- Továbbított üzenet --------",
        "-----Orijinal mesaj-----",
        "-----Αρχικό μήνυμα-----",
        "-----Mesaj original-----",
        "-----Izvorna poruka-----",
        "-----Оригінальне повідомлення-----",
        "==== Originalt meddelande ====",
    ],
)
def test_separators_in_more_languages_end_the_own_words(separator):
    assert own_words(f"{MINE}\n\n{separator}\n{OLD}\n") == MINE


@pytest.mark.parametrize(
    "footer",
    [
        "Gesendet von Outlook für Android",
        "Envoyé à partir de Outlook pour iOS",
        "Enviado desde Outlook para Android",
        "Inviato da Outlook per iOS",
        "Verzonden vanuit Outlook voor Android",
        "Skickat från Outlook för iOS",
        "Sendt fra Outlook til Android",
        "Wysłane z aplikacji Outlook dla systemu Android",
        "Holen Sie sich Outlook für iOS",
        "Obtenir Outlook pour iOS",
        "Hent Outlook til iOS",
        "Outlook für Android herunterladen",
        "iPhone-ról küldve",
        "Az iPhone-omról küldve",
        "Lähetetty iPhonesta",
    ],
)
def test_an_apps_footer_in_another_language_ends_the_own_words(footer):
    assert own_words(f"{MINE}\n\n{footer}\n\n{OLD}\n") == MINE


@pytest.mark.parametrize(
    "line",
    [
        "Sent from the train, sorry for typos.",
        "Gesendet von Outlook, aber ich meine es ernst.",
        "Get Outlook to stop eating my votes!",
    ],
)
def test_a_sentence_that_begins_like_a_footer_is_the_senders(line):
    assert own_words(f"{MINE}\n{line}\n") == f"{MINE}\n{line}"


@pytest.mark.parametrize(
    "from_line",
    [
        "From: Bob <bob@x.org>",
        "De: Bob Dupont [mailto:bob@x.fr]",
        "Van: bob@x.nl",
        '*From:* "Bob" <bob@x.org>',
        "Von: Bob Müller <bob@x.de>",
    ],
)
def test_a_from_line_alone_ends_the_own_words(from_line):
    assert own_words(f"{MINE}\n\n{from_line}\n\n{OLD}\n") == MINE
    assert own_words(f"{MINE}\n{from_line}\n> AGAINST\n") == MINE


@pytest.mark.parametrize(
    "line", ["From: the kitchen, with love", "From: Bob, who wrote rule 5", "De: nada"]
)
def test_a_from_line_without_an_address_is_the_senders(line):
    assert own_words(f"{line}\n{MINE}\n") == f"{line}\n{MINE}"


@pytest.mark.parametrize(
    "attribution",
    [
        "2026. dec. 1., K 10:00 időpontban Bob <bob@x.org> ezt írta:",
        "Bob <bob@x.org> ezt írta (2026. december 1., kedd 10:00):",
        "Dňa 1. 12. 2026 o 10:00 Bob <bob@x.org> napísal(a):",
        "1. 12. 2026 ob 10:00 je Bob <bob@x.org> napisal(a):",
        "На 1.12.2026 г. в 10:00 Bob <bob@x.org> написа:",
        "Em 1 de dez. de 2026, às 10:00, Bob <bob@x.org> escribiu:",
        "Op 1 Des 2026 om 10:00 het Bob <bob@x.org> het geskryf:",
        "Pada tanggal 1 Des 2026 10.00, Bob <bob@x.org> menulis:",
    ],
)
def test_quote_headers_in_more_languages(attribution):
    assert own_words(f"{MINE}\n\n{attribution}\n\n{OLD}\n") == MINE  # top-posted
    below = f"{attribution}\n> {OLD.replace(chr(10), chr(10) + '> ')}\n\n{MINE}\n"
    assert own_words(below) == MINE  # bottom-posted: the sender's words below count


def test_a_mail_from_a_phone_in_hungarian_is_read_by_the_referee():
    raw = mail(
        "oisin@x.org",
        "game@ref.example",
        "Re: [Proposal 3] Tea",
        f"{MINE}\n\niPhone-ról küldve\n\n2026. dec. 1. dátummal, 10:00 időpontban Bob "
        f"<bob@x.org> ezt írta:\n\n{OLD}\n",
    )
    assert read_envelope(raw).text == MINE
