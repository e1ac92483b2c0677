"""What the play-through of session 9 found: the five variants played by mail as real clients
write it (tests/clients.py: Thunderbird, Outlook in several languages, Gmail, iPhone, mutt,
Android), each player replying to the mail the referee sent them, the replies read back."""

from __future__ import annotations

import email
from pathlib import Path

import clients
import pytest
from test_play_session6 import addr

from helpers import Outbox, assert_replays
from mailref.read import read_envelope

NOMES = "nomes@ref.example"
CORPUS = Path(__file__).parent / "corpus"


def play(referee, raw: bytes) -> None:
    msg = email.message_from_bytes(raw)
    frm = email.utils.parseaddr(msg["From"])[1]
    referee.accept(raw, "smtp", frm, [email.utils.parseaddr(msg["To"])[1]])


def last(outbox: Outbox, who: str, kind: str | None = None, subject: str = ""):
    found = [m for m in outbox.to(addr(who), kind=kind) if subject in str(m["Subject"])]
    assert found, (who, kind, subject)
    return found[-1]


def sidekick(referee, players=("Alice", "Bob", "Carol")) -> tuple[str, list[str]]:
    """A Sidekick game whose mover has proposed rule 24; returns the mover and the voters."""
    referee.create_game("nomes", "sidekick", NOMES, gm="gm@ref.example")
    for p in players:
        play(referee, clients.fresh(addr(p), p, NOMES, "[Join]", f"Name: {p}\n"))
    mover = referee.state("nomes")["turn"]["player"]
    play(referee, clients.fresh(addr(mover), mover, NOMES, "[Proposal] Tea time",
                                'Enact rule 24 "Tea":\nEvery player shall drink tea.\n'))
    return mover, [p for p in players if p != mover]


@pytest.mark.parametrize("lang,prefix", [("sv", "SV: "), ("no", "SV: "), ("it", "R: "), ("de", "AW: "), ("nl", "Antw: ")])
def test_an_outlook_reply_in_any_language_is_read_without_the_mail_it_quotes(referee, outbox, lang, prefix):
    """Outlook quotes the mail replied to under a header block in the user's language
    ("Från: … Skickat: … Till: … Ämne:"), unquoted. Only the English, German, French, Spanish
    and Dutch blocks were known: a Swedish, Norwegian or Italian judge's Reply to "You are the
    judge" was read whole as the ruling (SPEC §2.4), and every player was sent the judge mail's
    text and header block as part of the ruling."""
    mover, (asker, _) = sidekick(referee)
    play(referee, clients.fresh(addr(asker), asker, NOMES, "[CfJ] Is tea compulsory?", "Rule 24 says shall."))
    judge = referee.state("nomes")["judgements"][0]["judge"]
    asked = last(outbox, judge, "judge", "[Judgement 1]")
    play(referee, clients.outlook(asked, addr(judge), judge, "TRUE: tea is compulsory.\n\nHilsen\n" + judge,
                                  prefix=prefix, lang=lang, tnef=True))
    assert referee.state("nomes")["judgements"][0]["ruling"] == f"TRUE: tea is compulsory.\n\nHilsen\n{judge}"
    told = Outbox.body(last(outbox, asker, "announcement", "Ruling by"))
    assert "You are the judge" not in told and "[Ruling] 1" not in told, told
    assert_replays(referee)


def test_a_mutt_attribution_is_not_the_senders_words():
    """mutt's "* Name <address> [date]:" above a bottom-posted quote stayed in the text read."""
    env = read_envelope((CORPUS / "mutt_pgp_signed.eml").read_bytes(), own_address="referee@ref.example")
    assert env.text == "AGAINST"
