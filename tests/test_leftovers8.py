"""Leftovers, session 8: what players, GMs and operators met, played from outside (mail in over
real SMTP sessions, the replies read back from the outbox) and each answered as real software
would (docs/decisions.md, "Leftovers, session 8")."""

from __future__ import annotations

import pytest
from listener import listening, submit
from test_site import (
    browser as chromium,  # noqa: F401  (a fixture, by that name: one Chromium for the module)
)

from helpers import Outbox, mail

NOMES, EMPIRE = "nomes@ref.example", "empire@ref.example"
ALICE, BOB, CAROL = "alice@x.org", "bob@x.org", "carol@x.org"


@pytest.fixture
def smtp(referee):
    """Send a raw mail through the referee's own listener, as a sending server does."""
    with listening(referee) as port:
        yield lambda raw, frm, to: submit(port, frm, [to], raw)


def alice_alone(referee, smtp, slug: str, variant: str, address: str, **options) -> Outbox:
    """Game SLUG (named SLUG.title()) with Alice joined; an Outbox read up to now."""
    referee.create_game(slug, variant, address, name=slug.title(), **options)
    smtp(mail(ALICE, address, "[Join]", "Name: Alice"), ALICE, address)
    box = Outbox(referee)
    box.new()
    return box


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
    # Words of her own that are not bold, beside a signature's logo: the usual "no bold text".
    smtp(with_attachment(ALICE, diplo, "[Orders]", "Army Paris holds.", "image/png", "image001.png"), ALICE, diplo)
    assert "I found no bold text" in error_of(box)

    smtp(mail(BOB, diplo, "[Orders]", "**Army Paris holds.**"), BOB, diplo)
    box.new()
    smtp(with_attachment(gm, diplo, "[Results] Turn 1", text, "application/pdf", "turn1.pdf"), gm, diplo)
    said = error_of(box)  # the GM's answer, and nothing to the players
    assert "your results are in an attachment" in said and "nothing was sent to the players" in said, said
    state = referee.state("diplo")
    assert state["turn"]["number"] == 1 and state["history"] == []
    smtp(with_attachment(BOB, diplo, "[Results] Turn 1", text, "application/pdf", "mine.pdf"), BOB, diplo)
    assert "only the GM posts results" in error_of(box)  # a player is told that first
    smtp(mail(ALICE, diplo, "[Orders]", "**Army Marseilles holds.**"), ALICE, diplo)  # the turn closes
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


RLO = "\u202e"  # RIGHT-TO-LEFT OVERRIDE


def test_a_right_to_left_override_in_a_title_stays_inside_the_title(referee, smtp, tmp_path, chromium):  # noqa: F811
    """A title starting with U+202E reversed the rest of its heading on the pages (the rule's
    "B rule" tag came out as "elur B", left of the title) and the rest of mail subjects. On the
    pages the title is isolated (what <bdi> does); in subjects the override is dropped."""
    import html5lib

    from mailref.config import SiteConfig
    from mailref.site import rebuild_quietly

    site = tmp_path / "site"
    cfg = SiteConfig(site)
    referee.after_change = lambda slug: rebuild_quietly(referee.store, cfg, slug, referee.clock())
    referee.create_game("empire", "imperial", EMPIRE, name="Empire")
    for who in (ALICE, BOB):  # Alice, the first, holds the throne
        smtp(mail(who, EMPIRE, "[Join]", f"Name: {who.split('@')[0].title()}"), who, EMPIRE)
    box = Outbox(referee)
    box.new()
    smtp(mail(ALICE, EMPIRE, f"[Proclamation] {RLO}Tea at noon", f'Enact rule 30 "{RLO}Tea":\nTea is served.'),
         ALICE, EMPIRE)
    smtp(mail(BOB, EMPIRE, f"[Proposal] {RLO}Hats for all", "Everyone wears a hat."), BOB, EMPIRE)
    subjects = [str(m["Subject"]) for m in box.new()]
    assert "[Empire] [Proposal 1] Hats for all" in subjects, subjects
    assert not any(RLO in s for s in subjects), subjects

    page = site / "empire" / "rules.html"
    html5lib.HTMLParser(strict=True).parse(page.read_bytes())
    chromium.open(page)
    where = chromium.evaluate("""(() => {
        const h = [...document.querySelectorAll('h1,h2,h3,h4,h5,h6')].find(h => h.textContent.includes('Tea'));
        const node = h.firstChild, at = node.data.indexOf('Tea'), title = document.createRange();
        title.setStart(node, at); title.setEnd(node, at + 3);
        const number = document.createRange();
        number.setStart(node, node.data.indexOf('30')); number.setEnd(node, node.data.indexOf('30') + 2);
        return {number: number.getBoundingClientRect().left, title: title.getBoundingClientRect().left,
                tag: h.querySelector('.tag').getBoundingClientRect().left, tagText: h.querySelector('.tag').textContent};
    })()""")
    assert where["tagText"] == "B rule"
    # Left to right as written: "30. Tea" (reversed by its own override: "aeT"), then "B rule".
    assert where["number"] < where["title"] < where["tag"], where


def test_mail_that_belongs_to_no_game_carries_an_empty_game_header(referee, smtp):
    """SPEC §2.6: X-Mailref-Game is on everything mailref sends; the referee's own help (the
    list of games, for mail that names no game) has it empty, so a filter on a game's slug
    never takes it, and one on the header's presence takes all of mailref's mail."""
    referee.create_game("nomes", "sidekick", NOMES, name="Nomes")
    referee.create_game("empire", "imperial", EMPIRE, name="Empire")
    smtp(mail(CAROL, "referee@ref.example", "Hello?", "Which games are there?"), CAROL, "referee@ref.example")
    smtp(mail(CAROL, NOMES, "[Help]", ""), CAROL, NOMES)
    helps = Outbox(referee).all()
    assert [(m["X-Mailref-Kind"], m["X-Mailref-Game"]) for m in helps] == [("help", ""), ("help", "nomes")]


class Greylisting:
    """A relay that greylists: each sender and recipient is told 451 the first time, taken after."""

    def __init__(self):
        self.seen: set[tuple[str, str]] = set()
        self.got: list[list[str]] = []

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if (envelope.mail_from, address) not in self.seen:
            self.seen.add((envelope.mail_from, address))
            return "451 4.7.1 Greylisted, please try again later"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.got.append(list(envelope.rcpt_tos))
        return "250 OK"


def test_a_greylisted_mail_finally_delivered_says_so_in_the_log(referee, clock, caplog):
    """An operator reading "not delivered (attempt 1): ... 451 ... Greylisted" wants the matching
    end: one INFO line "delivered after 2 tries" when the relay takes it; a mail taken at once
    has no such line."""
    import logging

    from aiosmtpd.controller import Controller

    from dovecot import free_port
    from mailref.config import SmtpOut
    from mailref.mail.outbox import Deliverer

    referee.create_game("nomes", "sidekick", NOMES, name="Nomes")
    referee.accept(mail(ALICE, NOMES, "[Help]"), "smtp")
    relay = Greylisting()
    ctl = Controller(relay, hostname="127.0.0.1", port=free_port())
    ctl.start()
    try:
        d = Deliverer(referee.store, "referee@ref.example", SmtpOut(host="127.0.0.1", port=ctl.port), "unused",
                      "gm@ref.example")
        with caplog.at_level(logging.INFO, logger="mailref.outbox"):
            assert d.deliver(clock()) == (0, 1)
            clock.advance(minutes=1)
            assert d.deliver(clock()) == (1, 0)
            referee.accept(mail(ALICE, NOMES, "[Status]"), "smtp")  # the relay knows Alice now: taken at once
            assert d.deliver(clock()) == (1, 0)
    finally:
        ctl.stop()
    assert relay.got == [[ALICE], [ALICE]]
    lines = [r.getMessage() for r in caplog.records if r.name == "mailref.outbox"]
    deferred = [ln for ln in lines if "not delivered (attempt 1)" in ln]
    assert len(deferred) == 1 and "Greylisted" in deferred[0], lines
    row = deferred[0].split()[1]  # "#1"
    assert [ln for ln in lines if "delivered after" in ln] == [f"outbox {row} to {ALICE} delivered after 2 tries"], lines
    assert [r.levelname for r in caplog.records if "delivered after" in r.getMessage()] == ["INFO"]


def test_a_reply_without_a_vote_is_not_told_an_open_point_of_order_is_closed(referee, smtp):
    """Found by mail (SPEC §2 audit): Imperial numbers Points of Order apart from proposals. With
    proposal 1 voting and Point of Order 1 open, a reply to proposal 1 whose YES was only in the
    quoted mail was answered "judgement 1 (open) is closed; votes are no longer taken". It is
    told no vote was found, and how to write one; a closed proposal is still said to be closed."""
    referee.create_game("empire", "imperial", EMPIRE, name="Empire")
    for who in (ALICE, BOB, CAROL):
        smtp(mail(who, EMPIRE, "[Join]", f"Name: {who.split('@')[0].title()}"), who, EMPIRE)
    smtp(mail(BOB, EMPIRE, "[Proposal] Hats", "Everyone wears a hat."), BOB, EMPIRE)
    smtp(mail(CAROL, EMPIRE, "[Point of Order] Hats?", "Are hats clothes?"), CAROL, EMPIRE)
    box = Outbox(referee)
    box.new()
    quoted = "Thanks!\n\nAm 1. Dez. 2026 um 10:00 schrieb Empire <empire@ref.example>:\n> YES\n"
    smtp(mail(CAROL, EMPIRE, "Re: [Empire] [Proposal 1] Hats", quoted), CAROL, EMPIRE)
    said = error_of(box)
    assert "No vote found for proposal 1" in said and "closed" not in said, said
    smtp(mail(CAROL, EMPIRE, "Re: [Empire] [Proposal 1] Hats", "YES"), CAROL, EMPIRE)
    assert referee.state("empire")["proposals"][0]["votes"] == {"Carol": "YES"}


def test_idle_in_a_game_without_idling_is_its_away(referee, smtp):
    """Found by mail (SPEC §2 audit): [Idle] in Sidekick was "not a command", though a player
    writing it plainly means being away (BlogNomic, the other way round, takes [Away] as idling).
    [Idle] and [Unidle] are [Away] and [Back] where a game has absence and no idling."""
    referee.create_game("nomes", "sidekick", NOMES, name="Nomes")
    for who in (ALICE, BOB, CAROL):
        smtp(mail(who, NOMES, "[Join]", f"Name: {who.split('@')[0].title()}"), who, NOMES)
    box = Outbox(referee)
    box.new()
    smtp(mail(BOB, NOMES, "[Idle]", "Back next week."), BOB, NOMES)
    (ack,) = [m for m in box.new() if m["To"] == BOB]
    assert ack["X-Mailref-Kind"] == "ack" and "Bob is now away" in Outbox.body(ack), Outbox.body(ack)
    assert next(p for p in referee.state("nomes")["players"] if p["name"] == "Bob")["status"] == "away"
    smtp(mail(BOB, NOMES, "[Unidle]", ""), BOB, NOMES)
    assert next(p for p in referee.state("nomes")["players"] if p["name"] == "Bob")["status"] == "active"


def test_a_reply_through_a_list_does_not_name_the_game_twice(referee, smtp):
    """Found by mail (SPEC §2.6): "[nomes-l] Re: [Nomes] [Status]" (a list's tag before a reply's
    prefix) was answered "Re: [Nomes] [nomes-l] Re: [Nomes] [Status]"; the subject names the game
    once already."""
    box = alice_alone(referee, smtp, "nomes", "sidekick", NOMES)
    smtp(mail(ALICE, NOMES, "[nomes-l] Re: [Nomes] [Status]", ""), ALICE, NOMES)
    (reply,) = box.new()
    assert (reply["X-Mailref-Kind"], str(reply["Subject"])) == ("status", "Re: [nomes-l] Re: [Nomes] [Status]")


def test_withdraw_in_an_orders_game_says_what_this_games_orders_allow(referee, smtp):
    """An orders game has no proposals: a player writing [Withdraw] means their orders. The answer
    says what this game's orders_final allows, not "[Withdraw] is not a command"."""
    diplo = "diplo@ref.example"
    box = alice_alone(referee, smtp, "diplo", "orders", diplo, gm="gm@ref.example")
    smtp(mail(ALICE, diplo, "[Withdraw]", "Please forget my orders."), ALICE, diplo)
    said = error_of(box)
    assert "Diplo has no withdrawal: orders sent again replace those already sent" in said, said
    assert referee.admin("diplo", {"type": "set", "values": {"orders_final": "refuse"}}, "gm").ok
    box.new()
    smtp(mail(ALICE, diplo, "[Withdraw] 1", ""), ALICE, diplo)
    assert "orders once sent cannot be changed" in error_of(box)


def test_a_command_word_without_brackets_is_answered_with_the_tag_it_meant(referee, smtp):
    """Found by mail (SPEC §2.5): "Proposal: Caps" got the help alone ("I found no command tag"),
    though the player plainly meant a proposal. The help now starts with what was probably meant,
    in the form it takes; a subject that is no command word still gets the help alone."""
    box = alice_alone(referee, smtp, "nomes", "sidekick", NOMES)
    smtp(mail(ALICE, NOMES, "Proposal: Caps", "Enact rule 24 \"Caps\":\nCaps are worn."), ALICE, NOMES)
    (reply,) = box.new()
    assert reply["X-Mailref-Kind"] == "help"
    assert Outbox.body(reply).startswith('I found no command tag in your subject: did you mean "[Proposal] Caps"? '
                                         "A command's tag goes in square brackets"), Outbox.body(reply)[:300]
    assert referee.state("nomes")["proposals"] == []
    smtp(mail(ALICE, NOMES, "Tea tomorrow?", "Who is in?"), ALICE, NOMES)
    (reply,) = box.new()
    assert Outbox.body(reply).startswith("I found no command tag in your subject, so here is the help.")


def test_a_roll_of_nothing_is_asked_what_to_roll(referee, smtp):
    """Found by mail: "[Roll]" with no dice was answered "'' is not a roll I can make"."""
    box = alice_alone(referee, smtp, "nomes", "sidekick", NOMES)
    smtp(mail(ALICE, NOMES, "[Roll]", ""), ALICE, NOMES)
    said = error_of(box)
    assert said.startswith("Not done: say what to roll.") and "[Roll] 2d6+1" in said, said
