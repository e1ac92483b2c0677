"""Where rule text ends: a sign-off in another language, a Gmail closing straight under the rule."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, mail
from support.joining import confirm_waiting
from support.play import G, addr, nomes, send

pytestmark = pytest.mark.spec("3.1")


def test_a_sign_off_in_another_language_is_not_rule_text(referee, outbox):
    """Zoë closes her proposal "Sláinte,\\nZoë" (an Irish "Cheers"): it used to be enacted as the
    last paragraph of her rule. The ack now says it was set aside; the rule reads as she meant."""
    referee.create_game("nomes", "sidekick", G, gm="gm@ref.example")
    box = {"Zoë": addr("zoe"), "Bob": addr("bob")}
    for name, address in box.items():
        referee.accept(mail(address, G, "[Join]", f"Name: {name}", name=f"{name} Ó Briain"), "smtp")
        confirm_waiting(referee)
    mover = referee.state("nomes")["turn"]["player"]
    body = (
        "Enact rule 25 “Céilí Bonus”:\nWhen a proposal passes unanimously, its author receives 5 "
        "more points.\n\n"
        f"Sláinte,\n{mover}\n"
    )
    referee.accept(
        mail(box[mover], G, "[Proposal] Céilí bonus", body, name=f"{mover} Ó Briain"), "smtp"
    )
    prop = referee.state("nomes")["proposals"][0]
    assert (
        prop["changes"][0]["text"]
        == "When a proposal passes unanimously, its author receives 5 more points."
    )
    ack = [m for m in outbox.all() if m["To"] == box[mover] and m["X-Mailref-Kind"] == "ack"][-1]
    assert f'Set aside as your closing words, not rule text: "Sláinte, / {mover}"' in Outbox.body(
        ack
    )


def test_a_gmail_closing_straight_under_the_rule_is_not_rule_text(referee, outbox):
    """Gmail writes each line as a <div>: "…propose twice" then "Cheers" with no blank line
    between. "Cheers" was enacted as the rule's last line; a list item "- Bob" still is text."""
    mover = nomes(referee)
    html = (
        '<div dir="ltr"><div>Enact rule 28 "Lists":</div><div>A player may:</div><div>- vote '
        "twice</div>"
        "<div>- propose twice</div><div>Cheers</div></div>"
    )
    send(referee, mover.lower(), "[Proposal] Lists", html=html)
    prop = referee.state("nomes")["proposals"][0]
    assert prop["changes"][0]["text"] == "A player may:\n- vote twice\n- propose twice"
    ack = Outbox.body([m for m in outbox.all() if m["To"] == addr(mover.lower())][-1])
    assert 'Set aside as your closing words, not rule text: "Cheers"' in ack


def test_an_explanation_under_a_rule_written_on_its_own_line_is_not_rule_text(referee, outbox):
    """`Enact a new rule "Tea Time": Every Wizard may drink tea at any time.`, a blank line, and
    "I think this will make the game more civilised.": the rationale was enacted as part of
    the rule, and the ack showed it without a word. A rule written on its Enact line is that
    paragraph; what follows is set aside, and the ack says so."""
    referee.create_game("nomes", "sidekick", G, gm="gm@ref.example")
    box = {"Zoe": addr("zoe"), "Bob": addr("bob")}
    for name, address in box.items():
        referee.accept(mail(address, G, "[Join]", f"Name: {name}"), "smtp")
        confirm_waiting(referee)
    mover = referee.state("nomes")["turn"]["player"]
    body = (
        'Enact a new rule 24 "Tea Time": Every Wizard may drink tea at any time.\n\n'
        "I think this will make the game more civilised.\n"
    )
    referee.accept(mail(box[mover], G, "[Proposal] Tea time", body), "smtp")
    prop = referee.state("nomes")["proposals"][0]
    assert prop["changes"][0]["text"] == "Every Wizard may drink tea at any time."
    assert "civilised" in prop["text"]  # the voters still read why
    ack = [m for m in outbox.all() if m["To"] == box[mover] and m["X-Mailref-Kind"] == "ack"][-1]
    assert (
        'Set aside as your explanation, not rule text: "I think this will make the game more '
        'civilised."'
    ) in " ".join(Outbox.body(ack).split())


def test_a_rule_begun_under_its_enact_line_keeps_its_paragraphs(referee, outbox):
    referee.create_game("nomes", "sidekick", G, gm="gm@ref.example")
    for name in ("Zoe", "Bob"):
        referee.accept(mail(addr(name.lower()), G, "[Join]", f"Name: {name}"), "smtp")
        confirm_waiting(referee)
    mover = referee.state("nomes")["turn"]["player"]
    body = 'Enact rule 30 "Tea Time":\nEvery Wizard may drink tea.\n\nBiscuits are optional.\n'
    referee.accept(mail(addr(mover.lower()), G, "[Proposal] Tea time", body), "smtp")
    text = referee.state("nomes")["proposals"][0]["changes"][0]["text"]
    assert text == "Every Wizard may drink tea.\n\nBiscuits are optional."
