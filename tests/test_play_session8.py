"""What the play-through of session 8 found, played again as the players and the GM did: long
games by mail through the referee (as a mail client sends it), the clock driven as the daemon's
timers would be, the replies read back."""

from __future__ import annotations

from test_play_session6 import addr, send  # the same players' addresses, mail sent the same way

from helpers import Outbox, assert_replays

BLOG = "blog@ref.example"
EMP = "emp@ref.example"
EIRE = "eire@ref.example"


def blog(referee, players=("alice", "bob", "carol", "dan", "eve")) -> None:
    referee.create_game("blog", "blognomic", BLOG, gm="gm@ref.example")
    for p in players:
        send(referee, p, "[Join]", f"Name: {p.title()}\n", to=BLOG)


def last(outbox: Outbox, who: str, kind: str | None = None, subject: str = ""):
    found = [m for m in outbox.to(who, kind=kind) if subject in str(m["Subject"])]
    assert found, (who, kind, subject)
    return found[-1]


def new_rule(title: str, text: str) -> str:
    return f'Enact a new rule entitled "{title}" with the following text:\n{text}\n'


def test_two_pending_proposals_each_enacting_a_new_rule_both_apply(referee, outbox, clock):
    """Alice and Bob each propose a new dynastic rule without naming its number, on the same day.
    Both were numbered 2.20 when they were sent; Alice's was enacted as 2.20, and Bob's was then
    "ENACTED" with "rule 2.20 already exists": nothing of it applied (seed 002: the Admin
    enacts a Proposal "by updating the Ruleset ... to include the specified effects"). A rule
    whose number the proposal left open now takes the next free number when it is enacted."""
    blog(referee)
    send(referee, "alice", "[Proposal] Gold", new_rule("Gold", "Each Wizard has 3 Gold."), to=BLOG)
    send(referee, "bob", "[Proposal] Silver", new_rule("Silver", "Each Wizard has 2 Silver."), to=BLOG)
    assert 'Enact rule 2.20 "Silver"' in Outbox.body(last(outbox, addr("bob"), "ack", "Silver"))
    for p in ("bob", "carol", "dan"):
        send(referee, p, "Re: [BlogNomic] [Proposal 1] Gold", "FOR", to=BLOG)
    for p in ("alice", "carol", "dan"):
        send(referee, p, "Re: [BlogNomic] [Proposal 2] Silver", "FOR", to=BLOG)
    clock.advance(hours=12, seconds=1)
    referee.tick()
    state = referee.state("blog")
    assert [(m["status"], m["reason"]) for m in state["proposals"]] == [("enacted", "popular"), ("enacted", "popular")]
    rules = {r["number"]: (r["title"], r["text"]) for r in state["rules"]}
    assert rules["2.20"] == ("Gold", "Each Wizard has 3 Gold.")
    assert rules["2.21"] == ("Silver", "Each Wizard has 2 Silver.")
    assert state["proposals"][1]["changes"][0]["number"] == "2.21"  # the site and [Status] show where it went
    ruleset = last(outbox, addr("eve"), "ruleset", "Silver")
    assert '+ Rule 2.21 "Silver" (new)' in Outbox.body(ruleset)
    results = last(outbox, addr("eve"), "results", "Silver")
    assert "cannot apply" not in Outbox.body(results)
    assert not [m for m in outbox.all() if m["X-Mailref-Kind"] == "alert"]
    assert_replays(referee)


def test_a_rule_numbered_by_its_author_keeps_that_number(referee, outbox, clock):
    """The renumbering is for the referee's own choice only: "Enact a new rule 2.30" stays 2.30."""
    blog(referee)
    body = 'Enact a new rule 2.30 titled "Copper":\nEach Wizard has 1 Copper.\n'
    send(referee, "alice", "[Proposal] Copper", body, to=BLOG)
    for p in ("bob", "carol"):
        send(referee, p, "[Vote] 1", "FOR", to=BLOG)
    clock.advance(hours=12, seconds=1)
    referee.tick()
    assert any(r["number"] == "2.30" and r["title"] == "Copper" for r in referee.state("blog")["rules"])


def test_the_same_proposal_sent_twice_is_one_proposal(referee, outbox, clock):
    """Alice's client sent her proposal twice (a new Message-ID each time: Send pressed again
    after a timeout). BlogNomic made proposals 1 and 2 of the same text, and the copy used up
    her second pending slot (rule "Proposals": at most 2 pending); everybody was asked to vote
    twice. The copy is now refused with the number of the first; a changed text is a new one."""
    blog(referee)
    body = new_rule("Gold", "Each Wizard has 3 Gold.")
    send(referee, "alice", "[Proposal] Gold", body, to=BLOG)
    outbox.new()
    send(referee, "alice", "[Proposal] Gold", body.replace("\n", "\r\n") + "\n", to=BLOG)
    new = outbox.new()
    assert [(m["To"], m["X-Mailref-Kind"]) for m in new] == [(addr("alice"), "error")]
    text = Outbox.body(new[0])
    assert 'this repeats your proposal 1 "Gold" of Tue 1 Dec 2026 10:00 UTC, word for word' in text
    assert "send [Withdraw] 1 and propose it again" in text
    assert len(referee.state("blog")["proposals"]) == 1
    # Her next, different proposal is taken: the copy used no slot.
    send(referee, "alice", "[Proposal] Gold", new_rule("Gold", "Each Wizard has 4 Gold."), to=BLOG)
    assert [p["number"] for p in referee.state("blog")["proposals"]] == [1, 2]
    # A CfJ asked twice is one CfJ too.
    send(referee, "bob", "[CfJ] Is Gold legal?", "Please judge.", to=BLOG)
    outbox.new()
    send(referee, "bob", "[CfJ] Is Gold legal?", "Please judge.", to=BLOG)
    assert "this repeats your CfJ 3" in Outbox.body(last(outbox, addr("bob"), "error"))
    assert len(referee.state("blog")["judgements"]) == 1
    assert_replays(referee)


def test_an_imperial_proposal_sent_twice_does_not_replace_the_senators_oldest(referee, outbox, clock):
    """Imperial rule 12: a Senator with 3 undecided proposals who submits another loses the
    oldest. Carol's third proposal, sent twice by her client, replaced her first one (and
    made a fourth, a copy of the third)."""
    referee.create_game("emp", "imperial", EMP, gm="gm@ref.example")
    for p in ("alice", "bob", "carol"):
        send(referee, p, "[Join]", f"Name: {p.title()}\n", to=EMP)
    for n in (1, 2, 3):
        send(referee, "carol", f"[Proposal] Idea {n}", f"Idea number {n}.", to=EMP)
    outbox.new()
    send(referee, "carol", "[Proposal] Idea 3", "Idea number 3.", to=EMP)
    new = outbox.new()
    assert [(m["To"], m["X-Mailref-Kind"]) for m in new] == [(addr("carol"), "error")]
    assert 'this repeats your proposal 3 "Idea 3"' in Outbox.body(new[0])
    assert [(p["number"], p["status"]) for p in referee.state("emp")["proposals"]] == \
        [(1, "voting"), (2, "voting"), (3, "voting")]
    send(referee, "carol", "[Point of Order] Who judges?", "Please.", to=EMP)
    send(referee, "carol", "[Point of Order] Who judges?", "Please.", to=EMP)
    assert "this repeats your Point of Order 1" in Outbox.body(last(outbox, addr("carol"), "error"))
    assert len(referee.state("emp")["judgements"]) == 1
    assert_replays(referee)


def eire(referee, **players) -> None:
    referee.create_game("eire", "eire", EIRE, gm="gm@ref.example", parameters={"turn_length": "2d"})
    for name, choices in players.items():
        send(referee, name.lower(), "[Join]", f"Name: {name}\n{choices}\n", to=EIRE)
    referee.admin("eire", {"type": "start"}, "gm@ref.example")


def test_a_player_eliminated_in_a_turn_gets_its_results(referee, outbox, clock):
    """Maeve missed turn 1; Oisin walked into Donal, her only land, and she was eliminated.
    The results went to the players still in the game only: Maeve never learnt what happened
    (nor that her color is free for a newcomer, seed 001 "If any Player gets eliminated...").
    Everybody who played the turn now gets its results, once; the next turn is not hers."""
    eire(referee, Maeve="Color: Red\nTribe: Plainsmen\nOrigin: Donal",
         Oisin="Color: Gold\nTribe: Merfolk\nOrigin: Reudh",
         Finn="Color: Green\nTribe: Plainsmen\nOrigin: Llanc")
    send(referee, "oisin", "[Orders]", "**Attack Donal with 12 Grain.**", to=EIRE)
    send(referee, "finn", "[Orders]", "**Defend Llanc with 5 Grain.**", to=EIRE)
    outbox.new()
    clock.advance(days=2, seconds=1)
    referee.tick()
    new = outbox.new()
    results = [m for m in new if m["X-Mailref-Kind"] == "results"]
    assert sorted(m["To"] for m in results) == sorted(addr(p) for p in ("maeve", "oisin", "finn"))
    mine = next(m for m in results if m["To"] == addr("maeve"))
    assert "Maeve holds no land and is eliminated; the color Red is free." in Outbox.body(mine)
    assert sorted(m["To"] for m in new if m["X-Mailref-Kind"] == "turn") == sorted(addr(p) for p in ("oisin", "finn"))
    assert_replays(referee)


def test_the_same_orders_sent_twice_are_said_to_stand(referee, outbox, clock):
    """Finn's client sent his Eire orders twice. The copy was answered "you cannot edit your
    orders once you've sent them", and Finn wrote to the GM fearing they were lost. The copy
    of orders already recorded now says they stand; changed orders are refused as before."""
    eire(referee, Finn="Color: Green\nTribe: Plainsmen\nOrigin: Llanc",
         Maeve="Color: Red\nTribe: Plainsmen\nOrigin: Donal")
    send(referee, "finn", "[Orders]", "**Defend Llanc with 5 Grain.**\n**Invest 5 Grain in Llanc.**", to=EIRE)
    send(referee, "finn", "[Orders]", "Again:\n\n**Defend Llanc with 5 Grain**\n**invest 5 Grain in Llanc.**", to=EIRE)
    text = Outbox.body(last(outbox, addr("finn"), "error"))
    assert "these are the orders you sent Tue 1 Dec 2026 10:00 UTC, word for word: they are recorded and stand" in text
    send(referee, "finn", "[Orders]", "**Defend Llanc with 9 Grain.**", to=EIRE)
    assert "you cannot edit your orders once you've sent them" in Outbox.body(last(outbox, addr("finn"), "error"))
    assert [o["text"] for o in referee.state("eire")["orders"]["Finn"]["orders"]] == \
        ["Defend Llanc with 5 Grain", "Invest 5 Grain in Llanc"]
    assert_replays(referee)


G = "nomes@ref.example"


def nomes(referee, players=("alice", "bob", "carol")) -> str:
    referee.create_game("nomes", "sidekick", G, gm="gm@ref.example")
    for p in players:
        send(referee, p, "[Join]", f"Name: {p.title()}\n")
    return referee.state("nomes")["turn"]["player"]


def test_a_vote_the_admin_changes_is_told_to_its_voter(referee, outbox, clock):
    """Carol asked the GM by phone to change her vote; `mailref vote nomes 1 Carol AGAINST
    --reason ...` changed it and closed the vote, and Carol heard nothing of it but the result
    (SPEC §1.4: CLI commands "announce to the players what players would expect to be told")."""
    mover = nomes(referee)
    send(referee, mover.lower(), "[Proposal] Tea", 'Enact rule 24 "Tea":\nTea is served.\n')
    voters = [p for p in ("Alice", "Bob", "Carol") if p != mover]
    send(referee, voters[0].lower(), "[Vote] 1", "FOR")
    outbox.new()
    referee.admin("nomes", {"type": "vote_override", "number": 1, "player": voters[0], "vote": "AGAINST",
                            "reason": "asked by phone"}, "gm@ref.example")
    told = [m for m in outbox.new() if m["To"] == addr(voters[0]) and m["X-Mailref-Kind"] == "announcement"]
    assert len(told) == 1
    assert str(told[0]["Subject"]).endswith("[Proposal 1] Your vote was set by the admin")
    text = Outbox.body(told[0])
    assert 'The admin recorded your vote on proposal 1 "Tea" as AGAINST (it was FOR).' in text
    assert "Reason: asked by phone." in text
    assert referee.state("nomes")["proposals"][0]["votes"][voters[0]] == "AGAINST"
    assert_replays(referee)


def test_a_player_the_admin_removes_is_told(referee, outbox, clock):
    """`mailref player remove nomes Alice` mid-vote: Bob and Carol read "Alice leaves the game";
    Alice got nothing, and her next vote was answered "you have left"."""
    nomes(referee)
    outbox.new()
    referee.admin("nomes", {"type": "player_remove", "player": "Alice", "reason": "asked to leave"}, "gm@ref.example")
    new = outbox.new()
    mine = [m for m in new if m["To"] == addr("alice")]
    assert [str(m["Subject"]) for m in mine] == ["[Nomic Sidekick Nomic] You have been removed from the game"]
    text = Outbox.body(mine[0])
    assert "Alice, the admin has removed you from Nomic Sidekick Nomic." in text
    assert "Reason: asked to leave." in text and "gm@ref.example" in text
    assert sorted(m["To"] for m in new if "Alice leaves the game" in str(m["Subject"])) == [addr("bob"), addr("carol")]
    assert_replays(referee)


def test_a_player_the_admin_adds_is_welcomed_once(referee, outbox, clock):
    """`mailref player add nomes Dave dave@...`: the terminal read "You are inserted at place 1
    of the turn order" (the admin is not inserted anywhere), and Dave got only "Dave joins the
    game: Dave has joined". He now gets one welcome saying where he stands and how to play."""
    nomes(referee)
    outbox.new()
    outcome = referee.admin("nomes", {"type": "player_add", "name": "Dave", "address": addr("dave"), "more": []},
                            "gm@ref.example")
    assert "Dave is inserted at place" in "\n".join(outcome.lines)  # the admin's terminal
    new = outbox.new()
    mine = [m for m in new if m["To"] == addr("dave")]
    assert [str(m["Subject"]) for m in mine] == ["[Nomic Sidekick Nomic] Welcome to Nomic Sidekick Nomic"]
    text = Outbox.body(mine[0])
    order = referee.state("nomes")["order"]
    assert f"You are at place {order.index('Dave') + 1} of the turn order: {', '.join(order)}." in text
    assert "Write to nomes@ref.example: send [Help] for the commands" in text
    assert sorted(m["To"] for m in new if "Dave joins the game" in str(m["Subject"])) == \
        sorted(addr(p) for p in ("alice", "bob", "carol"))
    assert_replays(referee)


def test_a_player_the_admin_adds_to_a_forming_nomic_learns_the_turn_order(referee, outbox, clock):
    """The second player, added by the admin, starts the game: the turn order drawn then is in
    his welcome, not in a second mail."""
    referee.create_game("nomes", "sidekick", G, gm="gm@ref.example")
    send(referee, "alice", "[Join]", "Name: Alice\n")
    outbox.new()
    referee.admin("nomes", {"type": "player_add", "name": "Bob", "address": addr("bob"), "more": []}, "gm@ref.example")
    mine = [m for m in outbox.new() if m["To"] == addr("bob") and m["X-Mailref-Kind"] == "announcement"]
    assert len(mine) == 1
    assert "The turn order is drawn at random (rule 6):" in Outbox.body(mine[0])


def test_imperial_senators_are_reminded_of_their_votes(referee, outbox, clock):
    """Imperial votes close 4 days after posting (vote_period); SPEC §4.2 reminds those who
    have not acted `reminder_before` (1 day) ahead. The Senators were never reminded: a
    proposal nobody remembered was rejected for want of YES votes."""
    referee.create_game("emp", "imperial", EMP, gm="gm@ref.example")
    for p in ("joel", "alice", "bob", "carol"):
        send(referee, p, "[Join]", f"Name: {p.title()}\n", to=EMP)
    for p in ("alice", "bob", "carol"):
        send(referee, p, f"[Proposal] Idea of {p}", f"{p} has an idea.", to=EMP)  # three Senators
    send(referee, "bob", "[Vote] 1", "YES", to=EMP)
    outbox.new()
    clock.advance(days=2, hours=23)
    referee.tick()
    assert not [m for m in outbox.new() if m["X-Mailref-Kind"] == "reminder"]
    clock.advance(hours=1, seconds=1)
    referee.tick()
    reminders = {m["To"]: m for m in outbox.new() if m["X-Mailref-Kind"] == "reminder"}
    assert sorted(reminders) == sorted(addr(p) for p in ("alice", "bob", "carol"))  # one each, not one a proposal
    bob = Outbox.body(reminders[addr("bob")])
    assert 'your vote (YES or NO) on proposal 2 "Idea of bob"' not in bob  # his own: he does not vote on it
    assert 'proposal 3 "Idea of carol" is due by Sat 5 Dec 2026 10:00 UTC' in bob
    assert "proposal 1" not in bob  # he voted on it
    assert 'proposal 2 "Idea of bob" and proposal 3 "Idea of carol"' in Outbox.body(reminders[addr("alice")])
    clock.advance(hours=2)
    referee.tick()
    assert not [m for m in outbox.new() if m["X-Mailref-Kind"] == "reminder"]  # once
    assert_replays(referee)


def test_a_vote_naming_another_game_is_not_counted_in_this_one(referee, outbox, clock):
    """Eve plays Nomes and BlogNomic, both with a proposal 1. Her vote "Re: [Nomic Sidekick
    Nomic] [Proposal 1] Tea" went to BlogNomic's address (picked from her address book, without
    In-Reply-To): it was recorded on BlogNomic's proposal 1 "Gold", a proposal she never read.
    A subject naming another game of this host is now sent back there, nothing done here."""
    nomes(referee, ("alice", "bob", "carol", "dan", "eve"))
    blog(referee)
    mover = referee.state("nomes")["turn"]["player"]
    send(referee, mover.lower(), "[Proposal] Tea", 'Enact rule 24 "Tea":\nTea is served.\n')
    send(referee, "alice", "[Proposal] Gold", new_rule("Gold", "Each Wizard has 3 Gold."), to=BLOG)
    outbox.new()
    send(referee, "eve", "Re: [Nomic Sidekick Nomic] [Proposal 1] Tea", "AGAINST", to=BLOG)
    new = outbox.new()
    assert [(m["To"], m["X-Mailref-Kind"], m["X-Mailref-Game"]) for m in new] == [(addr("eve"), "error", "blog")]
    text = Outbox.body(new[0])
    assert "this is BlogNomic, but your mail names Nomic Sidekick Nomic; nothing was done in BlogNomic" in text
    assert f"Send it to Nomic Sidekick Nomic at {G}" in text
    assert "Eve" not in referee.state("blog")["proposals"][0]["votes"]
    # A label no game of the host has (a mail gateway's "[EXT]") is no other game: the vote counts.
    send(referee, "eve", "[EXT] Re: [BlogNomic] [Proposal 1] Gold", "AGAINST", to=BLOG)
    assert referee.state("blog")["proposals"][0]["votes"]["Eve"] == "AGAINST"
    assert_replays(referee)


def test_the_gms_thanks_for_the_digest_is_no_request_for_help(referee, outbox, clock):
    """The GM answered the daily digest "Thanks, looks fine." and got the players' whole help
    text back ("I found no command tag in your subject"); a player's reply to any mail is told
    that nothing was done. So is the GM's now."""
    nomes(referee)
    clock.advance(days=1)
    referee.tick()
    digest = last(outbox, "gm@ref.example", "digest")
    referee.accept(mail_from_gm("Re: " + str(digest["Subject"]), "Thanks, looks fine.", digest["Message-ID"]),
                   "smtp", "gm@ref.example", [G])
    answer = last(outbox, "gm@ref.example")
    assert answer["X-Mailref-Kind"] == "error"
    assert "I found no command in your reply, so nothing was done" in Outbox.body(answer)


def mail_from_gm(subject: str, body: str, in_reply_to: str) -> bytes:
    from helpers import mail
    return mail("gm@ref.example", G, subject, body, in_reply_to=in_reply_to)


def test_a_turn_waiting_only_for_a_player_who_leaves_resolves_at_once(referee, outbox, clock):
    """Finn and Maeve had ordered; Oisin, the one the turn waited for, quit. The turn waited two
    more days for its deadline, though nobody else could still order (SPEC §5.4: resolved early
    when all have ordered). It now resolves when he leaves, his lands already independent. In a
    GM-adjudicated game a player set away does the same: the GM gets the orders at once."""
    eire(referee, Finn="Color: Green\nTribe: Plainsmen\nOrigin: Llanc",
         Maeve="Color: Red\nTribe: Plainsmen\nOrigin: Donal",
         Oisin="Color: Gold\nTribe: Merfolk\nOrigin: Reudh")
    send(referee, "finn", "[Orders]", "**Defend Llanc with 5 Grain.**", to=EIRE)
    send(referee, "maeve", "[Orders]", "**Attack Reudh with 12 Grain.**", to=EIRE)
    assert referee.state("eire")["turn"]["number"] == 1
    outbox.new()
    send(referee, "oisin", "[Quit]", "", to=EIRE)
    state = referee.state("eire")
    assert state["turn"]["number"] == 2
    new = outbox.new()
    results = [m for m in new if m["X-Mailref-Kind"] == "results"]
    assert sorted(m["To"] for m in results) == [addr("finn"), addr("maeve")]
    text = Outbox.body(results[0])
    assert "Turn 1 is resolved (every player still in the game has ordered)." in text
    assert "Reudh (independent) attacked by Maeve with 12" in text  # Oisin's land was his no more
    assert_replays(referee)

    referee.create_game("dip", "orders", "dip@ref.example", gm="gm@ref.example")
    for p in ("ann", "ben", "cat"):
        send(referee, p, "[Join]", f"Name: {p.title()}\n", to="dip@ref.example")
    referee.admin("dip", {"type": "start"}, "gm@ref.example")
    for p in ("ann", "ben"):
        send(referee, p, "[Orders]", "**A Par H**", to="dip@ref.example")
    outbox.new()
    referee.admin("dip", {"type": "player_status", "name": "Cat", "status": "away"}, "gm@ref.example")
    assert referee.state("dip")["turn"].get("awaiting_results")
    assert [m for m in outbox.new() if m["To"] == "gm@ref.example" and "Orders of all players" in str(m["Subject"])]


def test_a_blognomic_result_says_whose_listed_votes_it_did_not_count(referee, outbox, clock):
    """Alice proposed, then quit; the result read "Tally: FOR 3" above "Votes: Alice FOR, Bob
    FOR, Carol FOR, ..., Eve FOR" (four FOR): her vote was rightly left out ("A non-Wizard never
    has a Vote"), but the mail did not say so and the players counted a mistake."""
    blog(referee, ("alice", "bob", "carol", "dan", "eve", "fay"))
    send(referee, "alice", "[Proposal] Gold", new_rule("Gold", "Gold."), to=BLOG)
    for p in ("bob", "carol"):
        send(referee, p, "[Vote] 1", "FOR", to=BLOG)
    send(referee, "alice", "[Quit]", "", to=BLOG)
    clock.advance(hours=12, seconds=1)
    referee.tick()
    send(referee, "eve", "[Vote] 1", "FOR", to=BLOG)
    text = Outbox.body(last(outbox, addr("bob"), "results", "Gold"))
    assert "Tally: FOR 3, AGAINST 0, quorum 3." in text
    assert 'Not counted, having left or gone Idle ("A non-Wizard never has a Vote"): Alice.' in text


def test_a_mover_who_quits_while_the_move_is_voted_on_is_followed_by_the_next_in_order(referee, outbox, clock):
    """The order was Carol, Alice, Bob, Dan; Alice moved, then quit while her proposal was being
    voted on. When the vote closed, turn 2 went to Carol, the first of the order, passing over
    Bob and Dan (rule 6: "The first player on the list moves first, followed by the next")."""
    referee.create_game("nomes", "sidekick", G, gm="gm@ref.example")
    for p in ("alice", "bob", "carol", "dan"):
        send(referee, p, "[Join]", f"Name: {p.title()}\n")
    state = referee.state("nomes")
    order, mover = state["order"], state["turn"]["player"]
    after = order[(order.index(mover) + 1) % len(order)]
    send(referee, mover.lower(), "[Proposal] Tea", 'Enact rule 24 "Tea":\nTea is served.\n')
    send(referee, mover.lower(), "[Quit]")
    for p in order:
        if p != mover:
            send(referee, p.lower(), "[Vote] 1", "FOR")
    state = referee.state("nomes")
    assert state["proposals"][0]["status"] == "passed"
    assert state["turn"]["number"] == 2 and state["turn"]["player"] == after
    assert [m["To"] for m in outbox.all() if m["X-Mailref-Kind"] == "turn" and "[Turn 2]" in str(m["Subject"])] \
        == [addr(after)]


def test_a_result_the_admin_forces_says_so_not_that_votes_came_late(referee, outbox, clock):
    """`mailref proposal enact nomes 1 --reason ...` an hour after the move: the result read
    "has passed: FOR 1, AGAINST 0, ABSTAIN 2 (enact)" and "Counted ABSTAIN, not having voted in
    time (rule 11): Bob, Carol", though their five days had barely begun."""
    mover = nomes(referee)
    send(referee, mover.lower(), "[Proposal] Tea", 'Enact rule 24 "Tea":\nTea is served.\n')
    clock.advance(hours=1)
    referee.admin("nomes", {"type": "decide", "number": 1, "outcome": "enact", "reason": "agreed at the pub"},
                  "gm@ref.example")
    voter = next(p for p in ("alice", "bob", "carol") if p.title() != mover)
    text = Outbox.body(last(outbox, addr(voter), "results"))
    assert "(enacted by the admin)." in text and "(enact)." not in text
    assert "Counted ABSTAIN, not having voted when the admin decided it:" in text
    assert "in time (rule 11)" not in text
    assert "Decided by the admin: agreed at the pub." in text
    assert referee.state("nomes")["proposals"][0]["status"] == "passed"


def test_the_final_scores_of_a_won_game_read_as_a_table_of_results(referee, outbox, clock):
    """"Alice reaches 100 points and wins" was followed by the scores in joining order (Alice
    100, Bob 50, Carol 80): the winner first, then by score."""
    mover = nomes(referee)
    others = [p for p in ("Alice", "Bob", "Carol") if p != mover]
    for name, score in ((mover, 90), (others[0], 50), (others[1], 80)):
        referee.admin("nomes", {"type": "score", "player": name, "op": "=", "amount": score}, "gm@ref.example")
    send(referee, mover.lower(), "[Proposal] Win", 'Enact rule 24 "Win":\nI win.\n')
    for p in others:
        send(referee, p.lower(), "[Vote] 1", "FOR")
    text = Outbox.body(last(outbox, addr(others[0]), "results", "is won"))
    assert f"Final scores:\r\n{mover}: 100\r\n{others[1]}: 80\r\n{others[0]}: 50" in text


def test_a_paused_games_page_says_its_deadline_is_stopped(referee, outbox, clock, tmp_path):
    """The GM paused Eire for a holiday; its page went on saying "Deadline Tue 1 Dec 10:00" long
    after that hour had passed, as if the turn were overdue."""
    from mailref.config import SiteConfig
    from mailref.site import rebuild

    eire(referee, Finn="Color: Green\nTribe: Plainsmen\nOrigin: Llanc",
         Maeve="Color: Red\nTribe: Plainsmen\nOrigin: Donal")
    referee.admin("eire", {"type": "pause", "reason": "holiday"}, "gm@ref.example")
    clock.advance(days=3)
    site = tmp_path / "site"
    rebuild(referee.store, SiteConfig(str(site)), now=clock())
    page = (site / "eire" / "index.html").read_text()
    assert "stopped: the game is paused, and every deadline moves on by the pause when it resumes." in page
    # The Grain column comes before color, tribe and origin: on a phone it is the one in view.
    assert page.index('<th scope="col">Grain</th>') < page.index('<th scope="col">Color</th>')


def test_a_newcomer_during_a_turn_gets_the_turn_mail(referee, outbox, clock):
    """Oisin joined Eire while turn 1 was open: his answer said "Oisin of the Merfolk, Gold,
    rises in Reudh" and nothing of the turn the others were ordering in, though it waited for
    his orders. He now gets the turn's mail (folded into his answer: one mail). So does a
    player the admin adds, beside the welcome."""
    eire(referee, Finn="Color: Green\nTribe: Plainsmen\nOrigin: Llanc",
         Maeve="Color: Red\nTribe: Plainsmen\nOrigin: Donal")
    outbox.new()
    send(referee, "oisin", "[Join]", "Name: Oisin\nColor: Gold\nTribe: Merfolk\nOrigin: Reudh\n", to=EIRE)
    mine = [m for m in outbox.new() if m["To"] == addr("oisin")]
    assert [m["X-Mailref-Kind"] for m in mine] == ["ack"]
    text = Outbox.body(mine[0])
    assert 'Also for you alone ("[Eire] [Turn 1] Orders are due Thu 3 Dec 2026 10:00 UTC")' in text
    assert "Send your orders in a mail with the subject [Orders] before Thu 3 Dec 2026 10:00 UTC" in text
    referee.admin("eire", {"type": "player_add", "name": "Niamh", "address": addr("niamh"), "more": [],
                           "choices": {"color": "Teal", "tribe": "Plainsmen", "origin": "Bain"}}, "gm@ref.example")
    mine = [m for m in outbox.new() if m["To"] == addr("niamh")]
    assert sorted(m["X-Mailref-Kind"] for m in mine) == ["announcement", "turn"]
    welcome = next(m for m in mine if m["X-Mailref-Kind"] == "announcement")
    assert "Niamh of the Plainsmen, Teal, rises in Bain." in Outbox.body(welcome)


def test_who_lets_a_deadline_pass_hears_it_as_late(referee, outbox, clock):
    """The mover who did not move in time read only the news all others read ("Turn 1 skipped:
    Alice's turn is skipped"); a player whose orders never came, "Orders are in". SPEC §2.6 has
    a kind for it, `late`, that nothing sent: now the one who missed the deadline gets one mail of
    that kind, saying what it means for them, and not the news as well."""
    mover = nomes(referee)
    outbox.new()
    clock.advance(days=5, seconds=1)
    referee.tick()
    new = outbox.new()
    mine = [m for m in new if m["To"] == addr(mover)]
    assert [m["X-Mailref-Kind"] for m in mine] == ["late"]
    assert str(mine[0]["Subject"]).endswith("[Turn 1] Your turn was skipped")
    assert f"{mover}, your turn (turn 1) is skipped: no move within the turn timeout (rule 8)." in Outbox.body(mine[0])
    others = sorted(m["To"] for m in new if "Turn 1 skipped" in str(m["Subject"]))
    assert others == sorted(addr(p) for p in ("alice", "bob", "carol") if p.title() != mover)

    referee.create_game("dip", "orders", "dip@ref.example", gm="gm@ref.example")
    for p in ("ann", "ben", "cat"):
        send(referee, p, "[Join]", f"Name: {p.title()}\n", to="dip@ref.example")
    referee.admin("dip", {"type": "start"}, "gm@ref.example")
    send(referee, "ann", "[Orders]", "**A Par H**", to="dip@ref.example")
    outbox.new()
    clock.advance(days=2, seconds=1)
    referee.tick()
    new = outbox.new()
    kinds = {m["To"]: m["X-Mailref-Kind"] for m in new if m["To"] != "gm@ref.example"}
    assert kinds == {addr("ann"): "announcement", addr("ben"): "late", addr("cat"): "late"}
    late = next(m for m in new if m["To"] == addr("cat"))
    assert "No orders of yours arrived for turn 1 before its deadline." in Outbox.body(late)


def test_the_digest_tells_a_join_before_what_it_set_off(referee, outbox, clock):
    """The GM's first digest read "Alice joined. / Turn order drawn: Alice, Bob / Turn 1: Alice
    to move / Bob joined.": the turn order of two players drawn before the second had joined."""
    nomes(referee)
    clock.advance(days=1)
    referee.tick()
    text = Outbox.body(last(outbox, "gm@ref.example", "digest"))
    assert text.index("Bob joined.") < text.index("Turn order drawn:") < text.index("Carol joined.")


def test_a_result_of_one_line_ends_without_a_double_blank(referee, outbox, clock):
    """The Emperor's "ACCEPT" read "The Emperor has accepted proposal 1 "Taxes": Good idea."
    then two blank lines before the signature (a heading with no lines under it)."""
    referee.create_game("emp", "imperial", EMP, gm="gm@ref.example", parameters={"vote_period": "1h"})
    for p in ("joel", "alice", "bob", "carol"):
        send(referee, p, "[Join]", f"Name: {p.title()}\n", to=EMP)
    send(referee, "alice", "[Proposal] Taxes", "Taxes for all.", to=EMP)
    send(referee, "bob", "[Proposal] Roads", "Roads for all.", to=EMP)
    send(referee, "bob", "[Vote] 1", "YES", to=EMP)
    clock.advance(hours=1, seconds=1)
    referee.tick()
    send(referee, "joel", "[Judge] 1", "VETO\n\nNot now.", to=EMP)
    text = Outbox.body(last(outbox, addr("carol"), "results", "VETOED"))
    assert 'The Emperor has vetoed proposal 1 "Taxes": Not now.\r\n\r\n-- \r\n' in text


def test_the_orders_of_one_who_quits_are_not_carried_out(referee, outbox, clock):
    """Oisin ordered an attack on Donal, then quit Eire. When the others had ordered, his attack
    was fought all the same: Donal fell to Oisin, a player no longer in the game, and Maeve was
    eliminated by him. His orders now leave with him."""
    eire(referee, Finn="Color: Green\nTribe: Plainsmen\nOrigin: Llanc",
         Maeve="Color: Red\nTribe: Plainsmen\nOrigin: Donal",
         Oisin="Color: Gold\nTribe: Merfolk\nOrigin: Reudh")
    send(referee, "oisin", "[Orders]", "**Attack Donal with 12 Grain.**", to=EIRE)
    send(referee, "oisin", "[Quit]", "", to=EIRE)
    assert "Your orders for turn 1 are withdrawn: they are not carried out." in \
        Outbox.body(last(outbox, addr("oisin"), "ack", "Quit"))
    send(referee, "finn", "[Orders]", "**Defend Llanc with 5 Grain.**", to=EIRE)
    send(referee, "maeve", "[Orders]", "**Defend Donal with 2 Grain.**", to=EIRE)
    state = referee.state("eire")
    assert state["turn"]["number"] == 2
    assert {x["name"]: x["owner"] for x in state["lands"] if x["owner"]} == {"Llanc": "Finn", "Donal": "Maeve"}
    assert "Oisin" not in Outbox.body(last(outbox, addr("finn"), "results"))
    assert_replays(referee)


def test_a_sidekick_vote_of_one_who_quit_is_not_counted(referee, outbox, clock):
    """Carol voted AGAINST and quit the game before the vote closed; her AGAINST still made a
    tie and failed the move. A vote is a player's (as BlogNomic's "A non-Wizard never has a
    Vote", and Imperial counts the Senators there are): hers is set aside, and the result says so."""
    referee.create_game("nomes", "sidekick", G, gm="gm@ref.example")
    for p in ("alice", "bob", "carol", "dan"):
        send(referee, p, "[Join]", f"Name: {p.title()}\n")
    state = referee.state("nomes")
    mover = state["turn"]["player"]
    quitter, against, voter = [p for p in state["order"] if p != mover]
    send(referee, mover.lower(), "[Proposal] Tea", 'Enact rule 24 "Tea":\nTea is served.\n')
    send(referee, quitter.lower(), "[Vote] 1", "AGAINST")
    send(referee, against.lower(), "[Vote] 1", "AGAINST")
    send(referee, quitter.lower(), "[Quit]")
    send(referee, voter.lower(), "[Vote] 1", "FOR")
    prop = referee.state("nomes")["proposals"][0]
    assert prop["status"] == "passed" and prop["tally"] == {"FOR": 2, "AGAINST": 1}
    text = Outbox.body(last(outbox, addr(against.lower()), "results"))
    assert f"Not counted, having left the game: {quitter}." in text
    assert_replays(referee)


def test_a_historian_who_leaves_leaves_a_metadynasty_not_an_endless_hiatus(referee, outbox, clock):
    """Carol won the dynasty with her DoV, then quit before her Ascension Address. The game
    stayed in Hiatus for good (waiting for an address from a player no longer there), and its
    status went on naming her Historian. Rule "Dynasties": "If there is no Historian, the
    Dynasty is a Metadynasty"."""
    blog(referee, ("alice", "bob", "carol", "dan", "eve", "fay"))
    send(referee, "carol", "[DoV] I win", "", to=BLOG)
    for p in ("alice", "bob", "dan", "eve"):
        send(referee, p, "Re: [BlogNomic] [DoV 1] I win", "FOR", to=BLOG)
    clock.advance(hours=12, seconds=1)
    referee.tick()
    state = referee.state("blog")
    assert (state["status"], state["historian"]) == ("hiatus", "Carol")
    outbox.new()
    send(referee, "carol", "[Quit]", "", to=BLOG)
    state = referee.state("blog")
    assert (state["status"], state["historian"], state["ascension_pending"]) == ("active", None, False)
    text = Outbox.body(last(outbox, addr("bob"), "announcement", "Metadynasty"))
    assert ("Carol, the Historian, has left the game: there is no Historian, and dynasty 2 is a Metadynasty "
            '(rule "Dynasties"). No Ascension Address will come from them: the Hiatus ends.') in text
    send(referee, "bob", "[Proposal] Onwards", new_rule("Onwards", "Play on."), to=BLOG)
    assert referee.state("blog")["proposals"][-1]["status"] == "pending"
    assert_replays(referee)


def test_a_judge_who_leaves_before_ruling_is_replaced(referee, outbox, clock):
    """Dan was named judge of Bob's question (rule 17: the player before the mover) and quit
    the game without ruling: the judgement stayed open for good. The next present player before
    the mover is the judge now, mailed as the first was, and the others are told."""
    referee.create_game("nomes", "sidekick", G, gm="gm@ref.example")
    for p in ("alice", "bob", "carol", "dan"):
        send(referee, p, "[Join]", f"Name: {p.title()}\n")
    state = referee.state("nomes")
    order, mover = state["order"], state["turn"]["player"]
    judge = order[order.index(mover) - 1]
    asker = next(p for p in order if p not in (mover, judge))
    send(referee, asker.lower(), "[CfJ] Is this legal?", "Please.")
    assert referee.state("nomes")["judgements"][0]["judge"] == judge
    outbox.new()
    send(referee, judge.lower(), "[Quit]")
    state = referee.state("nomes")
    new_judge = state["judgements"][0]["judge"]
    assert new_judge not in (judge, None) and new_judge == order[order.index(mover) - 2]
    new = outbox.new()
    assert [m["X-Mailref-Kind"] for m in new if m["To"] == addr(new_judge) and "Judgement" in str(m["Subject"])] \
        == ["judge"]
    told = [m for m in new if "New judge" in str(m["Subject"])]
    assert sorted(m["To"] for m in told) == sorted(addr(p.lower()) for p in order if p not in (judge, new_judge))
    send(referee, new_judge.lower(), "[Ruling] 1", "It is legal.")
    assert referee.state("nomes")["judgements"][0]["status"] == "decided"
    assert_replays(referee)


def test_the_resume_mail_says_when_each_deadline_now_falls(referee, outbox, clock):
    """"Play resumes. Every deadline moved 6d later." left each player to add six days to a date
    from a mail of a week before. The mail now gives the running deadlines as they stand."""
    mover = nomes(referee)
    send(referee, mover.lower(), "[Proposal] Tea", 'Enact rule 24 "Tea":\nTea is served.\n')
    clock.advance(days=2)
    referee.admin("nomes", {"type": "pause"}, "gm@ref.example")
    clock.advance(days=6)
    referee.admin("nomes", {"type": "resume"}, "gm@ref.example")
    text = Outbox.body(last(outbox, addr("bob"), "announcement", "The game resumes"))
    assert "Play resumes. Every deadline moved 6d later." in text
    assert 'Proposal 1 "Tea": votes due Sat 12 Dec 2026 10:00 UTC, in 3 days.' in text


def test_the_gm_learns_which_wizards_have_gone_quiet(referee, outbox, clock):
    """Three of six Wizards stopped playing without [Idle] or [Quit]: they still counted in the
    quorum (4), so every proposal waited 48 hours, and the digest's "Late" said "nobody" (rule
    "Idle Wizards": "An Admin may render a Wizard Idle if that Wizard ... has not posted an entry
    or comment in the last seven days"). The digest now names them with the command that idles
    them, and who has not voted on each pending matter; the referee idles nobody itself."""
    blog(referee, ("alice", "bob", "carol", "dan", "eve", "fay"))
    for day in range(8):
        send(referee, "alice", f"[Proposal] Day {day}", new_rule(f"D{day}", f"Day {day}."), to=BLOG)
        for p in ("bob", "carol"):
            send(referee, p, f"[Vote] {day + 1}", "FOR", to=BLOG)
        clock.advance(days=1)
        referee.tick()
    text = Outbox.body(last(outbox, "gm@ref.example", "digest"))
    late = text[text.index("Late (deadline passed):"):]
    for name in ("Dan", "Eve", "Fay"):
        assert (f"{name} has sent nothing since Tue 1 Dec 2026 10:00 UTC: an Admin may render them Idle "
                f'(rule "Idle Wizards"), which lowers the quorum: `mailref player away blog {name}`') in late
    assert "Alice has sent" not in text and "Bob has sent" not in text
    assert "Not yet voted on Proposal 8: Dan, Eve, Fay" in text
    assert [p["status"] for p in referee.state("blog")["players"]].count("active") == 6


def test_the_imperial_digest_says_who_the_game_waits_for(referee, outbox, clock):
    """The Imperial GM's digest always read "Waiting for: nobody / Late: nobody", with Senators
    yet to vote and a proposal the Emperor had left unjudged for days."""
    referee.create_game("emp", "imperial", EMP, gm="gm@ref.example", parameters={"vote_period": "2d"})
    for p in ("joel", "alice", "bob", "carol"):
        send(referee, p, "[Join]", f"Name: {p.title()}\n", to=EMP)
    for p in ("alice", "bob", "carol"):
        send(referee, p, f"[Proposal] Idea of {p}", f"{p} has an idea.", to=EMP)
    send(referee, "bob", "[Vote] 1", "YES", to=EMP)
    send(referee, "carol", "[Vote] 1", "YES", to=EMP)
    clock.advance(days=2, seconds=1)
    referee.tick()  # proposal 1 goes to the Emperor; 2 and 3 are rejected
    send(referee, "alice", "[Proposal] Another", "Another idea.", to=EMP)
    clock.advance(days=1)
    referee.tick()
    text = Outbox.body(last(outbox, "gm@ref.example", "digest"))
    assert "Not yet voted on proposal 4 (due Sat 5 Dec 2026 10:00 UTC): Bob, Carol" in text
    late = text[text.index("Late (deadline passed):"):]
    assert "The Emperor (Joel) has not judged proposal 1, awaiting judgement since Thu 3 Dec 2026 10:00 UTC" in late
