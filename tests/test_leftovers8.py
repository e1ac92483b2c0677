"""Leftovers, session 8: what players, GMs and operators met, played from outside (mail in over
real SMTP sessions, the replies read back from the outbox) and each answered as real software
would (docs/decisions.md, "Leftovers, session 8")."""

from __future__ import annotations

import pytest
from listener import listening, submit

from helpers import Outbox, mail

NOMES, EMPIRE = "nomes@ref.example", "empire@ref.example"
ALICE, BOB, CAROL = "alice@x.org", "bob@x.org", "carol@x.org"


@pytest.fixture
def smtp(referee):
    """Send a raw mail through the referee's own listener, as a sending server does."""
    with listening(referee) as port:
        yield lambda raw, frm, to: submit(port, frm, [to], raw)


def error_of(box: Outbox) -> str:
    (reply,) = box.new()
    assert reply["X-Mailref-Kind"] == "error", (reply["X-Mailref-Kind"], Outbox.body(reply))
    return " ".join(Outbox.body(reply).split())


def test_withdraw_in_sidekick_and_imperial_says_what_the_rules_offer_instead(referee, smtp):
    """[Withdraw] N is a word a player obviously means: Sidekick and Imperial have no withdrawal
    in their rules, so the answer says so and what the rules offer instead, never "not a
    command"; the proposal stays as it was."""
    referee.create_game("nomes", "sidekick", NOMES, name="Nomes")
    referee.create_game("empire", "imperial", EMPIRE, name="Empire")
    for who in (ALICE, BOB):
        smtp(mail(who, NOMES, "[Join]", f"Name: {who.split('@')[0].title()}"), who, NOMES)
        smtp(mail(who, EMPIRE, "[Join]", f"Name: {who.split('@')[0].title()}"), who, EMPIRE)
    mover = referee.state("nomes")["turn"]["player"]
    mover_addr = f"{mover.lower()}@x.org"
    smtp(mail(mover_addr, NOMES, "[Proposal] Tea", 'Enact rule 24 "Tea":\nTea is served.'), mover_addr, NOMES)
    smtp(mail(BOB, EMPIRE, "[Proposal] Hats", "Everyone wears a hat."), BOB, EMPIRE)
    box = Outbox(referee)
    box.new()

    smtp(mail(mover_addr, NOMES, "[Withdraw] 1", "Sorry, I got it wrong."), mover_addr, NOMES)
    said = error_of(box)
    assert "not a command" not in said, said
    assert "Nomic Sidekick Nomic has no withdrawal" in said and "[Forfeit]" in said and "rule 11" in said, said
    assert referee.state("nomes")["proposals"][0]["status"] == "voting"

    smtp(mail(BOB, EMPIRE, "[Withdraw] 1", "Never mind."), BOB, EMPIRE)
    said = error_of(box)
    assert "not a command" not in said, said
    assert "Imperial Nomic has no withdrawal" in said and "replaces your oldest undecided one (rule 12)" in said, said
    assert referee.state("empire")["proposals"][0]["status"] == "voting"


def with_attachment(frm: str, to: str, subject: str, text: str, ctype: str, name: str) -> bytes:
    """A mail whose content is an attached file, as a mail client writes it."""
    from email.message import EmailMessage

    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = frm, to, subject
    msg["Message-ID"] = f"<{abs(hash((frm, subject, name)))}@players.example>"
    msg.set_content(text or "\n")
    maintype, subtype = ctype.split("/")
    msg.add_attachment(b"PK\x03\x04 the orders, in a file", maintype=maintype, subtype=subtype, filename=name)
    return msg.as_bytes()


@pytest.mark.parametrize("text", ["", "Orders attached.", "Please see the attached file for this turn."])
def test_orders_and_results_only_in_an_attachment_are_refused_and_nothing_is_recorded(referee, smtp, text):
    """As a proposal whose text is only an attachment: [Orders] with the orders in a .docx are not
    "no bold text found", and the GM's [Results] in a PDF never reach the players empty nor open
    the next turn; the sender is told the referee reads the mail's own text."""
    diplo, gm = "diplo@ref.example", "gm@ref.example"
    referee.create_game("diplo", "orders", diplo, gm=gm, parameters={"turn_length": "1d"})
    for who in (ALICE, BOB):
        smtp(mail(who, diplo, "[Join]", f"Name: {who.split('@')[0].title()}"), who, diplo)
    assert referee.admin("diplo", {"type": "start"}, "gm").ok
    box = Outbox(referee)
    box.new()
    docx = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
    smtp(with_attachment(ALICE, diplo, "[Orders]", text, docx, "orders.docx"), ALICE, diplo)
    said = error_of(box)
    assert "your orders are in an attachment" in said and "nothing was recorded" in said, said
    assert referee.state("diplo")["orders"] == {}

    smtp(mail(BOB, diplo, "[Orders]", "**Army Paris holds.**"), BOB, diplo)
    box.new()
    smtp(with_attachment(gm, diplo, "[Results] Turn 1", text, "application/pdf", "turn1.pdf"), gm, diplo)
    said = error_of(box)  # the GM's answer, and nothing to the players
    assert "your results are in an attachment" in said and "nothing was sent to the players" in said, said
    state = referee.state("diplo")
    assert state["turn"]["number"] == 1 and state["history"] == []
    smtp(mail(gm, diplo, "[Results] Turn 1", "Paris holds."), gm, diplo)
    assert sorted(m["To"] for m in box.new() if m["X-Mailref-Kind"] == "results") == [ALICE, BOB]


@pytest.mark.parametrize("prefix", ["Fwd:", "FW:", "WG:", "TR:", "Fwd: Re:"])
def test_a_forwarded_proposal_is_neither_a_submission_nor_a_ballot(referee, smtp, prefix):
    """A player forwarding a proposal to the game passes on someone's mail: the forwarder is not its
    author, and a vote word in it (or above it) is not the forwarder's ballot (SPEC §2.4). Nothing is
    recorded, and the answer says how to propose or vote oneself; a Reply to the forward is a reply."""
    blog = "blog@ref.example"
    referee.create_game("blog", "blognomic", blog, name="Blog")
    names = ("Ann", "Ben", "Cat", "Dan", "Eve")
    for n in names:
        smtp(mail(f"{n.lower()}@x.org", blog, "[Join]", f"Name: {n}"), f"{n.lower()}@x.org", blog)
    smtp(mail("ann@x.org", blog, "[Proposal] Tea", 'Enact a new rule entitled "Tea" with the following text:\n'
              "Tea is served."), "ann@x.org", blog)
    box = Outbox(referee)
    box.new()
    forwarded = ("FOR\n\n---------- Forwarded message ---------\nFrom: Blog <blog@ref.example>\n"
                 "Subject: [Blog] [Proposal 1] Tea\n\nEnact a new rule entitled \"Tea\"\n")
    ben = "ben@x.org"
    smtp(mail(ben, blog, f"{prefix} [Blog] [Proposal 1] Tea", forwarded), ben, blog)
    said = error_of(box)
    assert "your mail forwards proposal 1: a forward is not a vote" in said and "[Vote] 1" in said, said
    smtp(mail(ben, blog, f"{prefix} [Proposal] Coffee", "Coffee is served. (Cat's idea, forwarded.)"), ben, blog)
    said = error_of(box)
    assert "your mail forwards a proposal (Coffee)" in said and "nothing was posted" in said, said
    assert "[Proposal] Coffee" in said, said
    smtp(mail(ben, blog, f"{prefix} [CfJ] Is tea legal?", "Asking for Cat."), ben, blog)
    assert "your mail forwards a [CfJ] mail" in error_of(box)
    state = referee.state("blog")
    assert [p["title"] for p in state["proposals"]] == ["Tea"] and state["judgements"] == []
    assert state["proposals"][0]["votes"] == {"Ann": "FOR"}
    smtp(mail(ben, blog, "[Status]", ""), ben, blog)  # a Status is a Status, forwarded or not
    smtp(mail(ben, blog, f"Re: {prefix} [Blog] [Proposal 1] Tea", "FOR"), ben, blog)  # a Reply votes
    assert referee.state("blog")["proposals"][0]["votes"]["Ben"] == "FOR"
