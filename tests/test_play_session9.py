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


def _ids(outbox: Outbox) -> list[str]:
    return [m["Message-ID"] for m in outbox.all()]


def test_a_proposals_reminder_and_results_are_threaded_under_its_announcement(referee, outbox, clock):
    """Thunderbird, Apple Mail and Gmail showed "[Proposal 1] Reminder: your vote is due" and
    "[Proposal 1] PASSED" as new threads, apart from the announcement they are about: they
    carried no In-Reply-To / References. They now answer the announcement each player got (the
    author: the ack that carried it), and a Reply to the reminder is a vote as before."""
    mover, (early, late) = sidekick(referee)
    ann = {p: last(outbox, p, "announcement", "[Proposal 1]") for p in (early, late)}
    ack = last(outbox, mover, "ack", "[Proposal] Tea time")
    play(referee, clients.gmail(ann[early], addr(early), early, "FOR"))
    clock.advance(days=4, hours=1)
    referee.tick()
    reminder = last(outbox, late, "reminder", "[Proposal 1]")
    assert reminder["In-Reply-To"] == ann[late]["Message-ID"] == reminder["References"]
    play(referee, clients.iphone(reminder, addr(late), late, "Against"))
    assert referee.state("nomes")["proposals"][0]["votes"][late] == "AGAINST"
    for p, opened in ((early, ann[early]), (mover, ack)):
        results = last(outbox, p, "results", "[Proposal 1]")
        assert results["In-Reply-To"] == opened["Message-ID"], p
    assert len(set(_ids(outbox))) == len(_ids(outbox))  # every mail its own Message-ID
    assert_replays(referee)


def test_an_orders_turns_reminder_and_results_are_threaded_under_the_turn_mail(referee, outbox, clock):
    """The same for an orders game: the reminder, "Your orders did not arrive" and the GM's
    results answer the turn mail each player got; the GM's "Orders of all players" too."""
    referee.create_game("war", "orders", "war@ref.example", gm="gm@ref.example", parameters={"turn_length": "2d"})
    for p in ("Alice", "Bob"):
        play(referee, clients.fresh(addr(p), p, "war@ref.example", "[Join]", f"Name: {p}\n"))
    referee.admin("war", {"type": "start"}, "gm@ref.example")
    turn = {p: last(outbox, p, "turn", "[Turn 1]") for p in ("Alice", "Bob")}
    play(referee, clients.thunderbird(turn["Alice"], addr("Alice"), "Alice", "**Move the fleet to Brest.**"))
    clock.advance(days=1, hours=13)  # the reminder comes 12 h before the deadline (reminder_before)
    referee.tick()
    assert last(outbox, "Bob", "reminder")["In-Reply-To"] == turn["Bob"]["Message-ID"]
    clock.advance(hours=11)
    referee.tick()
    assert last(outbox, "Bob", "late")["In-Reply-To"] == turn["Bob"]["Message-ID"]
    digest = next(m for m in outbox.all() if m["To"] == "gm@ref.example" and "Orders of all players" in m["Subject"])
    referee.accept(clients.gmail(digest, "gm@ref.example", "The GM", "The fleet reaches Brest."), "smtp",
                   "gm@ref.example", ["war@ref.example"])
    for p in ("Alice", "Bob"):
        assert last(outbox, p, "results", "[Results] Turn 1")["In-Reply-To"] == turn[p]["Message-ID"], p
    assert last(outbox, "Alice", "turn", "[Turn 2]")["Message-ID"] != turn["Alice"]["Message-ID"]
    assert len(set(_ids(outbox))) == len(_ids(outbox))
    assert_replays(referee)


BLOG = "blog@ref.example"
WIZARDS = ("Alice", "Bob", "Carol", "Dan", "Eve")


def blognomic(referee) -> None:
    referee.create_game("blog", "blognomic", BLOG, gm="gm@ref.example")
    for p in WIZARDS:
        play(referee, clients.fresh(addr(p), p, BLOG, "[Join]", f"Name: {p}\n"))


def test_a_blognomic_wizard_who_has_not_voted_is_reminded_before_the_matter_may_be_decided(referee, outbox, clock):
    """BlogNomic sent no vote reminder: a matter open 48 hours may be decided without the votes
    not cast (Popular with more FOR than AGAINST, else Unpopular), and a Wizard who missed the
    announcement learnt of it from its result. Now each Wizard who has not voted (not the
    author, not Idle) gets one reminder a day before that, threaded under the announcement,
    and a Reply to it is a vote."""
    blognomic(referee)
    play(referee, clients.fresh(addr("Alice"), "Alice", BLOG, "[Proposal] Gold",
                                'Enact a new rule entitled "Gold" with the following text:\nEach Wizard has 3 Gold.\n'))
    play(referee, clients.fresh(addr("Dan"), "Dan", BLOG, "[Idle]", ""))
    ann = {p: last(outbox, p, "announcement", "[Proposal 1]") for p in ("Bob", "Carol", "Eve")}
    play(referee, clients.outlook(ann["Bob"], addr("Bob"), "Bob", "FOR", prefix="AW: ", lang="de"))
    clock.advance(hours=23, minutes=59)
    referee.tick()
    assert not [m for m in outbox.all() if m["X-Mailref-Kind"] == "reminder"]
    clock.advance(minutes=1, seconds=1)
    referee.tick()
    reminders = [m for m in outbox.all() if m["X-Mailref-Kind"] == "reminder"]
    assert sorted(m["To"] for m in reminders) == [addr("Carol"), addr("Eve")]
    carol = last(outbox, "Carol", "reminder")
    assert carol["In-Reply-To"] == ann["Carol"]["Message-ID"]
    assert "it may be decided from Thu 3 Dec 2026 10:00 UTC" in str(carol["Subject"])
    text = Outbox.body(carol)
    assert 'you have not voted on Proposal 1 "Gold" by Alice.' in text
    assert "From Thu 3 Dec 2026 10:00 UTC, in 24 hours, it may be decided without your vote" in text
    assert "reply to this mail with FOR, AGAINST or DEFERENTIAL" in text
    play(referee, clients.mobile_top(carol, addr("Carol"), "Carol", "Against"))
    assert referee.state("blog")["proposals"][0]["votes"]["Carol"] == "AGAINST"
    clock.advance(hours=12)
    referee.tick()
    assert len([m for m in outbox.all() if m["X-Mailref-Kind"] == "reminder"]) == 2  # once a matter
    assert_replays(referee)


def test_the_gms_results_for_a_turn_still_open_are_refused(referee, outbox, clock):
    """The GM's Outlook sent the results of turn 1 twice (Send pressed again): the second copy
    closed turn 2 the moment it opened, as its results, and the players who had not ordered yet
    lost the turn. Results are now taken only for a turn that has closed; the GM is told why and
    how to close a turn early, and the players get nothing."""
    referee.create_game("war", "orders", "war@ref.example", gm="gm@ref.example", parameters={"turn_length": "2d"})
    for p in ("Alice", "Bob"):
        play(referee, clients.fresh(addr(p), p, "war@ref.example", "[Join]", f"Name: {p}\n"))
    referee.admin("war", {"type": "start"}, "gm@ref.example")
    for p in ("Alice", "Bob"):
        play(referee, clients.thunderbird(last(outbox, p, "turn", "[Turn 1]"), addr(p), p, "**Hold Paris.**"))
    digest = next(m for m in outbox.all() if m["To"] == "gm@ref.example" and "Orders of all players" in m["Subject"])
    results = clients.outlook(digest, "gm@ref.example", "The GM", "Paris holds.")
    referee.accept(results, "smtp", "gm@ref.example", ["war@ref.example"])
    assert referee.state("war")["turn"]["number"] == 2
    play(referee, clients.thunderbird(last(outbox, "Alice", "turn", "[Turn 2]"), addr("Alice"), "Alice", "**Take Lyon.**"))
    outbox.new()
    referee.accept(results.replace(b"Message-ID: <", b"Message-ID: <again."), "smtp", "gm@ref.example", ["war@ref.example"])
    new = outbox.new()
    assert [(m["To"], m["X-Mailref-Kind"]) for m in new] == [("gm@ref.example", "error")]
    text = Outbox.body(new[0])
    assert ("the results of turn 1 went out already, and turn 2 is still open for orders until Thu 3 Dec 2026 "
            "10:00 UTC (1 of 2 players have sent theirs)") in text, text
    assert "mailref deadline war set" in text
    state = referee.state("war")
    assert state["turn"]["number"] == 2 and not state["turn"].get("awaiting_results")
    assert "Alice" in state["orders"]
    assert_replays(referee)


def test_a_reply_with_no_readable_vote_is_told_until_when_votes_are_taken(referee, outbox, clock):
    """Carol answered the reminder from her iPhone with "Against, naps are for cats." (prose, SPEC
    §3.2): the error said how to write a vote but not until when one counts, with the deadline
    a few hours off. It now says until when votes on it are taken."""
    mover, (voter, _) = sidekick(referee)
    clock.advance(days=4, hours=1)
    referee.tick()
    reminder = last(outbox, voter, "reminder", "[Proposal 1]")
    play(referee, clients.iphone(reminder, addr(voter), voter, "Against, tea is for cats."))
    text = Outbox.body(last(outbox, voter, "error"))
    assert ("No vote found for proposal 1 in your own words (quoted text does not count); votes on it are taken "
            "until Sun 6 Dec 2026 10:00 UTC.") in text, text
    assert 'Not read as a ballot: "Against, tea is for cats."' in text


def test_a_blognomic_announcement_says_by_when_the_matter_is_decided(referee, outbox, clock):
    """A BlogNomic proposal's or CfJ's announcement said nothing of time (the Sidekick and
    Imperial ones say when voting closes): a Wizard could not tell whether to vote today or
    this week. It now says it is decided as soon as it is Popular or Unpopular, and at the
    latest once open 48 hours, on the votes cast by then."""
    blognomic(referee)
    play(referee, clients.fresh(addr("Alice"), "Alice", BLOG, "[Proposal] Gold",
                                'Enact a new rule entitled "Gold" with the following text:\nEach Wizard has 3 Gold.\n',
                                charset="koi8-r", cte="base64"))
    line = ("It is decided as soon as it is Popular or Unpopular (quorum 3), and at the latest from Thu 3 Dec 2026 "
            "10:00 UTC, in 2 days, on the votes cast by then.")
    assert line in Outbox.body(last(outbox, "Bob", "announcement", "[Proposal 1]"))
    play(referee, clients.fresh(addr("Bob"), "Bob", BLOG, "[CfJ] Is Gold legal?", "Please judge.", flowed=True))
    assert line in Outbox.body(last(outbox, "Carol", "announcement", "[CfJ 2]"))


@pytest.mark.parametrize("prefix", ["AW: ", "SV: ", "RE : ", "Antw: ", "R: ", "Re: AW: "])
def test_the_answer_to_a_reply_in_any_language_is_titled_re(referee, outbox, prefix):
    """Outlook in German, Swedish, French or Dutch titles a reply "AW:", "SV:", "RE :", "Antw:":
    the referee's answer was "Re: AW: [Nomes] [Proposal 1] Tea time", a prefix more at every
    round of the thread. It is now "Re: [Nomes] [Proposal 1] Tea time", as a client writes it."""
    mover, (voter, _) = sidekick(referee)
    ann = last(outbox, voter, "announcement", "[Proposal 1]")
    play(referee, clients.outlook(ann, addr(voter), voter, "FOR", prefix=prefix))
    assert str(last(outbox, voter, "ack")["Subject"]) == "Re: [Nomic Sidekick Nomic] [Proposal 1] Tea time"


def test_an_outlook_signature_and_confidentiality_notice_are_not_enacted(referee, outbox):
    """Outlook adds a signature without the "-- " line, and a company's mail server a
    confidentiality notice under it: both were read as the end of rule 24 and enacted into the
    ruleset with it. A closing paragraph of the sender's name over a title and contacts, and a
    notice that the mail is confidential "if you have received it in error", are now set aside
    (the ack says so), as "Cheers, Bob" was."""
    referee.create_game("nomes", "sidekick", NOMES, gm="gm@ref.example")
    for p in ("Alice", "Bob"):
        play(referee, clients.fresh(addr(p), f"{p} Smith", NOMES, "[Join]", f"Name: {p}\n"))
    mover = referee.state("nomes")["turn"]["player"]
    other = "Bob" if mover == "Alice" else "Alice"
    text = (f'Enact rule 24 "Tea":\nEvery player shall drink tea.\n\nKind regards,\n{mover} Smith\n'
            "Senior Engineer | ACME Corp\nT: +44 20 1234 5678 | www.acme.example\n\n"
            "This e-mail and any attachments are confidential and intended solely for the addressee. If you have "
            "received it in error, please notify the sender and delete it.")
    play(referee, clients.fresh(addr(mover), f"{mover} Smith", NOMES, "[Proposal] Tea", text, charset="windows-1252",
                                cte="quoted-printable"))
    ack = Outbox.body(last(outbox, mover, "ack"))
    assert f"(Set aside as your closing words, not rule text: \"Kind regards, / {mover} Smith / Senior Engineer" in ack
    assert "(a confidentiality notice)" in ack
    play(referee, clients.gmail(last(outbox, other, "announcement", "[Proposal 1]"), addr(other), other, "FOR"))
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
    for p in ("Carol", "Dan"):  # Senators by a Point of Order (rule 2)
        play(referee, clients.fresh(addr(p), p, "emp@ref.example", "[Point of Order] May I vote?", "Asking."))
    play(referee, clients.fresh(addr("Bob"), "Bob", "emp@ref.example", "[Proposal] Roads",
                                'Enact rule 30 "Roads":\nAll roads lead to Rome.\n'))
    for p in ("Carol", "Dan"):
        play(referee, clients.fresh(addr(p), p, "emp@ref.example", "[Vote] 1", "YES"))
    clock.advance(days=4, seconds=1)
    referee.tick()
    asked = last(outbox, "Alice", "judge", "[Judge 1]")
    play(referee, clients.outlook(asked, addr("Alice"), "Alice", "ACCEPT\n\nMit freundlichen Grüßen\nAlice",
                                  lang="de", prefix="AW: ", tnef=True))
    told = Outbox.body(last(outbox, "Bob", "results", "ACCEPTED"))
    assert 'The Emperor has accepted proposal 1 "Roads".' in told, told
    assert "Grüßen" not in told
    play(referee, clients.fresh(addr("Bob"), "Bob", "emp@ref.example", "[Proposal] Bridges", "Build bridges.\n"))
    for p in ("Carol", "Dan"):
        play(referee, clients.fresh(addr(p), p, "emp@ref.example", "[Vote] 2", "YES"))
    clock.advance(days=4, seconds=1)
    referee.tick()
    asked = last(outbox, "Alice", "judge", "[Judge 2]")
    play(referee, clients.gmail(asked, addr("Alice"), "Alice", "VETO: too costly.\n\nCheers,\nAlice"))
    assert "too costly." in Outbox.body(last(outbox, "Bob", "results", "VETOED"))
    assert "Cheers" not in Outbox.body(last(outbox, "Bob", "results", "VETOED"))
    assert_replays(referee)


def test_a_reply_to_your_move_with_rule_changes_is_the_move(referee, outbox):
    """"[Turn 1] Your move": Alice pressed Reply and wrote her rule change, as one answers a
    mail. It was refused ("a reply to the turn mail is not a move by itself") and she had to
    write a new mail with the subject [Proposal] Title. A Reply holding rule changes is now the
    move, titled by a `Title:` line or after its first change; one without says what is missing."""
    referee.create_game("nomes", "sidekick", NOMES, gm="gm@ref.example")
    for p in ("Alice", "Bob", "Carol"):
        play(referee, clients.fresh(addr(p), p, NOMES, "[Join]", f"Name: {p}\n"))
    mover = referee.state("nomes")["turn"]["player"]
    turn = last(outbox, mover, subject="[Turn 1] Your move")
    assert 'or Reply to this mail with them; a first line "Title: Your title" names it' in Outbox.body(turn)
    play(referee, clients.thunderbird(turn, addr(mover), mover, "Here goes nothing."))
    error = Outbox.body(last(outbox, mover, "error"))
    assert "a reply to the turn mail is a move only with rule changes in it, and I found none" in error
    play(referee, clients.thunderbird(turn, addr(mover), mover, f'Enact rule 24 "Tea":\nEvery player shall drink tea.\n\nCheers,\n{mover}'))
    (prop,) = referee.state("nomes")["proposals"]
    assert (prop["title"], prop["author"], prop["changes"][0]["title"]) == ("Tea", mover, "Tea")
    other = next(p for p in ("Alice", "Bob", "Carol") if p != mover)
    assert 'Proposal 1: "Tea" by ' + mover in Outbox.body(last(outbox, other, "announcement", "[Proposal 1] Tea"))
    assert_replays(referee)


def test_a_reply_to_your_move_may_name_its_title(referee, outbox):
    referee.create_game("nomes", "sidekick", NOMES, gm="gm@ref.example")
    for p in ("Alice", "Bob"):
        play(referee, clients.fresh(addr(p), p, NOMES, "[Join]", f"Name: {p}\n"))
    mover = referee.state("nomes")["turn"]["player"]
    turn = last(outbox, mover, subject="[Turn 1] Your move")
    play(referee, clients.gmail(turn, addr(mover), mover, 'Title: Gentler failure\nIn rule 22, replace "-5 points" with "-3 points".'))
    (prop,) = referee.state("nomes")["proposals"]
    assert prop["title"] == "Gentler failure" and "Title:" not in prop["text"]


@pytest.mark.parametrize("attribution", ["W dniu 1.12.2026 o 10:00, {game} pisze:", "01.12.2026 10:00, {game} пишет:",
                                         "Dne 1. 12. 2026 v 10:00 {game} napsal(a):",
                                         "ti 1.12.2026 klo 10.00 {game} kirjoitti:"])
def test_the_gms_results_from_a_thunderbird_in_polish_or_russian_do_not_carry_its_attribution(referee, outbox, attribution):
    """The GM answered "Orders of all players" from Thunderbird in Polish: "W dniu 1.12.2026 o
    10:00, Orders game pisze:" over the quote was not known as an attribution (only English,
    German, French, Spanish, Dutch, Italian, Portuguese and Scandinavian ones were), so every
    player's results ended with that line."""
    referee.create_game("war", "orders", "war@ref.example", gm="gm@ref.example")
    for p in ("Alice", "Bob"):
        play(referee, clients.fresh(addr(p), p, "war@ref.example", "[Join]", f"Name: {p}\n"))
    referee.admin("war", {"type": "start"}, "gm@ref.example")
    for p in ("Alice", "Bob"):
        play(referee, clients.fresh(addr(p), p, "war@ref.example", "[Orders]", "**Hold Paris.**"))
    digest = next(m for m in outbox.all() if m["To"] == "gm@ref.example" and "Orders of all players" in m["Subject"])
    referee.accept(clients.thunderbird(digest, "gm@ref.example", "GM", "Paris holds.", top=True, attribution=attribution),
                   "smtp", "gm@ref.example", ["war@ref.example"])
    assert Outbox.body(last(outbox, "Alice", "results")).replace("\r\n", "\n").startswith("Results of turn 1\n\nParis holds.\n\n-- \n")


def test_a_reply_to_a_judgement_already_ruled_says_so(referee, outbox):
    """Carol ruled on judgement 1 from her iPhone, then answered the ack with Outlook (about
    something else). She was told "only its judge (Carol) answers it, with a mail [Ruling] 1":
    she is the judge. A reply to a judgement already ruled on says that it was."""
    referee.create_game("nomes", "sidekick", NOMES, gm="gm@ref.example")
    for p in ("Alice", "Bob", "Carol"):
        play(referee, clients.fresh(addr(p), p, NOMES, "[Join]", f"Name: {p}\n"))
    asker = referee.state("nomes")["order"][1]  # the judge is the player before the mover (rule 17)
    play(referee, clients.fresh(addr(asker), asker, NOMES, "[CfJ] Can tea be coffee?", "Rule 24 is unclear."))
    judge = referee.state("nomes")["judgements"][0]["judge"]
    assert judge != asker
    play(referee, clients.iphone(last(outbox, judge, "judge"), addr(judge), judge, "FALSE. Tea is tea."))
    play(referee, clients.outlook(last(outbox, judge, "ack"), addr(judge), judge, "Thanks, all clear.", prefix="RE: "))
    text = Outbox.body(last(outbox, judge, "error"))
    assert f"judgement 1 was already ruled on by {judge}; a reply to it changes nothing" in text, text
    assert "only its judge" not in text


def test_a_deferential_vote_in_the_metadynasty_is_explained_as_such(referee, outbox, clock):
    """Dan answered a reminder with DEF in the Metadynasty: the result said "the Historian has no
    valid FOR or AGAINST vote", of a Historian there is none. It now says there is no Historian."""
    blognomic(referee)
    play(referee, clients.fresh(addr("Alice"), "Alice", BLOG, "[Proposal] Gold", "Everyone gets Gold.\n"))
    for p in ("Bob", "Carol"):
        play(referee, clients.gmail(last(outbox, p, "announcement", "[Proposal 1]"), addr(p), p, "FOR"))
    play(referee, clients.outlook(last(outbox, "Dan", "announcement", "[Proposal 1]"), addr("Dan"), "Dan", "DEF",
                                  prefix="Antw: ", lang="nl"))
    clock.advance(hours=12, seconds=1)
    referee.tick()
    text = Outbox.body(last(outbox, "Eve", "results", "[Proposal 1]"))
    assert "DEFERENTIAL (Dan) does not count: there is no Historian (the Metadynasty; an earlier vote stands)." in text


def test_a_ruling_typed_under_its_tag_is_announced_without_it(referee, outbox):
    """The Emperor answered a Point of Order from her iPhone by Reply, writing "[Ruling] The
    Senate builds roads." as the subject would be: every player read "Ruling: [Ruling] The Senate
    builds roads.". The tag at the top of the body is the command, not the ruling."""
    referee.create_game("emp", "imperial", "emp@ref.example", gm="gm@ref.example")
    for p in ("Alice", "Bob"):
        play(referee, clients.fresh(addr(p), p, "emp@ref.example", "[Join]", f"Name: {p}\n"))
    play(referee, clients.fresh(addr("Bob"), "Bob", "emp@ref.example", "[Point of Order] Who builds roads?", "Asking."))
    asked = last(outbox, "Alice", "announcement", "[Point of Order 1]")
    play(referee, clients.iphone(asked, addr("Alice"), "Alice", "[Ruling] The Senate builds roads."))
    assert referee.state("emp")["judgements"][0]["ruling"] == "The Senate builds roads."


def test_a_reminder_says_how_to_answer_it(referee, outbox, clock):
    """"A reminder …: your vote on proposal 1 "Tea" is due by …" said nothing of how to vote;
    the announcement it follows may be long gone from a phone's screen. Each reminder now says
    what a Reply to it should hold."""
    mover, (voter, _) = sidekick(referee)
    clock.advance(days=4, hours=1)
    referee.tick()
    assert "To vote, reply to this mail with FOR, AGAINST or ABSTAIN." in Outbox.body(last(outbox, voter, "reminder"))
    clock.advance(days=1)
    referee.tick()  # the vote closes; the next mover's turn opens
    nxt = referee.state("nomes")["turn"]["player"]
    clock.advance(days=4, hours=1)
    referee.tick()
    assert "To move, reply to this mail with your rule changes" in Outbox.body(last(outbox, nxt, "reminder", "[Turn 2]"))


@pytest.mark.parametrize("closing", ["Med vänlig hälsning", "Mit freundlichen Grüßen", "Pozdrawiam", "Saludos",
                                     "Met vriendelijke groet", "С уважением"])
def test_a_closing_without_a_comma_is_not_enacted(referee, outbox, closing):
    """Alice (Outlook, Swedish) answered "Your move" with her rule and "Med vänlig hälsning /
    Alice" under it: only closings ending in "," or "!" were set aside, and hers, written as
    Swedes, Germans, Poles or Spaniards write it, without a comma, became the rule's last lines."""
    referee.create_game("nomes", "sidekick", NOMES, gm="gm@ref.example")
    for p in ("Alice", "Bob"):
        play(referee, clients.fresh(addr(p), p, NOMES, "[Join]", f"Name: {p}\n"))
    mover = referee.state("nomes")["turn"]["player"]
    turn = last(outbox, mover, subject="[Turn 1] Your move")
    play(referee, clients.outlook(turn, addr(mover), mover, f'Enact rule 40 "Siesta":\nNaps last an hour.\n\n{closing}\n{mover}',
                                  prefix="SV: ", lang="sv", charset="utf-8"))
    (prop,) = referee.state("nomes")["proposals"]
    assert prop["changes"][0]["text"] == "Naps last an hour."


def test_an_outlook_order_in_several_bold_runs_is_one_order(referee, outbox):
    """Outlook (Word's HTML) writes one bold line in several runs after a spell check or a
    language change: <b>Attack Donal with </b><b>10 Grain</b><b>.</b>. Each run was read as an
    order of its own ("Attack Donal with", "10 Grain"), all refused as unreadable. Bold runs
    side by side on a line are one bold span, as the reader sees them."""
    referee.create_game("eire", "eire", "eire@ref.example", gm="gm@ref.example", parameters={"turn_length": "2d"})
    for name, choices in {"Maeve": "Color: Red\nTribe: Plainsmen\nOrigin: Donal",
                          "Oisin": "Color: Gold\nTribe: Merfolk\nOrigin: Reudh"}.items():
        play(referee, clients.fresh(addr(name), name, "eire@ref.example", "[Join]", f"Name: {name}\n{choices}\n"))
    referee.admin("eire", {"type": "start"}, "gm@ref.example")
    turn = last(outbox, "Oisin", "turn", "[Turn 1]")
    play(referee, clients.outlook(turn, addr("Oisin"), "Oisin", "**Attack Donal with ****10 Grain****.**\n**Defend ****Reudh**** with 3 Grain**"))
    ack = Outbox.body(last(outbox, "Oisin", "ack"))
    assert "OK   Attack Donal with 10 Grain" in ack and "OK   Defend Reudh with 3 Grain" in ack, ack
    assert [o["text"] for o in referee.state("eire")["orders"]["Oisin"]["orders"]] == \
        ["Attack Donal with 10 Grain", "Defend Reudh with 3 Grain"]


@pytest.mark.parametrize("footer", ["Skickat från min iPhone", "Verstuurd vanaf mijn iPhone", "Inviato da iPhone",
                                    "Отправлено с iPhone", "Envoyé depuis mon iPhone"])
def test_a_phones_footer_in_any_language_is_not_rule_text(referee, outbox, footer):
    """An iPhone in Swedish, Dutch, Italian, Russian or French signs "Skickat från min iPhone":
    only the English, German, French ("Envoyé de mon"), Spanish and one Dutch form were known,
    and a proposal sent from the phone enacted the footer as the rule's last line."""
    referee.create_game("nomes", "sidekick", NOMES, gm="gm@ref.example")
    for p in ("Alice", "Bob"):
        play(referee, clients.fresh(addr(p), p, NOMES, "[Join]", f"Name: {p}\n"))
    mover = referee.state("nomes")["turn"]["player"]
    play(referee, clients.fresh(addr(mover), mover, NOMES, "[Proposal] Siesta",
                                f'Enact rule 40 "Siesta":\nNaps last an hour.\n\n{footer}', html_only=True))
    assert referee.state("nomes")["proposals"][0]["changes"][0]["text"] == "Naps last an hour."


def test_a_rule_about_confidential_votes_is_not_taken_for_a_notice():
    """The confidentiality notice is set aside only when it speaks of the mail itself."""
    from mailref.read import read_rule_changes

    (change,) = read_rule_changes('Enact rule 30 "Secrets":\nVotes are secret.\n\n'
                                  "Votes are confidential. A vote cast in error may be withdrawn.", "Bob")
    assert change.text.endswith("A vote cast in error may be withdrawn.") and change.signoff is None


def test_a_gmx_header_block_is_cut_from_its_first_line():
    """GMX and web.de quote under "Gesendet: … / Von: … / An: … / Betreff: …": the block was cut
    from "Von:", and "Gesendet: Dienstag, 01. Dezember 2026 um 10:00 Uhr" stayed in the text."""
    from mailref.read.quotes import own_words

    text = ("Ich stimme dafür.\nFOR\n\nGesendet: Dienstag, 01. Dezember 2026 um 10:00 Uhr\n"
            'Von: "Nomes" <nomes@ref.example>\nAn: bob@gmx.example\nBetreff: [Nomes] [Proposal 1] Tea\n\nProposal 1 …')
    assert own_words(text) == "Ich stimme dafür.\nFOR"


def test_the_authors_results_follow_the_ack_at_an_address_of_an_international_domain(referee, outbox):
    """The id the author's ack takes is the one the results answer, for an address whose domain
    is written in Unicode (mail goes to its ASCII form) too."""
    referee.create_game("nomes", "sidekick", NOMES, gm="gm@ref.example")
    for p in ("Alice", "Bob"):
        raw = clients.fresh(f"{p.lower()}@bücher.example", p, NOMES, "[Join]", f"Name: {p}\n")
        referee.accept(raw, "smtp", f"{p.lower()}@bücher.example", [NOMES])
    mover = referee.state("nomes")["turn"]["player"]
    other = "Bob" if mover == "Alice" else "Alice"
    frm = f"{mover.lower()}@bücher.example"
    referee.accept(clients.fresh(frm, mover, NOMES, "[Proposal] Tea", 'Enact rule 24 "Tea":\nDrink tea.\n'), "smtp", frm, [NOMES])
    referee.accept(clients.fresh(f"{other.lower()}@bücher.example", other, NOMES, "[Vote] 1", "FOR"), "smtp",
                   f"{other.lower()}@bücher.example", [NOMES])
    to = f"{mover.lower()}@xn--bcher-kva.example"
    ack = next(m for m in outbox.all() if m["To"] == to and m["X-Mailref-Kind"] == "ack" and "[Proposal] Tea" in str(m["Subject"]))
    results = next(m for m in outbox.all() if m["To"] == to and m["X-Mailref-Kind"] == "results")
    assert results["In-Reply-To"] == ack["Message-ID"]


def test_a_players_reply_to_the_results_is_chatter_or_the_next_turns_orders(referee, outbox, clock):
    """Players answered Eire's "[Results] Turn 1" by Reply: "Well fought!" got "[Results] is not
    a command of Eire", and their orders for turn 2 were refused the same way (in an orders game:
    "only the GM posts results"). A player's Reply to the results is now words for the others, or,
    with bold text, the orders for the turn now open."""
    referee.create_game("eire", "eire", "eire@ref.example", gm="gm@ref.example", parameters={"turn_length": "2d"})
    for name, choices in {"Maeve": "Color: Red\nTribe: Plainsmen\nOrigin: Donal",
                          "Oisin": "Color: Gold\nTribe: Merfolk\nOrigin: Reudh"}.items():
        play(referee, clients.fresh(addr(name), name, "eire@ref.example", "[Join]", f"Name: {name}\n{choices}\n"))
    referee.admin("eire", {"type": "start"}, "gm@ref.example")
    clock.advance(days=2, seconds=1)
    referee.tick()
    results = last(outbox, "Oisin", "results", "[Results] Turn 1")
    play(referee, clients.gmail(results, addr("Oisin"), "Oisin", "Well fought!"))
    text = Outbox.body(last(outbox, "Oisin", "error"))
    assert "I found no command in your reply" in text and "not a command of Eire" not in text
    play(referee, clients.outlook(results, addr("Oisin"), "Oisin", "**Defend Reudh with 3 Grain**"))
    assert "OK   Defend Reudh with 3 Grain" in Outbox.body(last(outbox, "Oisin", "ack"))
    assert referee.state("eire")["orders"]["Oisin"]["orders"][0]["text"] == "Defend Reudh with 3 Grain"
    assert referee.state("eire")["turn"]["number"] == 2
