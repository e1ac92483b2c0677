"""What the play-through of session 7 found, played again as the players and the GM did:
mail in through the referee (as a mail client sends it), the replies read back."""

from __future__ import annotations

from helpers import Outbox, assert_replays, mail

G = "nomes@ref.example"
BLOG = "blog@ref.example"
EMP = "emp@ref.example"
PLAYERS = ["alice", "bob", "carol", "zoe"]


def addr(name: str) -> str:
    return f"{name.lower()}@players.example"


def send(referee, who: str, subject: str, body: str = "", to: str = G, **kw):
    return referee.accept(mail(addr(who), to, subject, body, **kw), "smtp", addr(who), [to])


def nomes(referee, **parameters) -> str:
    referee.create_game("nomes", "sidekick", G, gm="gm@ref.example", parameters=parameters or None)
    for p in PLAYERS:
        send(referee, p, "[Join]", f"Name: {p.title()}\n")
    return referee.state("nomes")["turn"]["player"]


def blog(referee) -> None:
    referee.create_game("blog", "blognomic", BLOG, gm="gm@ref.example")
    for p in PLAYERS + ["dan"]:
        send(referee, p, "[Join]", f"Name: {p.title()}\n", to=BLOG)


def last(outbox: Outbox, who: str, kind: str | None = None, subject: str = ""):
    found = [m for m in outbox.to(who, kind=kind) if subject in str(m["Subject"])]
    assert found, (who, kind, subject)
    return found[-1]


def test_a_passed_amendment_of_rule_8_gives_the_next_mover_the_new_time(referee, outbox, clock):
    """Bob's proposal amends rule 8 from five days to four and passes. The ruleset mail says
    "From now on the referee runs rule 8 as it now reads: a mover has 4d", yet the next mover's
    "Your move" (opened before the change was applied) said "in 5 days". Rule 7: the changes go
    into effect with the updated list, so the next turn is the first to run on four days."""
    mover = nomes(referee)
    body = ("Amend rule 8 to read:\nA move consists of emailing one proposal to the group. If, after it becomes "
            "a player's turn, that player does not move within four days, his or her turn is skipped that round.\n")
    send(referee, mover.lower(), "[Proposal] Faster turns", body)
    outbox.new()
    for p in PLAYERS:
        if p.title() != mover:
            send(referee, p, "[Vote] 1", "FOR")
    state = referee.state("nomes")
    assert state["parameters"]["turn_timeout"] == "4d"
    nxt = state["turn"]["player"]
    assert state["turn"]["deadline"] == "2026-12-05T10:00:00Z"  # four days from the clock's 1 Dec 10:00
    new = outbox.new()
    turn = [m for m in new if m["X-Mailref-Kind"] == "turn"]
    assert [m["To"] for m in turn] == [addr(nxt)]
    assert "before Sat 5 Dec 2026 10:00 UTC, in 4 days" in Outbox.body(turn[0])
    ruleset = next(m for m in new if m["X-Mailref-Kind"] == "ruleset" and m["To"] == addr(nxt))
    text = Outbox.body(ruleset)
    assert "a mover has 4d to move (turn_timeout: 5d -> 4d)" in text
    assert f"Turn 2: {nxt} is to move." in text
    # The skip comes after four days, not five.
    clock.advance(days=4, seconds=1)
    referee.tick()
    assert referee.state("nomes")["turn"]["number"] == 3
    assert_replays(referee)


def test_a_blognomic_proposal_whose_changes_cannot_apply_is_said_at_once_and_at_enactment(referee, outbox, clock):
    """Alice proposes `In rule 1.8, replace "two" with "three"` (rule 1.8 says "2 Proposals").
    It used to be accepted without a word, then "ENACTED (popular)" went to everybody while
    nothing changed, and only the GM heard why. Now her ack and the voters' announcement say the
    changes cannot apply as the ruleset reads, and the result says none of them was applied."""
    blog(referee)
    outbox.new()
    body = ('Amend rule 1.3 to read:\nA Wizard may become Idle by posting a message saying so.\n\n'
            'In rule 1.8, replace "two" with "three".\n')
    send(referee, "alice", "[Proposal] [Core] Tidy up", body, to=BLOG)
    new = outbox.new()
    ack = Outbox.body(last(outbox, addr("alice"), "ack", "Tidy up"))
    assert 'cannot apply: rule 1.8 does not contain the words "two"' in ack
    assert "send [Withdraw] 1 and propose it again" in ack
    announcement = next(m for m in new if m["X-Mailref-Kind"] == "announcement" and m["To"] == addr("bob"))
    assert 'these changes cannot apply: rule 1.8 does not contain the words "two"' in Outbox.body(announcement)
    for p in ("bob", "carol"):
        send(referee, p, "Re: [Proposal 1] [Core] Tidy up", "FOR", to=BLOG)
    clock.advance(hours=12, seconds=1)
    referee.tick()
    assert referee.state("blog")["proposals"][0]["status"] == "enacted"
    new = outbox.new()
    results = next(m for m in new if m["X-Mailref-Kind"] == "results" and m["To"] == addr("zoe"))
    assert "ENACTED" in str(results["Subject"])
    assert ('Its rule changes cannot apply to the ruleset as it now reads (rule 1.8 does not contain the words '
            '"two"): none of them is applied, and the GM is asked to correct the ruleset.') in Outbox.body(results)
    assert not [m for m in new if m["X-Mailref-Kind"] == "ruleset"]
    assert any("could not apply" in Outbox.body(m) for m in new if m["To"] == "gm@ref.example")
    rule = next(r for r in referee.state("blog")["rules"] if r["number"] == "1.3")
    assert rule["text"] != "A Wizard may become Idle by posting a message saying so."  # never half-applied
    assert_replays(referee)


def test_a_proposal_whose_changes_apply_has_no_such_note(referee, outbox, clock):
    """The note is no noise: a proposal that applies is announced and enacted without it."""
    blog(referee)
    send(referee, "alice", "[Proposal] Gold", 'Enact a new rule entitled "Gold" with the following text:\nEach Wizard has 3 Gold.\n', to=BLOG)
    for p in ("bob", "carol"):
        send(referee, p, "Re: [Proposal 1] Gold", "FOR", to=BLOG)
    clock.advance(hours=12, seconds=1)
    referee.tick()
    texts = [Outbox.body(m) for m in outbox.all() if m["To"] == addr("zoe")]
    assert not [t for t in texts if "cannot apply" in t or "none of them is applied" in t]
    assert any(m["X-Mailref-Kind"] == "ruleset" for m in outbox.to(addr("zoe")))


def test_an_accepted_imperial_proposal_without_rule_changes_says_the_gm_applies_it(referee, outbox, clock):
    """Imperial allows free-text proposals (SPEC §3.1): when the Emperor accepts one, the players
    read that the GM applies it, rather than wait for a ruleset mail that never comes."""
    referee.create_game("emp", "imperial", EMP, gm="gm@ref.example", parameters={"vote_period": "1h"})
    for p in ("alice", "bob", "carol"):
        send(referee, p, "[Join]", f"Name: {p.title()}", to=EMP)
    referee.admin("emp", {"type": "office", "office": "emperor", "holder": "Carol"}, "gm")
    send(referee, "bob", "[Point of Order] Roads?", "May we build roads?", to=EMP)
    send(referee, "alice", "[Proposal] A feast", "Every Senator is invited to a feast in the capital.", to=EMP)
    send(referee, "bob", "Re: [Proposal 1] A feast", "YES", to=EMP)
    clock.advance(hours=1, seconds=1)
    referee.tick()
    judge = last(outbox, addr("carol"), "judge")
    referee.accept(mail(addr("carol"), EMP, "Re: " + str(judge["Subject"]), "ACCEPT", in_reply_to=judge["Message-ID"]),
                   "smtp")
    results = last(outbox, addr("bob"), "results", "ACCEPTED")
    assert "It has no rule changes the referee can apply: the GM applies its effects." in Outbox.body(results)
    assert_replays(referee)


def test_the_dynasty_ruleset_mail_and_the_help_read_without_gaps_or_broken_lines(referee, outbox, clock):
    """Yesterday's leftovers: the new dynasty's ruleset mail had a double blank line before the
    rule list; the help text was hard-wrapped mid-sentence ("Write to the\\ngame you play"),
    which phones show as ragged lines."""
    blog(referee)
    send(referee, "bob", "[DoV] I win", "All mine.", to=BLOG)
    for n in ("alice", "carol", "zoe"):
        send(referee, n, "[Vote] 1", "FOR", to=BLOG)
    clock.advance(hours=12, seconds=1)
    referee.tick()
    send(referee, "bob", "[Ascension] The Age of Dragons", "Welcome!\n\nWizard: Dragon\nKeep: 2.1\n", to=BLOG)
    ruleset = last(outbox, addr("alice"), "ruleset")
    body = Outbox.body(ruleset).replace("\r\n", "\n")
    assert "\n\n\n" not in body, repr(body[body.index("\n\n\n") - 200:body.index("\n\n\n") + 50])
    assert "The full rule list now reads:\n\n1.1. " in body
    referee.create_game("emp", "imperial", EMP, gm="gm@ref.example")  # two games: the referee's own help
    referee.accept(mail("newbie@players.example", "referee@ref.example", "hello", "How do I play?"), "smtp")
    help_ = Outbox.body(last(outbox, "newbie@players.example", "help")).replace("\r\n", "\n")
    assert "Write to the game you play (a plain Reply to any of its mails does that)." in help_
    assert "e.g. [Join] or [Status]; send [Help]" in help_


def test_the_gm_learns_which_passed_rules_are_theirs_to_apply(referee, outbox, clock):
    """Bob's proposal enacts rule 24 "Quick Votes" (+1 point for voting within a day) and
    rewrites rule 12 (two thirds to pass). The referee runs neither: rule 24 used to pass without a
    word to the GM, and rule 12 went on being run as "more FOR than AGAINST" in silence. Now the
    digest says rule 24 is the GM's to apply, and the one alert of the enactment names rule 12."""
    mover = nomes(referee)
    body = ('Enact rule 24 "Quick Votes":\nA player who votes within one day of a proposal receives 1 point.\n\n'
            "Amend rule 12 to read:\nA proposal passes when two thirds of the votes cast are for it.\n")
    send(referee, mover.lower(), "[Proposal] Quick", body)
    for p in PLAYERS:
        if p.title() != mover:
            send(referee, p, "[Vote] 1", "FOR")
    alerts = [Outbox.body(m) for m in outbox.to("gm@ref.example", kind="alert")]
    assert len(alerts) == 1, alerts
    assert 'It rewrites rule 12 "Passing and Failing", which the referee carries out as the game\'s initial rules say' in alerts[0]
    assert "Quick Votes" in alerts[0]  # said in the same alert, with how to apply it
    referee.admin("nomes", {"type": "digest"}, "gm")
    digest = Outbox.body(last(outbox, "gm@ref.example", "digest"))
    assert ('The referee does not run its new rule 24 "Quick Votes": what they require is the GM\'s to apply '
            "(`mailref score`, `mailref rule`).") in digest
    assert_replays(referee)


def test_a_passed_rule_the_referee_does_not_run_makes_no_alert_alone(referee, outbox, clock):
    """A new rule alone is the GM's in the digest, never an alert of its own (every Sidekick move
    enacts one)."""
    mover = nomes(referee)
    send(referee, mover.lower(), "[Proposal] Hats", 'Enact rule 24 "Hats":\nEvery player wears a hat.\n')
    for p in PLAYERS:
        if p.title() != mover:
            send(referee, p, "[Vote] 1", "FOR")
    assert referee.state("nomes")["proposals"][0]["status"] == "passed"
    assert outbox.to("gm@ref.example", kind="alert") == []
