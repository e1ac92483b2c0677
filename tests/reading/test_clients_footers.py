"""Footers and sign-offs of real clients are not enacted: Outlook signatures and notices, phone
footers, closings."""

from __future__ import annotations

import pytest

from support import clients
from support.client_play import NOMES, last, play
from support.helpers import Outbox, assert_replays
from support.joining import confirm_waiting
from support.play import addr

pytestmark = pytest.mark.spec("2.4")


def test_an_outlook_signature_and_confidentiality_notice_are_not_enacted(referee, outbox):
    """Outlook adds a signature without the "-- " line, and a company's mail server a
    confidentiality notice under it: both were read as the end of rule 24 and enacted into the
    ruleset with it. A closing paragraph of the sender's name over a title and contacts, and a
    notice that the mail is confidential "if you have received it in error", are now set aside
    (the ack says so), as "Cheers, Bob" was."""
    referee.create_game("nomes", "sidekick", NOMES, gm="gm@ref.example")
    for p in ("Alice", "Bob"):
        play(referee, clients.fresh(addr(p), f"{p} Smith", NOMES, "[Join]", f"Name: {p}\n"))
        confirm_waiting(referee)
    mover = referee.state("nomes")["turn"]["player"]
    other = "Bob" if mover == "Alice" else "Alice"
    text = (
        f'Enact rule 24 "Tea":\nEvery player shall drink tea.\n\nKind regards,\n{mover} Smith\n'
        "Senior Engineer | ACME Corp\nT: +44 20 1234 5678 | www.acme.example\n\n"
        "This e-mail and any attachments are confidential and intended solely for the addressee. "
        "If you have "
        "received it in error, please notify the sender and delete it."
    )
    play(
        referee,
        clients.fresh(
            addr(mover),
            f"{mover} Smith",
            NOMES,
            "[Proposal] Tea",
            text,
            charset="windows-1252",
            cte="quoted-printable",
        ),
    )
    ack = Outbox.body(last(outbox, mover, "ack"))
    assert (
        f'(Set aside as your closing words, not rule text: "Kind regards, / {mover} Smith / '
        "Senior Engineer" in ack
    )
    assert "(a confidentiality notice)" in ack
    play(
        referee,
        clients.gmail(
            last(outbox, other, "announcement", "[Proposal 1]"), addr(other), other, "FOR"
        ),
    )
    rule = next(r for r in referee.state("nomes")["rules"] if r["number"] == "24")
    assert rule["text"] == "Every player shall drink tea."
    assert_replays(referee)


def test_the_emperors_sign_off_is_not_announced_as_her_reason(referee, outbox, clock):
    """The Emperor accepted proposal 1 with Outlook (German): "ACCEPT", then her usual closing.
    Every player was told "The Emperor has accepted proposal 1 "Roads": Mit freundlichen Grüßen
    Alice", her closing as the reason. A closing paragraph ending in her name is not the reason."""
    referee.create_game("emp", "imperial", "emp@ref.example", gm="gm@ref.example")
    for p in ("Alice", "Bob", "Carol", "Dan"):
        play(referee, clients.fresh(addr(p), p, "emp@ref.example", "[Join]", f"Name: {p}\n"))
        confirm_waiting(referee)
    for p in ("Carol", "Dan"):  # Senators by a Point of Order (rule 2)
        play(
            referee,
            clients.fresh(addr(p), p, "emp@ref.example", "[Point of Order] May I vote?", "Asking."),
        )
    play(
        referee,
        clients.fresh(
            addr("Bob"),
            "Bob",
            "emp@ref.example",
            "[Proposal] Roads",
            'Enact rule 30 "Roads":\nAll roads lead to Rome.\n',
        ),
    )
    for p in ("Carol", "Dan"):
        play(referee, clients.fresh(addr(p), p, "emp@ref.example", "[Vote] 1", "YES"))
    clock.advance(days=4, seconds=1)
    referee.tick()
    asked = last(outbox, "Alice", "judge", "[Judge 1]")
    play(
        referee,
        clients.outlook(
            asked,
            addr("Alice"),
            "Alice",
            "ACCEPT\n\nMit freundlichen Grüßen\nAlice",
            lang="de",
            prefix="AW: ",
            tnef=True,
        ),
    )
    told = Outbox.body(last(outbox, "Bob", "results", "ACCEPTED"))
    assert 'The Emperor has accepted proposal 1 "Roads".' in told, told
    assert "Grüßen" not in told
    play(
        referee,
        clients.fresh(
            addr("Bob"), "Bob", "emp@ref.example", "[Proposal] Bridges", "Build bridges.\n"
        ),
    )
    for p in ("Carol", "Dan"):
        play(referee, clients.fresh(addr(p), p, "emp@ref.example", "[Vote] 2", "YES"))
    clock.advance(days=4, seconds=1)
    referee.tick()
    asked = last(outbox, "Alice", "judge", "[Judge 2]")
    play(
        referee, clients.gmail(asked, addr("Alice"), "Alice", "VETO: too costly.\n\nCheers,\nAlice")
    )
    assert "too costly." in Outbox.body(last(outbox, "Bob", "results", "VETOED"))
    assert "Cheers" not in Outbox.body(last(outbox, "Bob", "results", "VETOED"))
    assert_replays(referee)


@pytest.mark.parametrize(
    "closing",
    [
        "Med vänlig hälsning",
        "Mit freundlichen Grüßen",
        "Pozdrawiam",
        "Saludos",
        "Met vriendelijke groet",
        "С уважением",
    ],
)
def test_a_closing_without_a_comma_is_not_enacted(referee, outbox, closing):
    """Alice (Outlook, Swedish) answered "Your move" with her rule and "Med vänlig hälsning /
    Alice" under it: only closings ending in "," or "!" were set aside, and hers, written as
    Swedes, Germans, Poles or Spaniards write it, without a comma, became the rule's last lines."""
    referee.create_game("nomes", "sidekick", NOMES, gm="gm@ref.example")
    for p in ("Alice", "Bob"):
        play(referee, clients.fresh(addr(p), p, NOMES, "[Join]", f"Name: {p}\n"))
        confirm_waiting(referee)
    mover = referee.state("nomes")["turn"]["player"]
    turn = last(outbox, mover, subject="[Turn 1] Your move")
    play(
        referee,
        clients.outlook(
            turn,
            addr(mover),
            mover,
            f'Enact rule 40 "Siesta":\nNaps last an hour.\n\n{closing}\n{mover}',
            prefix="SV: ",
            lang="sv",
            charset="utf-8",
        ),
    )
    (prop,) = referee.state("nomes")["proposals"]
    assert prop["changes"][0]["text"] == "Naps last an hour."


@pytest.mark.parametrize(
    "footer",
    [
        "Skickat från min iPhone",
        "Verstuurd vanaf mijn iPhone",
        "Inviato da iPhone",
        "Отправлено с iPhone",
        "Envoyé depuis mon iPhone",
    ],
)
def test_a_phones_footer_in_any_language_is_not_rule_text(referee, outbox, footer):
    """An iPhone in Swedish, Dutch, Italian, Russian or French signs "Skickat från min iPhone":
    only the English, German, French ("Envoyé de mon"), Spanish and one Dutch form were known,
    and a proposal sent from the phone enacted the footer as the rule's last line."""
    referee.create_game("nomes", "sidekick", NOMES, gm="gm@ref.example")
    for p in ("Alice", "Bob"):
        play(referee, clients.fresh(addr(p), p, NOMES, "[Join]", f"Name: {p}\n"))
        confirm_waiting(referee)
    mover = referee.state("nomes")["turn"]["player"]
    play(
        referee,
        clients.fresh(
            addr(mover),
            mover,
            NOMES,
            "[Proposal] Siesta",
            f'Enact rule 40 "Siesta":\nNaps last an hour.\n\n{footer}',
            html_only=True,
        ),
    )
    assert referee.state("nomes")["proposals"][0]["changes"][0]["text"] == "Naps last an hour."


def test_a_rule_about_confidential_votes_is_not_taken_for_a_notice():
    """The confidentiality notice is set aside only when it speaks of the mail itself."""
    from mailref.read import read_rule_changes

    (change,) = read_rule_changes(
        'Enact rule 30 "Secrets":\nVotes are secret.\n\n'
        "Votes are confidential. A vote cast in error may be withdrawn.",
        "Bob",
    )
    assert change.text.endswith("A vote cast in error may be withdrawn.") and change.signoff is None
