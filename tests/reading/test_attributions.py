"""The attribution a mail program writes above the mail it quotes ends the sender's own words
(top-posting) or is dropped with its quote (bottom-posting), in the common languages and when
wrapped over two or three lines; the words the sender wrote are all kept (SPEC §2.4)."""

from __future__ import annotations

import pytest

from mailref.read import own_words, read_envelope
from support.helpers import mail

pytestmark = pytest.mark.spec("2.4")

MINE = "AGAINST. It breaks rule 5.\nSee you at the table,\nOisin"
OLD = "FOR, I said before.\nThe old mail goes on here."
QUOTED = "> FOR, I said before.\n> The old mail goes on here."

ATTRIBUTIONS = {
    "english": "On Tue, 1 Dec 2026 at 10:00, Nora Quill <nora@quill.example> wrote:",
    "english, no date": "On Tuesday, Nora Quill wrote:",
    "english, wrapped in two": "On Tue, 1 Dec 2026 at 10:00, Nora Quill <\nnora@quill.example> wrote:",
    "english, wrapped in three": "On Dec 1, 2026, at 10:00 AM, Nora Quill\n<nora@quill.example>\nwrote:",
    "address glued to the verb": "On Tue, Dec 1, 2026 at 10:00 AM, Nora Quill\n<nora@quill.example>wrote:",
    "zimbra": "- On 1 Dec 2026 10:00, Nora Quill wrote:",
    "zoho": "---- On Tue, 01 Dec 2026 10:00:00 +0000 Nora Quill <nora@quill.example> wrote ----",
    "dashes glued": "------On 01/12/2026 10:00 AM, Nora Quill wrote-----",
    "android": "---- Nora Quill wrote ----",
    "sent": "On 01-Dec-2026, at 10:00, Nora Quill <nora@quill.example> sent:",
    "mutt": "* Nora Quill <nora@quill.example> [2026-12-01 10:00]:",
    "german": "Am 01.12.2026 um 10:00 schrieb Nora Quill <nora@quill.example>:",
    "french": "Le mar. 1 déc. 2026 à 10:00, Nora Quill <nora@quill.example> a écrit :",
    "spanish": "El mar, 1 dic 2026 a las 10:00, Nora Quill (<nora@quill.example>) escribió:",
    "catalan": "El 01/12/26 a les 10:00, Nora Quill ha escrit:",
    "catalan, gmail": "El dt., 1 de des. 2026 a les 10:00, Nora Quill (<nora@quill.example>) va escriure:",
    "italian": "In data 1 dicembre 2026 10:00:00 CET, Nora Quill ha scritto:",
    "italian, gmail": "Il giorno mar 1 dic 2026 alle ore 10:00 Nora Quill <nora@quill.example> ha scritto:",
    "portuguese": "Em ter., 1 de dez. de 2026 às 10:00, Nora Quill <nora@quill.example> escreveu:",
    "dutch": "Op di 1 dec. 2026 om 10:00 schreef Nora Quill <nora@quill.example>:",
    "dutch, apple": "Op 1 dec. 2026, om 10:00 heeft Nora Quill <nora@quill.example> het volgende geschreven:",
    "swedish": "Den 2026-12-01 kl. 10:00, skrev Nora Quill:",
    "danish": "Den 1. dec. 2026 kl. 10.00 skrev Nora Quill <nora@quill.example>:",
    "norwegian": "På 1. desember 2026 på 10:00:00, Nora Quill (nora@quill.example) skrev:",
    "finnish, wrapped": "ti 1. jouluk. 2026 klo 10.00 Nora Quill (\nnora@quill.example) kirjoitti:",
    "finnish, thunderbird": "Nora Quill kirjoitti 1.12.2026 10:00:",
    "polish, wrapped": "W dniu 1.12.2026 o 10:00, Nora Quill <nora@quill.example>\nnapisał:",
    "czech": "Dne 1. 12. 2026 v 10:00 Nora Quill <nora@quill.example> napsal(a):",
    "russian, gmail": "вт, 1 дек. 2026 г. в 10:00, Nora Quill <nora@quill.example>:",
    "russian, wrapped": '01.12.2026 10:00 пользователь "nora@quill.example" <\nnora@quill.example> написал:',
    "japanese, gmail": "2026年12月1日(火) 10:00 Nora Quill <nora@quill.example>:",
    "japanese": "Nora Quill <nora@quill.example> のメッセージ:",
    "korean": "2026년 12월 1일 (화) 오전 10:00, Nora Quill <nora@quill.example>님이 작성:",
    "chinese": "在 2026年12月1日 10:00，Nora Quill 写道：",
    "vietnamese": "Vào 10:00 1 tháng 12, 2026, Nora Quill <nora@quill.example> đã viết:",
}


@pytest.mark.parametrize("attribution", ATTRIBUTIONS.values(), ids=ATTRIBUTIONS.keys())
def test_a_top_posted_reply_keeps_every_own_line_and_nothing_after_the_attribution(attribution):
    assert own_words(f"{MINE}\n\n{attribution}\n\n{OLD}\n") == MINE
    assert own_words(f"{MINE}\n\n{attribution}\n{QUOTED}\n") == MINE


@pytest.mark.parametrize("attribution", ATTRIBUTIONS.values(), ids=ATTRIBUTIONS.keys())
def test_a_bottom_posted_reply_keeps_the_words_below_the_quote(attribution):
    assert own_words(f"{attribution}\n> FOR\n> More of the old mail.\n\n{MINE}\n") == MINE


def test_inline_answers_between_quotes_are_all_kept():
    body = (
        "On Tue, 1 Dec 2026 at 10:00, Nora Quill <nora@quill.example> wrote:\n> Do you back proposal 3?\n\n"
        "AGAINST. Too many dice.\n\n> And proposal 4?\n\nFOR\n\n> Cheers, Nora\n"
    )
    assert own_words(body) == "AGAINST. Too many dice.\n\nFOR"


def test_an_attribution_at_the_end_of_the_senders_last_line_keeps_the_words_before_it():
    assert (
        own_words("FOR, gladly On Tue, 1 Dec 2026 at 10:00, nora@quill.example wrote:\n> AGAINST\n")
        == "FOR, gladly"
    )
    assert (
        own_words(
            "FOR, gladly--- On Tue, 1 Dec 2026 at 10:00, nora@quill.example wrote:\n> AGAINST\n"
        )
        == "FOR, gladly"
    )


def test_a_wrapped_attribution_whose_last_line_was_quoted_ends_the_own_words():
    body = "AGAINST\n\nOn Tue, Dec 1, 2026 at 10:00 AM Nora Quill\n\n<\nmailto:Nora Quill <nora@quill.example>\n> wrote:\nFOR\n"
    assert own_words(body) == "AGAINST"


def test_a_dated_address_right_above_a_quote_is_an_attribution():
    assert own_words("AGAINST\n2026/12/1 Nora Quill <nora@quill.example>\n\n> FOR\n") == "AGAINST"


@pytest.mark.parametrize(
    "line",
    [
        "On Monday I will be away, so here is my vote early.",
        "On reflection: AGAINST.",
        "Here is what I sent:",
        "The proposal I wrote:",
        "Rule 5 as it stood on 1 Dec 2026:",
        "I vote FOR on 1 Dec 2026",
    ],
)
def test_a_sentence_of_the_sender_that_looks_a_little_like_an_attribution_is_kept(line):
    assert own_words(f"{line}\nAGAINST\n\nCheers\n") == f"{line}\nAGAINST\n\nCheers"


def test_a_line_above_a_wrapped_attribution_is_not_taken_with_it():
    body = "I vote FOR.\nOn Tue, 1 Dec 2026 at 10:00, Nora Quill <\nnora@quill.example> wrote:\n> AGAINST\n"
    assert own_words(body) == "I vote FOR."


def test_a_whole_mail_is_read_the_same_way():
    body = f"{MINE}\n\n{ATTRIBUTIONS['english, wrapped in three']}\n\n{QUOTED}\n"
    env = read_envelope(mail("oisin@x.org", "nomes@ref.example", "Re: [Proposal 5] Dice", body))
    assert env.text == MINE


def test_a_numbered_ballot_right_above_an_attribution_is_kept():
    body = "12 FOR\nNora Quill <nora@quill.example> wrote:\n> 12 AGAINST\n"
    assert own_words(body) == "12 FOR"
