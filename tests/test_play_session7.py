"""What the play-through of session 7 found, played again as the players and the GM did:
mail in through the referee (as a mail client sends it), the replies read back."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_play_session6 import addr, send  # the same players' addresses, mail sent the same way

from helpers import Outbox, assert_replays, mail

G = "nomes@ref.example"
BLOG = "blog@ref.example"
EMP = "emp@ref.example"
PLAYERS = ["alice", "bob", "carol", "zoe"]


def nomes(referee, **parameters) -> str:
    referee.create_game("nomes", "sidekick", G, gm="gm@ref.example", parameters=parameters or None)
    for p in PLAYERS:
        send(referee, p, "[Join]", f"Name: {p.title()}\n")
    return referee.state("nomes")["turn"]["player"]


def blog(referee) -> None:
    referee.create_game("blog", "blognomic", BLOG, gm="gm@ref.example")
    for p in PLAYERS + ["dan"]:
        send(referee, p, "[Join]", f"Name: {p.title()}\n", to=BLOG)


@pytest.fixture
def dov_after_12h(referee, clock):
    """declare(AUTHOR, VOTES): BlogNomic's five Wizards, AUTHOR's DoV with the others' VOTES
    ({"alice": "FOR"}), and the 12 hours after which a DoV may be enacted gone by."""
    def declare(author: str, votes: dict[str, str]) -> None:
        blog(referee)
        send(referee, author, "[DoV] Most dragons", "Please vote FOR.", to=BLOG)
        for p, v in votes.items():
            send(referee, p, "[Vote] 1", v, to=BLOG)
        clock.advance(hours=12, seconds=1)
        referee.tick()
    return declare


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


def test_the_dynasty_ruleset_mail_and_the_help_read_without_gaps_or_broken_lines(referee, outbox, dov_after_12h):
    """Yesterday's leftovers: the new dynasty's ruleset mail had a double blank line before the
    rule list; the help text was hard-wrapped mid-sentence ("Write to the\\ngame you play"),
    which phones show as ragged lines."""
    dov_after_12h("bob", {"alice": "FOR", "carol": "FOR", "zoe": "FOR"})
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


def test_a_vote_sent_to_the_referees_own_address_is_told_where_it_belongs(referee, outbox):
    """Bob answers "[Nomes] [Proposal 1]" from an old address book entry: his AGAINST reached the
    referee's own address, not the game's, and the answer was the bare list of games, silent on
    his vote. It now says nothing was recorded and where to send it. A stranger's mail to that
    address still gets the list alone."""
    mover = nomes(referee)
    referee.create_game("blog", "blognomic", BLOG, gm="gm@ref.example")  # two games on the host
    send(referee, mover.lower(), "[Proposal] Hats", 'Enact rule 24 "Hats":\nEvery player wears a hat.\n')
    voter = next(p for p in PLAYERS if p.title() != mover)
    subject = str(last(outbox, addr(voter), "announcement", "[Proposal 1]")["Subject"])
    send(referee, voter, "Re: " + subject, "AGAINST\n\nToo silly.", to="referee@ref.example")
    answer = Outbox.body(last(outbox, addr(voter), "help")).replace("\r\n", "\n")
    assert answer.startswith("Your mail names Nomic Sidekick Nomic but came to the referee's own address, where no "
                             "game is played: nothing was done (no vote or command was recorded). Send it to "
                             f"{G}; a plain Reply"), answer[:400]
    assert voter.title() not in referee.state("nomes")["proposals"][0]["votes"]
    send(referee, voter, "[Status]", "", to="referee@ref.example")
    answer = Outbox.body(last(outbox, addr(voter), "help"))
    assert f"you play Nomic Sidekick Nomic at {G}." in answer
    referee.accept(mail("stranger@else.example", "referee@ref.example", "hello", "hi"), "smtp")
    answer = Outbox.body(last(outbox, "stranger@else.example", "help"))
    assert answer.startswith("This address (referee@ref.example) is the referee")


def test_a_reply_to_a_closed_proposal_is_told_it_is_closed_at_once(referee, outbox):
    """Alice answers her old ack of proposal 1 with "Actually, AGAINST." after it passed: she was
    told no vote was found and how to write one, and only her second try learnt that proposal 1
    was closed. Now the first answer says so. A vote with a reason learns the reason goes on the
    next line."""
    mover = nomes(referee)
    send(referee, mover.lower(), "[Proposal] Hats", 'Enact rule 24 "Hats":\nEvery player wears a hat.\n')
    voters = [p for p in PLAYERS if p.title() != mover]
    send(referee, voters[0], "Re: [Nomic Sidekick Nomic] [Proposal 1] Hats", "FOR - nice cleanup")
    hint = Outbox.body(last(outbox, addr(voters[0]), "error")).replace("\r\n", "\n")
    assert "with your reason, if any, on the next line" in hint
    assert 'Not read as a ballot: "FOR - nice cleanup"' in hint
    for p in voters:
        send(referee, p, "[Vote] 1", "FOR\nNice hats.")
    assert referee.state("nomes")["proposals"][0]["status"] == "passed"
    send(referee, voters[0], "Re: Re: [Nomic Sidekick Nomic] [Proposal 1] Hats", "Actually, AGAINST.")
    answer = Outbox.body(last(outbox, addr(voters[0]), "error"))
    assert "Not done: proposal 1 (passed) is closed; votes are no longer taken." in answer
    assert "No vote found" not in answer


def test_the_cli_echoes_every_address_and_says_a_new_turn_length_starts_next_turn(tmp_path):
    """A GM runs `mailref player add nomes Alice A --email B` and read back only A; then
    `game set nomes turn_timeout=3d` while a turn was running, and was not told that the
    running deadline stands (the new length counts from the next turn)."""
    import os
    import subprocess
    import sys

    import mailref

    # This checkout's mailref, whichever one the interpreter's environment would find from tmp_path.
    env = {k: v for k, v in os.environ.items() if k != "MAILREF_CONFIG"}
    env["PYTHONPATH"] = os.pathsep.join([str(Path(mailref.__file__).parents[1]), env.get("PYTHONPATH", "")])

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "mailref", *args], cwd=tmp_path, capture_output=True, text=True,
                              timeout=60, env=env)

    assert run("init").returncode == 0
    assert run("game", "create", "nomes", "--variant", "sidekick", "--address", G).returncode == 0
    r = run("player", "add", "nomes", "Alice", "alice@x.org", "--email", "alice@work.example")
    assert r.returncode == 0, r.stderr
    assert "Alice joined Nomic Sidekick Nomic (alice@x.org, alice@work.example)." in r.stdout
    assert run("player", "add", "nomes", "Bob", "bob@x.org").returncode == 0
    r = run("game", "set", "nomes", "turn_timeout=3d")
    assert r.returncode == 0, r.stderr
    assert "turn_timeout = 3d" in r.stdout
    assert "turn_timeout applies from the next deadline set; the one running now, " in r.stdout
    assert "stands. To move it: `mailref deadline nomes extend DURATION` or `set WHEN`." in r.stdout


def test_an_author_answering_the_ack_of_her_proposal_votes_on_it(referee, outbox, clock, tmp_path):
    """Zoë replies AGAINST to the ack of her own "[Proposal] Unicorns" (subject "Re: [Blog]
    [Proposal] Unicorns", no number): she was asked "which proposal?". The title names it: her
    AGAINST self-kills it (rule "Enacting and Failing"), and the result says so. DEFERENTIAL
    votes in a tally are said to count as the Historian's vote."""
    blog(referee)
    referee.admin("blog", {"type": "office", "office": "historian", "holder": "Dan"}, "gm")
    send(referee, "zoe", "[Proposal] Unicorns", 'Enact a new rule entitled "Unicorns" with the following text:\n'
         "Each Wizard may own one unicorn.\n", to=BLOG)
    ack = last(outbox, addr("zoe"), "ack", "Unicorns")
    referee.accept(mail(addr("zoe"), BLOG, "Re: " + str(ack["Subject"]), "AGAINST\nChanged my mind.",
                        in_reply_to=ack["Message-ID"]), "smtp")
    answer = last(outbox, addr("zoe"), None, "Unicorns")
    assert answer["X-Mailref-Kind"] == "ack", Outbox.body(answer)
    assert "Vote recorded: Proposal 1 — AGAINST" in Outbox.body(answer)
    assert referee.state("blog")["proposals"][0]["status"] == "failed"
    assert referee.state("blog")["proposals"][0]["reason"] == "self-killed"

    send(referee, "bob", "[Proposal] Dragons", 'Enact a new rule entitled "Dragons" with the following text:\n'
         "Each Wizard may own one dragon.\n", to=BLOG)
    send(referee, "dan", "[Vote] 2", "FOR", to=BLOG)
    send(referee, "alice", "[Vote] 2", "DEF", to=BLOG)
    send(referee, "carol", "[Vote] 2", "DEFERENTIAL", to=BLOG)
    clock.advance(hours=12, seconds=1)
    referee.tick()
    results = Outbox.body(last(outbox, addr("zoe"), "results", "[Proposal 2]"))
    assert "Tally: FOR 4, AGAINST 0, quorum 3." in results
    assert "DEFERENTIAL (Alice, Carol) counts as the Historian's vote, FOR." in results
    # The published page showed "Tally: DEFERENTIAL 2, FOR 2" beside a mail saying FOR 4.
    from mailref.config import SiteConfig
    from mailref.site import rebuild

    site = tmp_path / "site"
    rebuild(referee.store, SiteConfig(site), "blog", clock())
    page = (site / "blog" / "proposals.html").read_text()
    assert "Tally: FOR 4, AGAINST 0, quorum 3" in page, page[page.find("Tally"):page.find("Tally") + 300]
    assert "DEFERENTIAL 2" not in page
    assert_replays(referee)


def test_a_question_and_a_gm_results_reply_read_cleanly(referee, outbox, tmp_path):
    """The CfJ announcement ran the question into its detail ("asks: Is it valid?\nRule 9
    says…"); the GM's plain Reply with the results went out as "[Dip] [Results] Turn 1: Dip",
    the game's name twice."""
    mover = nomes(referee)
    asker = next(p for p in PLAYERS if p.title() != mover)
    send(referee, asker, "[CfJ] Is a sign-off valid?", "Rule 9 asks for good grammar.\nDoes a sign-off break it?")
    told = next(m for m in outbox.all() if m["X-Mailref-Kind"] == "announcement" and "[Judgement 1]" in str(m["Subject"]))
    assert f"{asker.title()} asks: Is a sign-off valid?\n\nRule 9 asks for good grammar." in Outbox.body(told).replace("\r\n", "\n")
    blog(referee)
    send(referee, "alice", "[CfJ] Was proposal 1 enacted?", "Nothing changed.\nShould it be failed?", to=BLOG)
    told = last(outbox, addr("bob"), "announcement", "[CfJ")
    assert "Was proposal 1 enacted?\n\nNothing changed." in Outbox.body(told).replace("\r\n", "\n")
    dip = "dip@ref.example"
    referee.create_game("dip", "orders", dip, gm="gm@ref.example", parameters={"turn_length": "1d"})
    for n in ("ann", "ben"):
        send(referee, n, "[Join]", f"Name: {n.title()}", to=dip)
    referee.admin("dip", {"type": "start"}, "gm")
    send(referee, "ann", "[Orders]", "**A Paris - Burgundy**", to=dip)
    send(referee, "ben", "[Orders]", "**A Munich - Ruhr**", to=dip)
    digest = next(m for m in outbox.all() if m["X-Mailref-Kind"] == "digest" and "Orders of all players" in m["Subject"])
    referee.accept(mail("gm@ref.example", dip, "Re: " + str(digest["Subject"]), "Both moves succeed.",
                        in_reply_to=digest["Message-ID"]), "smtp")
    results = last(outbox, addr("ann"), "results")
    assert str(results["Subject"]) == "[Orders game] [Results] Turn 1", results["Subject"]
    # Its page has no Offices column of dashes pushing the players' columns off a phone's screen.
    from mailref.config import SiteConfig
    from mailref.site import rebuild

    rebuild(referee.store, SiteConfig(tmp_path / "site"), None, referee.clock())
    page = (tmp_path / "site" / "dip" / "index.html").read_text()
    assert '<th scope="col">Offices</th>' not in page and "<caption>Players, their status</caption>" in page
    assert '<th scope="col">Offices</th>' in (tmp_path / "site" / "nomes" / "index.html").read_text()


def test_a_blognomic_result_says_which_clause_made_it_popular(referee, outbox, clock):
    """Proposal 1 is enacted after 48 hours with FOR 2, AGAINST 1, quorum 3: "ENACTED (popular)"
    beside a tally under quorum reads as a mistake. The result names the 48-hour clause; a matter
    failed by it likewise."""
    blog(referee)
    send(referee, "alice", "[Proposal] Gold", 'Enact a new rule entitled "Gold" with the following text:\nEach Wizard has 3 Gold.\n', to=BLOG)
    send(referee, "bob", "[Vote] 1", "FOR", to=BLOG)
    send(referee, "carol", "[Vote] 1", "AGAINST", to=BLOG)
    send(referee, "zoe", "[Proposal] Silver", 'Enact a new rule entitled "Silver" with the following text:\nEach Wizard has 3 Silver.\n', to=BLOG)
    clock.advance(hours=48, seconds=1)
    referee.tick()
    first = Outbox.body(last(outbox, addr("dan"), "results", "[Proposal 1]"))
    assert "ENACTED (popular)" in first and "Tally: FOR 2, AGAINST 1, quorum 3." in first
    assert "Popular: open 2d or more, with more than one vote and more FOR than AGAINST." in first
    second = Outbox.body(last(outbox, addr("dan"), "results", "[Proposal 2]"))
    assert "FAILED (unpopular)" in second and "Unpopular: open 2d or more without being Popular." in second


def flowed(frm: str, to: str, subject: str, body: str, in_reply_to: str = "") -> bytes:
    """A mail as Thunderbird sends it: format=flowed, long lines cut at 72 with a trailing space."""
    head = (f"From: {frm}\r\nTo: {to}\r\nSubject: {subject}\r\nDate: Tue, 01 Dec 2026 10:00:00 +0000\r\n"
            f"Message-ID: <flowed.{abs(hash((subject, body)))}@players.example>\r\nMIME-Version: 1.0\r\n"
            + (f"In-Reply-To: {in_reply_to}\r\nReferences: {in_reply_to}\r\n" if in_reply_to else "")
            + "Content-Type: text/plain; charset=UTF-8; format=flowed\r\nContent-Transfer-Encoding: 8bit\r\n"
            "User-Agent: Mozilla/5.0 Thunderbird/128.0\r\n\r\n")
    return (head + body.replace("\n", "\r\n")).encode()


def test_a_thunderbird_proposal_is_enacted_as_written_not_as_cut_for_transport(referee, outbox):
    """Carol's client sends format=flowed: her rule's one sentence arrives in three lines ending
    in a space. The rule was enacted with the client's line breaks in it; now it is one line, as
    she wrote it (RFC 3676), and a quoted vote in a flowed reply still never counts."""
    mover = nomes(referee)
    body = ('Enact rule 26 "Long Winded":\n'
            "When a proposal is made by a player who has not moved for more than \n"
            "ten days, every other player receives two points, and the mover loses \n"
            "one point for each day of delay beyond the tenth.\n\n"
            f"Cheers,\n{mover}\n-- \n{mover}, Nomes since 2025\n")
    referee.accept(flowed(addr(mover), G, "[Proposal] Long winded", body), "smtp")
    prop = referee.state("nomes")["proposals"][0]
    assert prop["changes"][0]["text"] == (
        "When a proposal is made by a player who has not moved for more than ten days, every other player "
        "receives two points, and the mover loses one point for each day of delay beyond the tenth.")
    voters = [p for p in PLAYERS if p.title() != mover]
    announcement = last(outbox, addr(voters[0]), "announcement", "[Proposal 1]")
    quoted = "\n".join("> " + ln for ln in Outbox.body(announcement).replace("\r\n", "\n").splitlines())
    reply = f"I need to think about \nthis one.\n\nOn 01/12/2026 10:00, Nomes wrote:\n> AGAINST \n{quoted}\n"
    referee.accept(flowed(addr(voters[0]), G, "Re: " + str(announcement["Subject"]), reply,
                          in_reply_to=announcement["Message-ID"]), "smtp")
    answer = Outbox.body(last(outbox, addr(voters[0]), "error"))
    assert "No vote found for proposal 1 in your own words" in answer
    assert voters[0].title() not in referee.state("nomes")["proposals"][0]["votes"]
    for p in voters:
        send(referee, p, "[Vote] 1", "FOR")
    rule = next(r for r in referee.state("nomes")["rules"] if r["number"] == "26")
    assert "\n" not in rule["text"]
    assert_replays(referee)


def test_deferential_votes_do_not_follow_an_idle_historian(referee, outbox, clock):
    """Dan, the Historian, votes FOR; Alice and Carol vote DEFERENTIAL; then Dan goes Idle. Rule
    "Votes": "A non-Wizard never has a Vote, even if they were a Wizard previously and had cast a
    valid Vote", and Idle Wizards are not counted as Wizards: the DEFs follow nothing. They used to
    go on counting as FOR, enacting the proposal on an Idle Historian's say."""
    blog(referee)
    referee.admin("blog", {"type": "office", "office": "historian", "holder": "Dan"}, "gm")
    send(referee, "bob", "[Proposal] Dragons", 'Enact a new rule entitled "Dragons" with the following text:\n'
         "Each Wizard may own one dragon.\n", to=BLOG)
    send(referee, "dan", "[Vote] 1", "FOR", to=BLOG)
    send(referee, "alice", "[Vote] 1", "DEF", to=BLOG)
    send(referee, "carol", "[Vote] 1", "DEF", to=BLOG)
    send(referee, "dan", "[Idle]", "", to=BLOG)
    clock.advance(hours=12, seconds=1)
    referee.tick()
    assert referee.state("blog")["proposals"][0]["status"] == "pending"  # FOR 1 (Bob's) of quorum 3
    clock.advance(hours=36)
    referee.tick()
    prop = referee.state("blog")["proposals"][0]
    assert (prop["status"], prop["reason"]) == ("failed", "unpopular")
    results = Outbox.body(last(outbox, addr("zoe"), "results", "[Proposal 1]"))
    assert "Tally: FOR 1, AGAINST 0, quorum 3." in results
    assert "DEFERENTIAL (Alice, Carol) does not count: the Historian has no valid FOR or AGAINST vote" in results
    assert_replays(referee)


def test_the_wizards_are_told_when_dormancy_begins_and_ends(referee, outbox):
    """Dan goes Idle and four Wizards are left: BlogNomic is Dormant and proposals are refused,
    but nobody was told until a proposal bounced. The game's fifth join and an Idle now say so."""
    referee.create_game("blog", "blognomic", BLOG, gm="gm@ref.example")
    for p in PLAYERS:
        send(referee, p, "[Join]", f"Name: {p.title()}\n", to=BLOG)
    assert not [m for m in outbox.all() if "Dormant" in str(m["Subject"])]  # dormant from the start: no news
    send(referee, "dan", "[Join]", "Name: Dan\n", to=BLOG)
    new = outbox.new()
    news = [m for m in new if "No longer Dormant" in str(m["Subject"])]
    assert sorted(m["To"] for m in news) == sorted(addr(p) for p in PLAYERS)
    ack = next(m for m in new if m["To"] == addr("dan") and m["X-Mailref-Kind"] == "ack")
    assert "BlogNomic is no longer Dormant: proposals may be submitted again." in Outbox.body(ack)
    send(referee, "dan", "[Idle]", "", to=BLOG)
    told = last(outbox, addr("alice"), "announcement", "Dormant")
    assert "BlogNomic is Dormant: there are fewer than 5 Wizards, so proposals may not be submitted" in Outbox.body(told)
    assert_replays(referee)


def test_a_status_never_says_deadline_none(referee, outbox):
    """The GM's digest and [Status] said "Turn 4: Carol Chen, deadline none" once Carol had moved."""
    mover = nomes(referee)
    send(referee, mover.lower(), "[Proposal] Hats", 'Enact rule 24 "Hats":\nEvery player wears a hat.\n')
    send(referee, mover.lower(), "[Status]")
    status = Outbox.body(last(outbox, addr(mover), "status"))
    assert f"Turn 1: {mover}, moved: proposal 1" in status and "deadline none" not in status


def test_a_result_says_whose_abstentions_the_referee_counted(referee, outbox, clock):
    """Proposal 3 passed "FOR 1, AGAINST 0, ABSTAIN 2" with "Bob Brown ABSTAIN, Zoë ABSTAIN",
    though neither had written a word: the deadline counted them (rule 11), and an away player is
    counted so too (rule 15). The result now says whose abstentions were the referee's."""
    mover = nomes(referee)
    voters = sorted(p.title() for p in PLAYERS if p.title() != mover)
    send(referee, voters[0].lower(), "[Away]")
    send(referee, mover.lower(), "[Proposal] Hats", 'Enact rule 24 "Hats":\nEvery player wears a hat.\n')
    send(referee, voters[1].lower(), "[Vote] 1", "FOR")
    clock.advance(days=5, seconds=1)
    referee.tick()
    results = Outbox.body(last(outbox, addr(voters[1].lower()), "results", "[Proposal 1]"))
    assert f"Counted ABSTAIN, not having voted in time (rule 11): {voters[2]}." in results
    assert f"Counted ABSTAIN, being away (rule 15): {voters[0]}." in results
    assert_replays(referee)


def test_late_orders_naming_an_old_turn_are_not_taken_for_the_next(referee, outbox, clock):
    """Zoë's "[Orders] turn 11" and Carol's Reply to "[Turn 11] Orders are due …" arrived after
    turn 11 was over: both were recorded as turn 12's orders without a word (in Eire, orders once
    sent cannot be changed). Orders that name a turn now count for that turn only."""
    dip = "dip@ref.example"
    referee.create_game("dip", "orders", dip, gm="gm@ref.example", parameters={"turn_length": "1d"})
    for n in ("ann", "ben"):
        send(referee, n, "[Join]", f"Name: {n.title()}", to=dip)
    referee.admin("dip", {"type": "start"}, "gm")
    turn1 = last(outbox, addr("ann"), "turn", "[Turn 1]")
    send(referee, "ann", "[Orders]", "**A Paris - Burgundy**", to=dip)
    send(referee, "ben", "[Orders]", "**A Munich - Ruhr**", to=dip)
    referee.accept(mail("gm@ref.example", dip, "[Results] Spring 1901", "All moves succeed."), "smtp")
    assert referee.state("dip")["turn"]["number"] == 2
    referee.accept(mail(addr("ann"), dip, "Re: " + str(turn1["Subject"]), "**A Burgundy - Munich**",
                        in_reply_to=turn1["Message-ID"]), "smtp")
    answer = Outbox.body(last(outbox, addr("ann"), "error"))
    assert "your orders are for turn 1, which is over; turn 2 is open now, and nothing was recorded for it" in answer
    send(referee, "ben", "[Orders] turn 3", "**A Ruhr - Holland**", to=dip)
    assert "your orders are for turn 3, which has not opened yet" in Outbox.body(last(outbox, addr("ben"), "error"))
    assert not referee.state("dip")["orders"]
    send(referee, "ben", "[Orders] turn 2", "**A Ruhr - Holland**", to=dip)
    assert referee.state("dip")["orders"]["Ben"]
    assert_replays(referee)


def test_the_senators_learn_which_proposal_a_new_one_replaced(referee, outbox):
    """Zoë's fourth undecided proposal replaces her first (rule 12, max_undecided 3): only her ack
    said so, and the Senators went on voting on a proposal that took no more votes."""
    referee.create_game("emp", "imperial", EMP, gm="gm@ref.example")
    for p in ("alice", "bob", "zoe"):
        send(referee, p, "[Join]", f"Name: {p.title()}", to=EMP)
    for i in range(1, 5):
        send(referee, "zoe", f"[Proposal] Idea {i}", f'Enact rule 4{i} "Idea {i}":\nIdea number {i}.', to=EMP)
    told = Outbox.body(last(outbox, addr("alice"), "announcement", "Idea 4"))
    assert 'It replaces Zoe\'s oldest undecided proposal, 1 "Idea 1", which takes no more votes (rule 12).' in told
    assert "replaces" not in Outbox.body(last(outbox, addr("alice"), "announcement", "Idea 3"))


def test_an_enacted_dov_says_which_clause_enacted_it(referee, outbox, clock, dov_after_12h):
    """Carol's DoV had an AGAINST and no FOR from the Historian: it waited for the 24-hour clause.
    The result said only "ENACTED (popular)"; it now says which clause of "Victory and Ascension"
    enacted it."""
    dov_after_12h("carol", {"alice": "FOR", "bob": "FOR", "zoe": "AGAINST"})
    assert referee.state("blog")["judgements"][0]["status"] == "pending"
    clock.advance(hours=12)
    referee.tick()
    results = Outbox.body(last(outbox, addr("dan"), "results", "[DoV 1]"))
    assert "ENACTED (popular)" in results and "Popular and open 1d or more." in results
    assert_replays(referee)


def test_the_new_historians_plain_reply_is_the_ascension_address(referee, outbox, dov_after_12h):
    """Carol's DoV is enacted; she answers the "A new dynasty: Carol is Historian" mail with her
    address and got "I found no command in your reply". She now gets her own mail asking for the
    address, tagged so that her plain Reply (with a `Theme:` line) is it; the others get the news."""
    dov_after_12h("carol", {"alice": "FOR", "bob": "FOR", "zoe": "FOR"})
    assert [m["X-Mailref-Kind"] for m in outbox.to(addr("carol")) if "dynasty" in str(m["Subject"])] == ["turn"]
    assert last(outbox, addr("alice"), "results", "A new dynasty")
    ask = last(outbox, addr("carol"), "turn", "[Ascension]")
    referee.accept(mail(addr("carol"), BLOG, "Re: " + str(ask["Subject"]), "Nothing but a greeting.",
                        in_reply_to=ask["Message-ID"]), "smtp")
    assert "Add a line `Theme: your theme`" in Outbox.body(last(outbox, addr("carol"), "error"))
    referee.accept(mail(addr("carol"), BLOG, "Re: " + str(ask["Subject"]),
                        "Theme: The Age of Ice\nWelcome to the Age of Ice!\nWizard: Frostling\nKeep: 2.1\n",
                        in_reply_to=ask["Message-ID"]), "smtp")
    state = referee.state("blog")
    assert not state["ascension_pending"] and state["terms"]["player"] == "Frostling"
    ruleset = Outbox.body(last(outbox, addr("alice"), "ruleset")).replace("\r\n", "\n")
    assert "The Age of Ice" in ruleset and "Welcome to the Age of Ice!" in ruleset
    assert "Theme: The Age of Ice" not in ruleset
    assert_replays(referee)


def test_reply_prefixes_of_more_languages_keep_the_tag(referee, outbox):
    """A Russian, Chinese, Hungarian or Italian client's reply ("Ответ:", "回复：", "Vá:", "RIF:")
    hid the tag when the mail carried no In-Reply-To (a webmail's reply by copy): the vote was
    not read. These prefixes are stripped like "Re:" and "AW:"."""
    mover = nomes(referee)
    voters = [p for p in PLAYERS if p.title() != mover]
    send(referee, mover.lower(), "[Proposal] Hats", 'Enact rule 24 "Hats":\nEvery player wears a hat.\n')
    for voter, prefix in zip(voters, ("Ответ:", "回复：", "RIF:"), strict=True):
        send(referee, voter, f"{prefix} [Nomic Sidekick Nomic] [Proposal 1] Hats", "FOR")
    assert referee.state("nomes")["proposals"][0]["status"] == "passed"


def test_mail_to_an_ended_game_says_who_won_not_how_to_write_it(referee, outbox):
    """Dan's [Join] to a finished game was answered "this game has ended. How to write it:
    Winners: Bob Brown"."""
    mover = nomes(referee, win_score=10)
    send(referee, mover.lower(), "[Proposal] Hats", 'Enact rule 24 "Hats":\nEvery player wears a hat.\n')
    for p in PLAYERS:
        if p.title() != mover:
            send(referee, p, "[Vote] 1", "FOR")
    assert referee.state("nomes")["status"] == "ended"
    send(referee, "dan", "[Join]", "Name: Dan")
    answer = Outbox.body(last(outbox, addr("dan"), "error"))
    assert f"Not done: Nomic Sidekick Nomic has ended; won by {mover}." in answer
    assert "Send [Status] or [Rules] to read how it ended" in answer and "Winners:" not in answer
