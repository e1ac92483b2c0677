"""What the play-through of session 6 found, played again as the players and the GM did:
mail in through the referee (as a mail client sends it), the replies read back."""

from __future__ import annotations

from helpers import Outbox, assert_replays, mail

G = "nomes@ref.example"
PLAYERS = ["alice", "bob", "carol"]


def addr(name: str) -> str:
    return f"{name.lower()}@players.example"


def send(referee, who: str, subject: str, body: str = "", to: str = G, **kw):
    return referee.accept(mail(addr(who), to, subject, body, **kw), "smtp", addr(who), [to])


def nomes(referee, **parameters) -> str:
    referee.create_game("nomes", "sidekick", G, gm="gm@ref.example", parameters=parameters or None)
    for p in PLAYERS:
        send(referee, p, "[Join]", f"Name: {p.title()}\n")
    return referee.state("nomes")["turn"]["player"]


def kinds(outbox: Outbox, msgs, kind: str) -> list[str]:
    return [m["To"] for m in msgs if m["X-Mailref-Kind"] == kind]


def test_a_one_day_turn_is_not_reminded_with_the_mail_that_opens_it(referee, outbox, clock):
    """A GM runs 1-day turns and votes (the reminder's default is 1 day ahead): the reminder
    used to arrive together with "Your move" and with the proposal it repeats. It now comes
    halfway through, to those who have not acted."""
    mover = nomes(referee, turn_timeout="1d", vote_timeout="1d")
    opened = outbox.all()
    assert kinds(outbox, opened, "turn") == [addr(mover)]
    assert kinds(outbox, opened, "reminder") == []
    clock.advance(hours=11)
    referee.tick()
    assert kinds(outbox, outbox.new(), "reminder") == []
    clock.advance(hours=1, seconds=1)
    referee.tick()
    assert kinds(outbox, outbox.new(), "reminder") == [addr(mover)]

    send(referee, mover, "[Proposal] Quick", 'Enact rule 24 "Quick":\nBe quick.\n')
    voters = [p.title() for p in PLAYERS if p.title() != mover]
    send(referee, voters[0], "[Vote] 1", "FOR")
    assert kinds(outbox, outbox.new(), "reminder") == []
    clock.advance(hours=12, seconds=1)
    referee.tick()
    assert kinds(outbox, outbox.new(), "reminder") == [addr(voters[1])]
    assert_replays(referee)


def test_a_passed_amendment_of_rule_22_changes_what_a_failed_proposal_scores(referee, outbox):
    """Proposal 1 replaces "-5 points" with "-3 points" in rule 22 and passes; proposal 2 fails.
    The referee used to score it -5 "(rules 21–22)", citing the rule it had just contradicted,
    and only alerted the GM. Now it runs rule 22 as it reads, says so, and the GM is told."""
    first = nomes(referee)
    send(referee, first, "[Proposal] Gentler failure", 'In rule 22, replace "-5 points" with "-3 points".\n\nCheers,\n' + first)
    for p in PLAYERS:
        if p.title() != first:
            send(referee, p, "[Vote] 1", "FOR")
    state = referee.state("nomes")
    assert state["parameters"]["fail_points"] == -3
    ruleset = [m for m in outbox.all() if m["X-Mailref-Kind"] == "ruleset" and m["To"] == addr(first)][-1]
    assert "a failed proposal scores -3 (fail_points: -5 -> -3)" in Outbox.body(ruleset)
    alerts = [Outbox.body(m) for m in outbox.all() if m["X-Mailref-Kind"] == "alert"]
    assert any("fail_points: -5 -> -3" in a and "mailref game set nomes fail_points=" in a for a in alerts), alerts

    second = state["turn"]["player"]
    send(referee, second, "[Proposal] Bad idea", 'Enact rule 30 "Bad":\nNobody may vote.\n')
    for p in PLAYERS:
        if p.title() != second:
            send(referee, p, "[Vote] 2", "AGAINST")
    results = [m for m in outbox.all() if m["X-Mailref-Kind"] == "results" and m["To"] == addr(first)][-1]
    assert f"{second} scores -3 (rules 21–22) and now has -3." in Outbox.body(results)
    assert next(p for p in referee.state("nomes")["players"] if p["name"] == second)["score"] == -3
    assert_replays(referee)


def test_a_sign_off_in_another_language_is_not_rule_text(referee, outbox):
    """Zoë closes her proposal "Sláinte,\\nZoë" (an Irish "Cheers"): it used to be enacted as the
    last paragraph of her rule. The ack now says it was set aside; the rule reads as she meant."""
    referee.create_game("nomes", "sidekick", G, gm="gm@ref.example")
    box = {"Zoë": addr("zoe"), "Bob": addr("bob")}
    for name, address in box.items():
        referee.accept(mail(address, G, "[Join]", f"Name: {name}", name=f"{name} Ó Briain"), "smtp")
    mover = referee.state("nomes")["turn"]["player"]
    body = ("Enact rule 25 “Céilí Bonus”:\nWhen a proposal passes unanimously, its author receives 5 more points.\n\n"
            f"Sláinte,\n{mover}\n")
    referee.accept(mail(box[mover], G, "[Proposal] Céilí bonus", body, name=f"{mover} Ó Briain"), "smtp")
    prop = referee.state("nomes")["proposals"][0]
    assert prop["changes"][0]["text"] == "When a proposal passes unanimously, its author receives 5 more points."
    ack = [m for m in outbox.all() if m["To"] == box[mover] and m["X-Mailref-Kind"] == "ack"][-1]
    assert f'Set aside as your closing words, not rule text: "Sláinte, / {mover}"' in Outbox.body(ack)


def test_the_gms_plain_reply_to_the_orders_of_all_players_is_the_results(referee, outbox, clock):
    """The orders digest says "Send the results as a mail with the subject [Results]"; the GM
    hits Reply instead. That used to be refused with "gm@… is not a player … ask the GM (gm@…)";
    it is the turn's results, mailed to every player, and the next turn opens."""
    dip = "dip@ref.example"
    referee.create_game("dip", "orders", dip, gm="gm@ref.example", parameters={"turn_length": "1d"})
    for n in ("ann", "ben"):
        send(referee, n, "[Join]", f"Name: {n.title()}", to=dip)
    referee.admin("dip", {"type": "start"}, "gm")
    send(referee, "ann", "[Orders]", "**A Paris - Burgundy**", to=dip)
    send(referee, "ben", "[Orders]", "**A Munich - Ruhr**", to=dip)
    digest = next(m for m in outbox.all() if m["X-Mailref-Kind"] == "digest" and "Orders of all players" in m["Subject"])
    quoted = "\n".join("> " + ln for ln in Outbox.body(digest).splitlines())
    referee.accept(mail("gm@ref.example", dip, "Re: " + str(digest["Subject"]),
                        f"Spring 1901: both moves succeed.\n\nOn Mon, the referee wrote:\n{quoted}\n",
                        in_reply_to=digest["Message-ID"]), "smtp")
    answer = [m for m in outbox.all() if m["To"] == "gm@ref.example" and m["X-Mailref-Kind"] in ("ack", "error")][-1]
    assert answer["X-Mailref-Kind"] == "ack", Outbox.body(answer)
    assert "Results of turn 1 sent to every player" in Outbox.body(answer)
    results = [m for m in outbox.all() if m["X-Mailref-Kind"] == "results"]
    assert sorted(m["To"] for m in results) == [addr("ann"), addr("ben")]
    assert "Orders of all players" not in str(results[0]["Subject"])
    assert "both moves succeed" in Outbox.body(results[0]) and "Paris - Burgundy" not in Outbox.body(results[0])
    assert referee.state("dip")["turn"]["number"] == 2
    # Anyone else replying to it is still refused.
    referee.accept(mail("mallory@evil.example", dip, "Re: " + str(digest["Subject"]), "Ann loses.",
                        in_reply_to=digest["Message-ID"]), "smtp")
    refused = [m for m in outbox.all() if m["To"] == "mallory@evil.example"][-1]
    assert "is not a player of" in Outbox.body(refused)
    assert_replays(referee)


def test_what_the_orders_games_say_reads_right(referee, outbox, clock):
    """A Diplomacy-style `orders` game: a mail without bold gets a hint in its own terms (it used
    to show Eire's "Defend Donal with 5 Grain"); the turn mail has no stray blank line; the
    reminder says "your orders … are due"."""
    dip = "dip@ref.example"
    referee.create_game("dip", "orders", dip, gm="gm@ref.example", parameters={"turn_length": "1d"})
    for n in ("ann", "ben"):
        send(referee, n, "[Join]", f"Name: {n.title()}", to=dip)
    referee.admin("dip", {"type": "start"}, "gm")
    turn = [m for m in outbox.all() if m["X-Mailref-Kind"] == "turn"][0]
    assert " is open.\n\nSend your orders in a mail" in Outbox.body(turn).replace("\r\n", "\n"), Outbox.body(turn)
    send(referee, "ann", "[Orders]", "A Paris - Burgundy (forgot the bold)", to=dip)
    hint = Outbox.body([m for m in outbox.all() if m["To"] == addr("ann")][-1])
    assert "Donal" not in hint and "**Your order, in bold.**" in hint
    clock.advance(hours=13)
    referee.tick()
    reminder = [m for m in outbox.all() if m["X-Mailref-Kind"] == "reminder"][0]
    assert "your orders for turn 1 are due by" in Outbox.body(reminder)


def test_a_withdrawn_blognomic_proposal_reads_as_failed(referee, outbox, clock):
    """BlogNomic: "Proposal 2 … has FAILED (withdrawn)" (it said "is FAILED"), the proposal mail
    has no empty line where a deadline would be, and the ruleset mail no empty "Scores:"."""
    blog = "blog@ref.example"
    referee.create_game("blog", "blognomic", blog, gm="gm@ref.example", parameters={"min_open": "1s"})
    names = ["ann", "ben", "cat", "dan", "eve"]
    for n in names:
        send(referee, n, "[Join]", f"Name: {n.title()}", to=blog)
    send(referee, "ann", "[Proposal] Tax", 'Enact a new rule entitled "Tax" with the following text:\nPay up.\n', to=blog)
    announced = Outbox.body([m for m in outbox.all() if m["To"] == addr("ben") and "[Proposal 1]" in str(m["Subject"])][0])
    assert "Pay up.\n\nTo vote, reply" in announced or "\n\n\n" not in announced, announced
    send(referee, "ann", "[Withdraw] 1", "changed my mind", to=blog)
    failed = [m for m in outbox.all() if m["X-Mailref-Kind"] == "results"][0]
    assert 'Proposal 1 "Tax" by Ann has FAILED (withdrawn).' in Outbox.body(failed)
    send(referee, "ben", "[Proposal] Tax again", 'Enact a new rule entitled "Tax" with the following text:\nPay up.\n', to=blog)
    clock.advance(seconds=2)
    for n in ("cat", "dan"):
        send(referee, n, "[Vote] 2", "FOR", to=blog)
    ruleset = [m for m in outbox.all() if m["X-Mailref-Kind"] == "ruleset"]
    assert ruleset and "Scores:\n\n" not in Outbox.body(ruleset[0])
    assert_replays(referee)


def test_eire_results_say_whose_orders_were_all_refused_and_a_correction_shows_the_whole_set(referee, outbox, clock):
    """Alice's only orders were refused and she never corrected them: the results used to say
    "none: nobody sent orders". Bob corrects a refused order: his ack now shows the set that stands."""
    eire = "eire@ref.example"
    referee.create_game("eire", "eire", eire, gm="gm@ref.example", parameters={"turn_length": "1d", "start_grain": "20"})
    for name, origin in (("alice", "Donal"), ("bob", "Llanc")):
        send(referee, name, "[Join]", f"Name: {name.title()}\nColor: {'Red' if name == 'alice' else 'Gold'}\n"
             f"Tribe: Plainsmen\nOrigin: {origin}", to=eire)
    referee.admin("eire", {"type": "start"}, "gm")
    send(referee, "alice", "[Orders]", "**Attack Tara with 5 Grain**", to=eire)
    send(referee, "bob", "[Orders]", "**Invest 5 Grain in Llanc**\n**Atack Bain with 5 Grain**", to=eire)
    send(referee, "bob", "[Orders]", "**Defend Llanc with 5 Grain**", to=eire)
    ack = Outbox.body([m for m in outbox.all() if m["To"] == addr("bob")][-1]).replace("\r\n", "\n")
    assert "Your orders for turn 1 now: Invest 5 Grain in Llanc; Defend Llanc with 5 Grain." in ack, ack
    clock.advance(days=1, seconds=1)
    referee.tick()
    results = Outbox.body([m for m in outbox.all() if m["X-Mailref-Kind"] == "results"][0]).replace("\r\n", "\n")
    assert "  Alice: no valid orders (1 refused)\n" in results, results
    assert "Tara" not in results.split("Combats:")[0]  # what was refused stays private
    assert_replays(referee)


def test_a_changed_vote_says_when_the_first_was_cast_as_people_read_times(referee, outbox, clock):
    """Dan votes FOR, then AGAINST: the ack said "(replaces FOR of 2026-11-30 22:18 UTC)", an ISO
    time in people text (SPEC §2.6); now the game's zone, as every other time in its mail."""
    referee.create_game("nomes", "sidekick", G, gm="gm@ref.example", timezone="Europe/Dublin")
    for p in PLAYERS:
        send(referee, p, "[Join]", f"Name: {p.title()}\n")
    mover = referee.state("nomes")["turn"]["player"]
    send(referee, mover.lower(), "[Proposal] Q", 'Enact rule 24 "Q":\nQuiet.\n')
    voter = next(p for p in PLAYERS if p.title() != mover)
    send(referee, voter, "[Vote] 1", "FOR")
    clock.advance(minutes=5)
    send(referee, voter, "[Vote] 1", "AGAINST")
    ack = Outbox.body([m for m in outbox.all() if m["To"] == addr(voter)][-1])
    assert "Vote recorded: proposal 1 — AGAINST (replaces FOR of Tue 1 Dec 2026 10:00 GMT)" in ack, ack


def test_the_emperors_plain_reply_to_the_judge_mail_is_the_judgement(referee, outbox, clock):
    """Carol, the Emperor, hits Reply on "[Proposal 4] awaiting your judgement" and writes a bold
    ACCEPT (Outlook, HTML only): it used to be read as her ballot on proposal 4 ("No vote found …
    the votes here: YES, NO"). The judge mail is now tagged [Judge 4]: her reply judges it.
    A title that starts with a verdict word is not read from the reply's subject."""
    emp = "empire@ref.example"
    referee.create_game("empire", "imperial", emp)
    for n in ("carol", "ann", "ben"):
        send(referee, n, "[Join]", f"Name: {n.title()}", to=emp)
    send(referee, "ben", "[Point of Order] Hello", "Present.", to=emp)
    send(referee, "ann", "[Proposal] Ignore the dragons", 'Enact rule 27 "Dragons":\nDragons are ignored.\n', to=emp)
    send(referee, "ben", "[Vote] 1", "YES", to=emp)
    clock.advance(days=4, seconds=1)
    referee.tick()
    judge = next(m for m in outbox.all() if m["X-Mailref-Kind"] == "judge")
    assert judge["To"] == addr("carol") and "[Judge 1] awaiting your judgement: Ignore the dragons" in str(judge["Subject"])
    html = ('<html><body><div><b>VETO</b></div><div>Dragons stay.</div><hr><div id="divRplyFwdMsg"><b>From:</b> '
            'Imperial<br><b>Subject:</b> awaiting your judgement</div><div>Dragons are ignored.</div></body></html>')
    referee.accept(mail(addr("carol"), emp, "RE: " + str(judge["Subject"]), html=html, in_reply_to=judge["Message-ID"]),
                   "smtp", addr("carol"), [emp])
    answer = [m for m in outbox.all() if m["To"] == addr("carol") and m["X-Mailref-Kind"] in ("ack", "error")][-1]
    assert answer["X-Mailref-Kind"] == "ack", Outbox.body(answer)
    vetoed = next(p for p in referee.state("empire")["proposals"] if p["number"] == 1)
    assert vetoed["status"] == "vetoed"
    told = Outbox.body([m for m in outbox.all() if m["To"] == addr("ann") and m["X-Mailref-Kind"] == "results"][-1])
    assert "Dragons stay." in told and "*" not in told, told  # the bold's marks are not the reason
    assert_replays(referee)


def test_a_gmail_closing_straight_under_the_rule_is_not_rule_text(referee, outbox):
    """Gmail writes each line as a <div>: "…propose twice" then "Cheers" with no blank line
    between. "Cheers" was enacted as the rule's last line; a list item "- Bob" still is text."""
    mover = nomes(referee)
    html = ('<div dir="ltr"><div>Enact rule 28 "Lists":</div><div>A player may:</div><div>- vote twice</div>'
            '<div>- propose twice</div><div>Cheers</div></div>')
    send(referee, mover.lower(), "[Proposal] Lists", html=html)
    prop = referee.state("nomes")["proposals"][0]
    assert prop["changes"][0]["text"] == "A player may:\n- vote twice\n- propose twice"
    ack = Outbox.body([m for m in outbox.all() if m["To"] == addr(mover.lower())][-1])
    assert 'Set aside as your closing words, not rule text: "Cheers"' in ack


def test_late_orders_in_an_orders_game_are_told_the_turn_closed(referee, outbox, clock):
    """The deadline of turn 1 passed and the GM is adjudicating; Ann's orders arrive then. The
    answer was "no turn is open for orders": now it says the turn closed when, and what to do."""
    dip = "dip@ref.example"
    referee.create_game("dip", "orders", dip, gm="gm@ref.example", parameters={"turn_length": "1d"})
    for n in ("ann", "ben"):
        send(referee, n, "[Join]", f"Name: {n.title()}", to=dip)
    referee.admin("dip", {"type": "start"}, "gm")
    clock.advance(days=1, seconds=1)
    referee.tick()
    digest = next(m for m in outbox.all() if m["X-Mailref-Kind"] == "digest")
    assert "(a plain Reply to this mail will do)" in Outbox.body(digest)
    send(referee, "ann", "[Orders]", "**A Paris - Burgundy**", to=dip)
    said = " ".join(Outbox.body([m for m in outbox.all() if m["To"] == addr("ann")][-1]).split())
    assert "turn 1 closed Wed 2 Dec 2026 10:00 UTC, and the GM is adjudicating it" in said, said
    assert "Send them again when turn 2 opens (the GM's results open it)." in said, said
    send(referee, "ann", "[Status]", to=dip)
    status = Outbox.body([m for m in outbox.all() if m["To"] == addr("ann")][-1])
    assert "Turn 1: closed Wed 2 Dec 2026 10:00 UTC; the GM is adjudicating it" in status
    assert "nobody yet" not in status


def test_two_rules_run_by_parameters_changed_at_once_make_one_alert_in_rule_order(referee, outbox):
    """Rules 8 and 21 amended by one proposal: the GM got two alerts, and the ruleset mail said
    rule 21 before rule 8. One alert, rule 8 first; "within two days" is read as 2d."""
    first = nomes(referee, turn_timeout="1d")
    send(referee, first.lower(), "[Proposal] Brisk",
         "Amend rule 8 to read:\nIf a player does not move within two days, the turn is skipped.\n\n"
         'In rule 21, replace "10 points" with "twelve points".\n')
    for p in PLAYERS:
        if p.title() != first:
            send(referee, p, "[Vote] 1", "FOR")
    assert referee.state("nomes")["parameters"]["turn_timeout"] == "2d"
    assert referee.state("nomes")["parameters"]["pass_points"] == 12
    alerts = [Outbox.body(m) for m in outbox.all() if m["X-Mailref-Kind"] == "alert"]
    assert len(alerts) == 1 and "turn_timeout=... pass_points=..." in alerts[0], alerts
    ruleset = Outbox.body([m for m in outbox.all() if m["X-Mailref-Kind"] == "ruleset"][0])
    assert ruleset.index("runs rule 8 as") < ruleset.index("runs rule 21 as")


def test_an_eire_status_reads_as_eire(referee, outbox, clock):
    """`[Status]` in Eire showed Nomic lines: "Players: Alice (active, 0)" (a score Eire has not)
    and "Turn 5: -, deadline …" (no mover in a simultaneous game)."""
    eire = "eire@ref.example"
    referee.create_game("eire", "eire", eire, gm="gm@ref.example", parameters={"turn_length": "1d"})
    for name, origin, color in (("alice", "Donal", "Red"), ("bob", "Llanc", "Gold")):
        send(referee, name, "[Join]", f"Name: {name.title()}\nColor: {color}\nTribe: Plainsmen\nOrigin: {origin}", to=eire)
    referee.admin("eire", {"type": "start"}, "gm")
    send(referee, "alice", "[Status]", to=eire)
    status = Outbox.body([m for m in outbox.all() if m["To"] == addr("alice")][-1]).replace("\r\n", "\n")
    assert "Players: Alice, Bob\n" in status and "(active" not in status, status
    assert "Turn 1: orders are due Wed 2 Dec 2026 10:00 UTC\n" in status and "Turn 1: -" not in status
    assert "Orders received this turn from: nobody yet" in status and "Alice (Red, Plainsmen, origin Donal)" in status


def test_the_ascension_address_is_read_by_the_players(referee, outbox, clock):
    """Bob's DoV passes; his Ascension Address "Welcome to the dragon dynasty! …" changed the
    rules, but the players were sent only the rule changes: the words of the address were lost.
    The ruleset mail of the new dynasty now carries them (without the `Wizard: Dragon` lines)."""
    blog = "blog@ref.example"
    referee.create_game("blog", "blognomic", blog, gm="gm@ref.example")
    names = ["ann", "ben", "cat", "dan", "eve"]
    for n in names:
        send(referee, n, "[Join]", f"Name: {n.title()}", to=blog)
    send(referee, "ben", "[DoV] I win", "All mine.", to=blog)
    for n in ("ann", "cat", "dan"):
        send(referee, n, "[Vote] 1", "FOR", to=blog)
    clock.advance(hours=12, seconds=1)
    referee.tick()
    assert referee.state("blog")["historian"] == "Ben"
    send(referee, "ben", "[Ascension] The Age of Dragons",
         "Welcome to the dragon dynasty!\nHoard well.\n\nWizard: Dragon\nKeep: 2.1\n", to=blog)
    mail_ = [m for m in outbox.all() if m["X-Mailref-Kind"] == "ruleset" and m["To"] == addr("ann")][-1]
    body = Outbox.body(mail_).replace("\r\n", "\n")
    assert "The Ascension Address of Ben:\n\nWelcome to the dragon dynasty!\nHoard well." in body, body[:600]
    assert "Wizard: Dragon" not in body.split("Changes:")[0]
    assert_replays(referee)


def test_a_roll_says_what_it_is_for_and_the_digest_keeps_times_absolute(referee, outbox, clock):
    """`[Roll] DICE6` with "rolling for my card" as the body: the announcement did not say what for.
    A deadline moved by the CLI was kept in the digest as "…, in 1 minute", true only that minute."""
    from datetime import timedelta

    mover = nomes(referee)
    send(referee, "bob", "[Roll] DICE6", "rolling for my card\n\nBob\n")
    ann = [m for m in outbox.all() if m["X-Mailref-Kind"] == "announcement" and "rolled" in str(m["Subject"])][0]
    assert "For: rolling for my card" in Outbox.body(ann)
    when = (clock() + timedelta(minutes=1)).isoformat().replace("+00:00", "Z")
    assert referee.admin("nomes", {"type": "deadline", "when": when}, "gm").ok
    clock.advance(hours=2)
    events = " ".join(e["text"] for e in referee.state("nomes")["events"])
    assert "moved from" in events and "in 1 minute" not in events, events
    assert mover  # the game is under way


def test_a_reply_to_another_games_cfj_sent_here_is_told_where_it_belongs(referee, outbox):
    """Bob replies FOR to Blog Nomic's "[CfJ 4]" but the mail goes to the Nomes address. Nomes
    takes [CfJ] too, so it answered "only its judge answers judgement 4" about a judgement it
    does not have. Now: this is Nomes, the mail answers Blog Nomic, send it there."""
    blog = "blog@ref.example"
    referee.create_game("blog", "blognomic", blog, name="Blog Nomic")
    for n in ("ann", "bob", "cat", "dan", "eve"):
        send(referee, n, "[Join]", f"Name: {n.title()}", to=blog)
    nomes(referee)
    send(referee, "ann", "[CfJ] Was it legal?", "I think so.", to=blog)
    cfj = [m for m in outbox.all() if m["To"] == addr("bob") and "[CfJ 1]" in str(m["Subject"])][-1]
    send(referee, "bob", "Re: " + str(cfj["Subject"]), "FOR", in_reply_to=cfj["Message-ID"])
    err = [m for m in outbox.all() if m["To"] == addr("bob")][-1]
    body = " ".join(Outbox.body(err).split())
    assert err["X-Mailref-Kind"] == "error" and "but your mail answers a mail of Blog Nomic" in body, body
    assert blog in body and "judge" not in body
    # A reply to the game's own mail (it carries its label) is not looked up: still a vote.
    mover = referee.state("nomes")["turn"]["player"]
    send(referee, mover.lower(), "[Proposal] Q", 'Enact rule 24 "Q":\nQuiet.\n')
    voter = next(p for p in PLAYERS if p.title() != mover)
    prop = [m for m in outbox.all() if m["To"] == addr(voter) and "[Proposal 1]" in str(m["Subject"])][-1]
    send(referee, voter, "Re: " + str(prop["Subject"]), "FOR", in_reply_to=prop["Message-ID"])
    assert referee.state("nomes")["proposals"][0]["votes"].get(voter.title()) == "FOR"


def test_declare_high_king_says_what_is_lacking_when_it_is_sent(referee, outbox, clock):
    """Alice orders **Declare High King** holding one land and 20 Grain: the ack said "OK" and she
    learnt from the results that it failed. The ack now says it is decided at resolution and what
    she lacks as things stand."""
    eire = "eire@ref.example"
    referee.create_game("eire", "eire", eire, gm="gm@ref.example", parameters={"turn_length": "1d", "start_grain": "20"})
    for name, origin, color in (("alice", "Donal", "Red"), ("bob", "Llanc", "Gold")):
        send(referee, name, "[Join]", f"Name: {name.title()}\nColor: {color}\nTribe: Plainsmen\nOrigin: {origin}", to=eire)
    referee.admin("eire", {"type": "start"}, "gm")
    send(referee, "alice", "[Orders]", "**Declare High King**", to=eire)
    ack = " ".join(Outbox.body([m for m in outbox.all() if m["To"] == addr("alice")][-1]).split())
    assert "OK Declare High King — decided at resolution; as things stand you lack" in ack, ack
    assert "50 Grain (you have" in ack and "the Origin Lands of two other players" in ack
    assert "your Origin Land Donal" not in ack  # she holds it
    assert_replays(referee)


def test_a_player_who_left_is_told_so_not_to_join_as_a_stranger(referee, outbox):
    """Carol sent [Quit], then [Status]: she was told "carol@… is not a player … send [Join] …
    if you play from another address …", as to a stranger."""
    nomes(referee)
    send(referee, "carol", "[Quit]", "Bye all.")
    send(referee, "carol", "[Status]")
    said = " ".join(Outbox.body([m for m in outbox.all() if m["To"] == addr("carol")][-1]).split())
    assert "you (Carol) have left" in said and "Send [Join] to play again" in said, said
    assert "another address" not in said
