"""The quote each client adds is not the sender's words: Outlook in any language, mutt, Thunderbird,
GMX."""

from __future__ import annotations

import pytest

from mailref.read import read_envelope
from support import clients
from support.client_play import NOMES, last, play, sidekick
from support.helpers import Outbox, assert_replays
from support.joining import confirm_waiting
from support.paths import CORPUS  # noqa: E402
from support.play import addr

pytestmark = pytest.mark.spec("2.4")


@pytest.mark.parametrize(
    "lang,prefix", [("sv", "SV: "), ("no", "SV: "), ("it", "R: "), ("de", "AW: "), ("nl", "Antw: ")]
)
def test_an_outlook_reply_in_any_language_is_read_without_the_mail_it_quotes(
    referee, outbox, lang, prefix
):
    """Outlook quotes the mail replied to under a header block in the user's language
    ("Från: … Skickat: … Till: … Ämne:"), unquoted. Only the English, German, French, Spanish
    and Dutch blocks were known: a Swedish, Norwegian or Italian judge's Reply to "You are the
    judge" was read whole as the ruling (SPEC §2.4), and every player was sent the judge mail's
    text and header block as part of the ruling."""
    mover, (asker, _) = sidekick(referee)
    play(
        referee,
        clients.fresh(addr(asker), asker, NOMES, "[CfJ] Is tea compulsory?", "Rule 24 says shall."),
    )
    judge = referee.state("nomes")["judgements"][0]["judge"]
    asked = last(outbox, judge, "judge", "[Judgement 1]")
    play(
        referee,
        clients.outlook(
            asked,
            addr(judge),
            judge,
            "TRUE: tea is compulsory.\n\nHilsen\n" + judge,
            prefix=prefix,
            lang=lang,
            tnef=True,
        ),
    )
    assert (
        referee.state("nomes")["judgements"][0]["ruling"]
        == f"TRUE: tea is compulsory.\n\nHilsen\n{judge}"
    )
    told = Outbox.body(last(outbox, asker, "announcement", "Ruling by"))
    assert "You are the judge" not in told and "[Ruling] 1" not in told, told
    assert_replays(referee)


def test_a_mutt_attribution_is_not_the_senders_words():
    """mutt's "* Name <address> [date]:" above a bottom-posted quote stayed in the text read."""
    env = read_envelope(
        (CORPUS / "mutt_pgp_signed.eml").read_bytes(), own_address="referee@ref.example"
    )
    assert env.text == "AGAINST"


@pytest.mark.parametrize(
    "attribution",
    [
        "W dniu 1.12.2026 o 10:00, {game} pisze:",
        "01.12.2026 10:00, {game} пишет:",
        "Dne 1. 12. 2026 v 10:00 {game} napsal(a):",
        "ti 1.12.2026 klo 10.00 {game} kirjoitti:",
    ],
)
def test_the_gms_results_from_a_thunderbird_in_polish_or_russian_do_not_carry_its_attribution(
    referee, outbox, attribution
):
    """The GM answered "Orders of all players" from Thunderbird in Polish: "W dniu 1.12.2026 o
    10:00, Orders game pisze:" over the quote was not known as an attribution (only English,
    German, French, Spanish, Dutch, Italian, Portuguese and Scandinavian ones were), so every
    player's results ended with that line."""
    referee.create_game("war", "orders", "war@ref.example", gm="gm@ref.example")
    for p in ("Alice", "Bob"):
        play(referee, clients.fresh(addr(p), p, "war@ref.example", "[Join]", f"Name: {p}\n"))
        confirm_waiting(referee)
    referee.admin("war", {"type": "start"}, "gm@ref.example")
    for p in ("Alice", "Bob"):
        play(referee, clients.fresh(addr(p), p, "war@ref.example", "[Orders]", "**Hold Paris.**"))
    digest = next(
        m
        for m in outbox.all()
        if m["To"] == "gm@ref.example" and "Orders of all players" in m["Subject"]
    )
    referee.accept(
        clients.thunderbird(
            digest, "gm@ref.example", "GM", "Paris holds.", top=True, attribution=attribution
        ),
        "smtp",
        "gm@ref.example",
        ["war@ref.example"],
    )
    assert (
        Outbox.body(last(outbox, "Alice", "results"))
        .replace("\r\n", "\n")
        .startswith("Results of turn 1\n\nParis holds.\n\n-- \n")
    )


def test_a_gmx_header_block_is_cut_from_its_first_line():
    """GMX and web.de quote under "Gesendet: … / Von: … / An: … / Betreff: …": the block was cut
    from "Von:", and "Gesendet: Dienstag, 01. Dezember 2026 um 10:00 Uhr" stayed in the text."""
    from mailref.read.quotes import own_words

    text = (
        "Ich stimme dafür.\nFOR\n\nGesendet: Dienstag, 01. Dezember 2026 um 10:00 Uhr\n"
        'Von: "Nomes" <nomes@ref.example>\nAn: bob@gmx.example\nBetreff: [Nomes] [Proposal 1] '
        "Tea\n\nProposal 1 …"
    )
    assert own_words(text) == "Ich stimme dafür.\nFOR"
