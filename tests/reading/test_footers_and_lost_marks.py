"""A phone's or webmail's footer is only a whole line of a known form, and it closes what the
sender wrote (the original may follow unquoted); a sentence that begins like one is the sender's.
A wrapped quote line that lost its `>` is still quoted; a banner between arrows is not a quote;
a signature starts at a `-- ` line only (SPEC §2.4)."""

from __future__ import annotations

import pytest

from mailref.read import own_words

pytestmark = pytest.mark.spec("2.4")

MINE = "AGAINST; the dice favour the mover."

FOOTERS = [
    "Sent from my iPhone",
    "Sent from my iPad",
    "Sent from my Verizon Wireless BlackBerry",
    "Sent from my Samsung Galaxy smartphone.",
    "Sent from my mobile device",
    "Get Outlook for iOS",
    "Get Outlook for Android<https://aka.ms/ghei36>",
    "Sent from Mail for Windows 10",
    "Sent with Proton Mail",
    "Von meinem iPhone gesendet",
    "Envoyé de mon iPhone",
    "Enviado desde mi iPhone",
    "Enviat des del meu iPhone",
    "Inviato da iPhone",
    "Enviado do meu iPhone",
    "Verzonden vanaf mijn iPhone",
    "Skickat från min iPhone",
    "Sendt fra min iPhone",
    "Lähetetty iPhonesta",
    "Wysłane z iPhone'a",
    "Odesláno z iPhonu",
    "Отправлено с iPhone",
    "iPhoneから送信",
    "내 iPhone에서 보냄",
    "从我的iPhone发送",
]


@pytest.mark.parametrize("footer", FOOTERS)
def test_a_footer_is_not_the_senders_words(footer):
    assert own_words(f"{MINE}\n\n{footer}\n") == MINE


@pytest.mark.parametrize("footer", FOOTERS[:6])
def test_the_unquoted_original_after_a_footer_is_not_the_senders_words(footer):
    assert (
        own_words(
            f"{MINE}\n\n{footer}\n\nFOR. This is the mail replied to, unquoted.\nIt goes on.\n"
        )
        == MINE
    )


@pytest.mark.parametrize(
    "line",
    [
        "Sent from my desk, is much easier than from my phone.",
        "Sent from my holiday cottage.",
        "Sent from my iPhone, so forgive the typos.",
        "Get Outlook for iOS if you want, I won't.",
    ],
)
def test_a_sentence_that_begins_like_a_footer_is_kept(line):
    assert own_words(f"{MINE}\n\n{line}\nCheers\n") == f"{MINE}\n\n{line}\nCheers"


def test_a_wrapped_quote_line_that_lost_its_mark_is_still_quoted():
    body = (
        "FOR\n\nOn Tue, 1 Dec 2026 at 10:00, Nora Quill <nora@quill.example> wrote:\n"
        "> Read the rule (http://nomes.example/rules?id=\n_5&v=2)\n> AGAINST\n"
        "> See http://nomes.example/c/Yz\n (http://nomes.example/c/Yz) >\n> Nora\n"
    )
    assert own_words(body) == "FOR"


def test_an_answer_between_quote_lines_is_kept():
    assert (
        own_words(
            "> Do you back proposal 5?\nFOR\n> And the dice?\nAGAINST, they are loaded.\n> Nora\n"
        )
        == "FOR\nAGAINST, they are loaded."
    )


def test_a_banner_between_arrows_is_no_quote():
    body = "Come and play on Friday.\n>>> http://nomes.example/table <<<\nBring dice."
    assert own_words(body) == body


def test_a_signature_starts_only_at_its_own_line():
    assert (
        own_words("FOR -- and gladly.\nOisin\n-- \nOisin of Nomes\nVote FOR everything\n")
        == "FOR -- and gladly.\nOisin"
    )
