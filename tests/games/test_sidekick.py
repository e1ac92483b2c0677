"""Nomic Sidekick Nomic played by mail (SPEC §5.1; seed 004). Rule numbers in docstrings."""

from __future__ import annotations

import json

import pytest

from mailref.store import InboxMessage, JournalEntry
from support.helpers import Outbox, assert_replays, mail, make_referee
from support.joining import confirm_waiting
from support.sidekick import (
    PLAYERS,
    PROPOSAL,
    G,
    addr,
    last_reply,
    mover,
    others,
    play_sidekick_to_a_winner,
    send,
)

pytestmark = pytest.mark.spec("5.1")


@pytest.fixture
def game(sidekick_game):
    """This module's game: the sidekick game of tests/conftest.py."""
    return sidekick_game


def test_join_draws_a_random_order_and_opens_the_first_turn(game, outbox):
    """Rule 6: the list of players is ordered randomly; the first player moves first."""
    state = game.state("nomes")
    assert sorted(state["order"]) == ["Alice", "Bob", "Carol"]
    turn_mails = [m for m in outbox.all() if m["X-Mailref-Kind"] == "turn"]
    assert turn_mails and turn_mails[0]["To"] == addr(state["turn"]["player"])
    with game.store() as s:
        draws = [e.draws for e in s.query(JournalEntry) if e.draws]
    assert draws, "random draws are journaled"


def test_a_full_turn_passes_applies_the_rule_and_scores(game, outbox):
    """Rules 11–13, 21: more FOR than AGAINST passes, the rule list changes, +10."""
    m = mover(game)
    send(game, m, "[Proposal] Daily dice", PROPOSAL)
    ack = last_reply(outbox, m)
    assert ack["X-Mailref-Kind"] == "ack" and 'Enact rule 24 "Bonus"' in Outbox.body(ack)
    a, b = others(game)
    send(game, a, "Re: [Proposal 1] Daily dice", "FOR")
    assert game.state("nomes")["proposals"][0]["status"] == "voting"
    send(game, b, "Re: [Proposal 1] Daily dice", "AGAINST")
    state = game.state("nomes")
    prop = state["proposals"][0]
    assert prop["status"] == "passed" and prop["votes"] == {m: "FOR", a: "FOR", b: "AGAINST"}
    assert any(r["number"] == "24" and r["title"] == "Bonus" for r in state["rules"])
    assert next(p for p in state["players"] if p["name"] == m)["score"] == 10
    ruleset = [x for x in outbox.all() if x["X-Mailref-Kind"] == "ruleset"]
    assert len(ruleset) == 3 and "+ Rule 24" in Outbox.body(ruleset[0])
    # the last voter gets one reply for the vote, naming the results and the ruleset it set off
    closing = [x for x in outbox.all() if x["To"] == addr(b) and x["X-Mailref-Kind"] == "ack"][-1]
    assert "[Results]" in Outbox.body(closing) or "PASSED" in Outbox.body(closing)
    assert any(x["To"] == addr(b) for x in ruleset)
    assert state["turn"]["number"] == 2 and state["turn"]["player"] != m
    # the next mover's example names a free rule number, not the one just enacted
    turn2 = [x for x in outbox.all() if x["X-Mailref-Kind"] == "turn"][-1]
    assert 'Enact rule 25 "Title":' in Outbox.body(turn2)


def test_a_tie_fails_the_proposal(game):
    """Rule 12: a tie of FOR and AGAINST fails; rule 22: -5."""
    m = mover(game)
    send(game, m, "[Proposal] Tie", PROPOSAL)
    a, b = others(game)
    send(game, a, "[Vote] 1", "AGAINST")
    send(game, b, "[Vote] 1", "ABSTAIN")
    state = game.state("nomes")
    assert state["proposals"][0]["status"] == "failed" and state["proposals"][0]["reason"] == "tie"
    assert next(p for p in state["players"] if p["name"] == m)["score"] == -5
    assert not any(r["number"] == "24" for r in state["rules"])


def test_proposal_from_the_wrong_player_is_refused(game, outbox):
    """Rule 8: a move is made by the player whose turn it is."""
    wrong = others(game)[0]
    send(game, wrong, "[Proposal] Sneaky", PROPOSAL)
    reply = last_reply(outbox, wrong)
    assert reply["X-Mailref-Kind"] == "error" and "not your turn" in Outbox.body(reply)
    assert game.state("nomes")["proposals"] == []


def test_second_proposal_in_a_turn_and_free_text_are_refused(game, outbox):
    """Rules 8–9: one proposal a move; a proposal must change the rules."""
    m = mover(game)
    send(game, m, "[Proposal] Nothing", "Let us be friends.")
    assert "at least one rule change" in Outbox.body(last_reply(outbox, m))
    send(game, m, "[Proposal] One", PROPOSAL)
    send(game, m, "[Proposal] Two", 'Enact rule 25 "More":\nMore.\n')
    assert "already moved" in Outbox.body(last_reply(outbox, m))
    assert len(game.state("nomes")["proposals"]) == 1


def test_malformed_rule_change_is_refused_naming_the_line(game, outbox):
    m = mover(game)
    send(game, m, "[Proposal] Broken", "Intro\nRepeal rule fifteen.\n")
    body = Outbox.body(last_reply(outbox, m))
    assert "line 2" in body and "Repeal rule fifteen" in body


@pytest.mark.parametrize(
    "body,why",
    [
        ('Enact rule 3 "Dup":\nx\n', "already exists"),
        ("Amend rule 99 to read:\nx\n", "no rule 99"),
        ('In rule 5, replace "banana" with "apple".\n', "does not contain"),
    ],
)
def test_changes_that_cannot_apply_are_refused(game, outbox, body, why):
    m = mover(game)
    send(game, m, "[Proposal] Bad", body)
    assert why in Outbox.body(last_reply(outbox, m))


def test_vote_in_a_quote_is_ignored_and_a_changed_vote_replaces(game, outbox, clock):
    """Quoted text is not a command; the last vote counts and the ack says what it replaced."""
    m = mover(game)
    send(game, m, "[Proposal] Q", PROPOSAL)
    a, b = others(game)
    send(game, a, "Re: [Proposal 1] Q", "Hmm.\n\nOn Tue, Bob wrote:\n> FOR\n")
    assert last_reply(outbox, a)["X-Mailref-Kind"] == "error"
    assert a not in game.state("nomes")["proposals"][0]["votes"]
    send(game, a, "Re: [Proposal 1] Q", "AGAINST")
    clock.advance(minutes=5)
    send(game, a, "Re: [Proposal 1] Q", "FOR")
    body = Outbox.body(last_reply(outbox, a))
    assert "proposal 1 — FOR (replaces AGAINST of Tue 1 Dec 2026 10:00 UTC)" in body


def test_votes_for_unknown_or_closed_proposals_and_from_non_players(game, outbox):
    m = mover(game)
    send(game, m, "[Proposal] P", PROPOSAL)
    a, b = others(game)
    send(game, a, "[Vote] 9", "FOR")
    assert "no proposal 9" in Outbox.body(last_reply(outbox, a))
    send(game, a, "[Vote] 1", "FOR")
    send(game, b, "[Vote] 1", "FOR")
    send(game, a, "[Vote] 1", "AGAINST")
    assert "closed" in Outbox.body(last_reply(outbox, a))
    game.accept(mail("eve@else.example", G, "[Vote] 1", "FOR"), "smtp")
    err = [x for x in outbox.all() if x["To"] == "eve@else.example"][-1]
    assert err["X-Mailref-Kind"] == "error" and "not a player" in Outbox.body(err)
    with game.store() as s:
        assert s.query(InboxMessage).count() >= 8  # every mail is kept


def test_skip_by_timeout_and_forfeit(game, outbox, clock):
    """Rule 8: no move within five days skips the turn; players may forfeit."""
    first = mover(game)
    clock.advance(days=5, seconds=1)
    assert game.tick() == ["nomes"]
    state = game.state("nomes")
    assert state["turn"]["number"] == 2 and state["turn"]["player"] != first
    assert any("skipped" in m["Subject"] for m in outbox.all())
    second = mover(game)
    send(game, second, "[Forfeit]")
    assert game.state("nomes")["turn"]["number"] == 3


def test_reminder_goes_to_those_who_have_not_acted(game, outbox, clock):
    m = mover(game)
    send(game, m, "[Proposal] R", PROPOSAL)
    a, b = others(game)
    send(game, a, "[Vote] 1", "FOR")
    clock.advance(days=4, seconds=1)
    game.tick()
    reminders = [x for x in outbox.all() if x["X-Mailref-Kind"] == "reminder"]
    assert [x["To"] for x in reminders] == [addr(b)]


def test_vote_timeout_counts_missing_votes_as_abstain(game, clock):
    """Rule 11: no vote within five days is abstaining."""
    m = mover(game)
    send(game, m, "[Proposal] T", PROPOSAL)
    clock.advance(days=5, seconds=1)
    game.tick()
    prop = game.state("nomes")["proposals"][0]
    assert prop["status"] == "passed" and set(prop["votes"].values()) == {"FOR", "ABSTAIN"}


def test_away_player_is_skipped_and_abstains(game, outbox):
    """Rule 15: an away player abstains and their turn is skipped."""
    m = mover(game)
    order = game.state("nomes")["order"]
    nxt = order[(order.index(m) + 1) % 3]
    send(game, nxt, f"{nxt} is away")
    assert next(p for p in game.state("nomes")["players"] if p["name"] == nxt)["status"] == "away"
    send(game, m, "[Proposal] A", PROPOSAL)
    third = [p for p in order if p not in (m, nxt)][0]
    send(game, third, "[Vote] 1", "AGAINST")
    state = game.state("nomes")
    assert state["proposals"][0]["votes"][nxt] == "ABSTAIN"
    assert state["turn"]["player"] == third  # nxt skipped
    send(game, nxt, f"{nxt} has returned")
    assert next(p for p in game.state("nomes")["players"] if p["name"] == nxt)["status"] == "active"


def test_reaching_100_wins_and_ends_the_game(game, outbox):
    """Rule 23: the first player to reach 100 points wins."""
    game.admin("nomes", {"type": "score", "player": mover(game), "op": "=", "amount": 95}, "gm")
    m = mover(game)
    send(game, m, "[Proposal] Win", PROPOSAL)
    for o in others(game):
        send(game, o, "[Vote] 1", "FOR")
    state = game.state("nomes")
    assert state["status"] == "ended" and state["winners"] == [m]
    send(game, others(game)[0], "[Status]")
    assert "Winners" in Outbox.body(last_reply(outbox, others(game)[0]))
    ruleset = [x for x in outbox.all() if x["X-Mailref-Kind"] == "ruleset"][-1]
    assert f"The game has ended; won by {m}." in Outbox.body(
        ruleset
    ) and "is to move" not in Outbox.body(ruleset)


def test_cfj_goes_to_the_player_before_the_mover(game, outbox):
    """Rule 17: the person preceding the mover is the judge, skipping away players."""
    state = game.state("nomes")
    order, m = state["order"], state["turn"]["player"]
    before = order[(order.index(m) - 1) % 3]
    asker = [p for p in order if p != before][0]
    send(game, asker, "[CfJ] Is rule 5 being followed?", "Details here.")
    j = game.state("nomes")["judgements"][0]
    assert j["judge"] == before and j["status"] == "open"
    assert [x["To"] for x in outbox.all() if x["X-Mailref-Kind"] == "judge"] == [addr(before)]
    not_judge = [p for p in order if p != before][0]
    send(game, not_judge, "[Ruling] 1", "It is fine.")
    assert "not the judge" in Outbox.body(last_reply(outbox, not_judge))
    send(game, before, "[Ruling] 1", "It is being followed.")
    j = game.state("nomes")["judgements"][0]
    assert j["status"] == "decided" and j["ruling"] == "It is being followed."
    assert any(x["X-Mailref-Kind"] == "alert" for x in outbox.all())


def test_newcomer_is_inserted_at_random(game):
    """Rule 6: a new player's name is inserted at random."""
    send(game, "dave", "[Join]", "Name: Dave")
    confirm_waiting(game)
    assert sorted(game.state("nomes")["order"]) == ["Alice", "Bob", "Carol", "Dave"]


def test_restart_mid_vote_fires_a_missed_deadline_once_late(tmp_path, clock, database_url):
    """A deadline missed while the referee was down fires once, in order, and says it was late."""
    r1 = make_referee(tmp_path, clock, url=database_url)
    r1.create_game("nomes", "sidekick", G)
    for p in PLAYERS:
        send(r1, p, "[Join]", f"Name: {p.title()}")
        confirm_waiting(r1)
    send(r1, mover(r1), "[Proposal] Late", PROPOSAL)
    r1.store.dispose()  # the daemon goes down
    clock.advance(days=12)
    r2 = make_referee(tmp_path, clock, url=database_url)  # and comes back a week late
    assert r2.due_games() == ["nomes"]
    r2.tick()
    r2.tick()
    state = r2.state("nomes")
    assert state["proposals"][0]["status"] == "passed"
    results = [m for m in Outbox(r2).all() if m["X-Mailref-Kind"] == "results"]
    assert len(results) == 3 and "Late:" in Outbox.body(results[0])
    with r2.store() as s:
        ticks = [e for e in s.query(JournalEntry) if e.action["type"] == "tick"]
    assert len(ticks) == 1
    assert_replays(r2)


def test_game_show_json_matches_the_contract(game, tmp_path):
    from mailref.engine import public_view

    view = public_view(game.state("nomes"))
    for key in (
        "slug",
        "name",
        "variant",
        "status",
        "parameters",
        "players",
        "order",
        "turn",
        "proposals",
        "judgements",
        "rules",
        "winners",
    ):
        assert key in view
    assert set(view["players"][0]) >= {"name", "addresses", "status", "score", "offices"}
    assert view["turn"]["deadline"].endswith("Z")
    json.dumps(view)


def test_whole_game_from_join_to_a_winner_by_mail_alone(tmp_path):
    """Through real SMTP sessions into the in-process listener, the GM only reading digests."""
    play_sidekick_to_a_winner(tmp_path)


# ---- the rule list, rule numbers, rejoining, the mover's ballot -------------------


@pytest.mark.parametrize(
    "body,why",
    [
        ('Enact rule 24.5 "Half":\nHalf a rule.\n', "must be a positive integer"),
        ('Enact rule 03 "Three":\nA second rule three.\n', "already exists as rule 3"),
        ('Enact rule 0 "Zero":\nNothing.\n', "positive integer"),
    ],
)
def test_a_new_rule_number_is_a_positive_integer_unique_by_value(game, outbox, body, why):
    """Rule 10: "All proposed new rules must be given a reference number and title. Each must be
    unique to the list. The reference number must be a positive integer."
    """
    m = mover(game)
    send(game, m, "[Proposal] Numbers", body)
    reply = last_reply(outbox, m)
    assert reply["X-Mailref-Kind"] == "error" and why in Outbox.body(reply)
    assert game.state("nomes")["proposals"] == []


def test_a_leading_zero_names_the_same_rule(game):
    """Rule 10: numbers are compared by value: "Amend rule 05" amends rule 5; "024" is rule 24."""
    m = mover(game)
    send(
        game,
        m,
        "[Proposal] Zeros",
        'Enact rule 024 "Bonus":\nA bonus.\nAmend rule 05 to read:\nShorter.\n',
    )
    for o in others(game):
        send(game, o, "[Vote] 1", "FOR")
    rules = {r["number"]: r for r in game.state("nomes")["rules"]}
    assert (
        rules["24"]["title"] == "Bonus" and rules["5"]["text"] == "Shorter." and "024" not in rules
    )


def test_a_player_who_rejoins_starts_at_zero_points(game, outbox):
    """Rule 19: "All player’s start the game with 0 points. This includes players that join after
    the game has begun." """
    m = mover(game)
    send(game, m, "[Proposal] Daily dice", PROPOSAL)
    for o in others(game):
        send(game, o, "[Vote] 1", "FOR")
    assert next(p for p in game.state("nomes")["players"] if p["name"] == m)["score"] == 10
    send(game, m, "[Quit]")
    send(game, m, "[Join]", f"Name: {m}\n")
    confirm_waiting(game)
    p = next(p for p in game.state("nomes")["players"] if p["name"] == m)
    assert (p["status"], p["score"]) == ("active", 0)
    assert m in game.state("nomes")["order"]


def test_the_rule_list_shows_the_mover_and_every_player_in_turn_order(game, outbox):
    """Rule 5: "the rule list will indicate the current score each player has and the current player
    whose turn it is"; rule 6: "The rule list will contain a complete list of all players"."""
    state = game.state("nomes")
    m, order = state["turn"]["player"], state["order"]
    send(game, "alice", "[Rules]")
    body = Outbox.body(last_reply(outbox, "alice"))
    assert f"Turn 1: {m} is to move." in body
    listed = [
        line.split(".", 1)[1].split(":")[0].strip()
        for line in body.splitlines()
        if line.strip()[:2] in ("1.", "2.", "3.") and "points" in line
    ]
    assert listed == order
    assert f"{order.index(m) + 1}. {m}: 0 points (to move)" in body
    send(game, m, "[Proposal] Daily dice", PROPOSAL)
    for o in others(game):
        send(game, o, "[Vote] 1", "FOR")
    ruleset = [x for x in outbox.all() if x["X-Mailref-Kind"] == "ruleset"][-1]
    text = Outbox.body(ruleset)
    nxt = game.state("nomes")["turn"]["player"]
    assert f"Turn 2: {nxt} is to move." in text and f"{m}: 10 points" in text
    assert all(f"{n}: " in text for n in order)


def test_the_movers_own_ballot(game, outbox):
    """Rule 11: "The player moving is assumed to be voting “for” the proposal, and does not need to
    state this." Decision (docs/games/sidekick.md): the mover's FOR is acknowledged and changes
    nothing; AGAINST or ABSTAIN is refused."""
    m = mover(game)
    send(game, m, "[Proposal] Daily dice", PROPOSAL)
    send(game, m, "[Vote] 1", "AGAINST")
    reply = last_reply(outbox, m)
    assert reply["X-Mailref-Kind"] == "error" and "your vote is FOR" in Outbox.body(reply)
    send(game, m, "[Vote] 1", "FOR")
    reply = last_reply(outbox, m)
    assert reply["X-Mailref-Kind"] == "ack" and "already FOR" in Outbox.body(reply)
    prop = game.state("nomes")["proposals"][0]
    assert prop["votes"] == {m: "FOR"} and prop["ballots"] == []


def test_the_judge_rules_by_a_plain_reply_to_the_judge_mail(game, outbox):
    """SPEC §2.5: a reply keeps the tag of what it answers; the judge's Reply to "[Judgement 1]
    You are the judge" is the ruling, anyone else's is told who the judge is."""
    state = game.state("nomes")
    order, m = state["order"], state["turn"]["player"]
    judge = order[(order.index(m) - 1) % 3]
    asker = [p for p in order if p != judge][0]
    send(game, asker, "[CfJ] Is rule 5 being followed?", "Details here.")
    (judge_mail,) = [x for x in outbox.all() if x["X-Mailref-Kind"] == "judge"]
    quote = "\n".join("> " + line for line in Outbox.body(judge_mail).splitlines())
    send(
        game,
        asker,
        "Re: " + str(judge_mail["Subject"]),
        f"I think it is.\n\n{quote}",
        in_reply_to=judge_mail["Message-ID"],
    )
    err = Outbox.body(last_reply(outbox, asker))
    assert f"only its judge ({judge}) answers it" in err
    send(
        game,
        judge,
        "Re: " + str(judge_mail["Subject"]),
        f"It is being followed.\n\n{quote}",
        in_reply_to=judge_mail["Message-ID"],
    )
    j = game.state("nomes")["judgements"][0]
    assert j["status"] == "decided" and j["ruling"] == "It is being followed."
    assert "Your ruling on judgement 1 is recorded" in Outbox.body(last_reply(outbox, judge))


def test_a_thank_you_reply_to_the_ruleset_mail_is_not_a_request_for_the_rules(game, outbox):
    """A reply keeps the announcement's tag (SPEC §2.5), but "Congrats!" in reply to "[Rules]
    Proposal 1 … is in effect" asks for nothing: a short answer, not the whole rule list."""
    m = mover(game)
    send(game, m, "[Proposal] Daily dice", PROPOSAL)
    a, b = others(game)
    send(game, a, "Re: [Proposal 1] Daily dice", "FOR")
    send(game, b, "Re: [Proposal 1] Daily dice", "FOR")
    ruleset = next(
        x for x in outbox.all() if x["X-Mailref-Kind"] == "ruleset" and x["To"] == addr(a)
    )
    send(
        game,
        a,
        "Re: " + str(ruleset["Subject"]),
        "Congrats! Sounds good to me.",
        in_reply_to=ruleset["Message-ID"],
    )
    reply = last_reply(outbox, a)
    assert reply["X-Mailref-Kind"] == "error" and "Rule 24" not in Outbox.body(reply)
    assert "no command in it, so nothing was done" in Outbox.body(reply)
    send(game, a, "[Rules]")
    assert last_reply(outbox, a)["X-Mailref-Kind"] == "ruleset"


def test_a_passed_change_to_a_rule_the_referee_runs_by_a_parameter_alerts_the_gm(game, outbox):
    """Rule 22 is run as fail_points: when a proposal rewrites it unreadably, the rule list
    changes and the GM is told to set the parameter, instead of the referee quietly citing the
    old number. (A readable new value is followed: tests/games/test_rule_parameters.py.)"""
    m = mover(game)
    send(
        game,
        m,
        "[Proposal] Gentler failure",
        "Amend rule 22 to read:\nA failed proposal costs its author half of what a pass earns.\n",
    )
    a, b = others(game)
    send(game, a, "Re: [Proposal 1] Gentler failure", "FOR")
    send(game, b, "Re: [Proposal 1] Gentler failure", "FOR")
    state = game.state("nomes")
    assert "half of what" in next(r["text"] for r in state["rules"] if r["number"] == "22")
    assert state["parameters"]["fail_points"] == -5
    alerts = [Outbox.body(x) for x in outbox.all() if x["X-Mailref-Kind"] == "alert"]
    assert any(
        "changes rule 22, which the referee runs as fail_points = -5" in x
        and "mailref game set nomes fail_points=" in x
        for x in alerts
    ), alerts


def test_a_bare_vote_counts_for_the_one_open_proposal(game, outbox):
    """`[Vote]` with FOR, while exactly one proposal is open, can mean only that one; a title
    that starts with a number is a title."""
    m = mover(game)
    send(game, m, "[Proposal] 3 strikes rule", PROPOSAL)
    assert game.state("nomes")["proposals"][0]["title"] == "3 strikes rule"
    a, b = others(game)
    send(game, a, "[Vote]", "FOR")
    assert game.state("nomes")["proposals"][0]["votes"].get(a) == "FOR"
    send(game, b, "[Vote] Proposal 1", "Against")
    prop = game.state("nomes")["proposals"][0]
    assert prop["votes"][b] == "AGAINST" and prop["status"] == "passed"


def test_a_welcome_in_reply_to_the_join_mail_reaches_the_players(game, outbox):
    """Prose in reply to an announcement that carries no tag is the players talking (SPEC
    §2.3): relayed to the others, Dave included, from "Alice via" the game; Alice is sent no
    copy and no answer."""
    send(game, "dave", "[Join]", "Name: Dave")
    confirm_waiting(game)
    joined = [x for x in outbox.all() if x["To"] == addr("alice") and "Dave" in str(x["Subject"])][
        -1
    ]
    outbox.new()
    send(
        game,
        "alice",
        "Re: " + str(joined["Subject"]),
        "Welcome Dave!",
        in_reply_to=joined["Message-ID"],
    )
    new = outbox.new()
    assert addr("alice") not in {m["To"] for m in new}
    relayed = {m["To"]: m for m in new if m["X-Mailref-Kind"] == "discussion"}
    assert addr("dave") in relayed and len(relayed) == len(new)
    assert "Welcome Dave!" in Outbox.body(relayed[addr("dave")])
    assert str(relayed[addr("dave")]["From"]).startswith("Alice via ")


def test_names_as_people_write_them_and_a_second_address(game, outbox):
    """A typographic apostrophe and a directory's "Last, First" are names; a player writing
    from another address is told to use the registered one or ask the GM, not to [Join]."""
    send(game, "sean", "[Join]", "Name: Seán D\u2019Arcy")
    confirm_waiting(game)
    send(game, "carla", "[Join]", name="Chen, Carla")
    confirm_waiting(game)
    names = [p["name"] for p in game.state("nomes")["players"]]
    assert "Seán D'Arcy" in names and "Carla Chen" in names
    game.accept(
        mail("alice@home.example", G, "[Status]", name="Alice"), "smtp", "alice@home.example", [G]
    )
    err = [m for m in outbox.all() if m["To"] == "alice@home.example"][-1]
    body = " ".join(Outbox.body(err).split())
    assert (
        "If you are Alice, write from the address you play from, or ask the GM" in body
        and "[Join]" not in body
    )


def test_the_proposal_ack_shows_the_whole_rule_text_and_sets_the_sign_off_aside(game, outbox):
    m = mover(game)
    text = (
        "Each player may roll a die once a day, and the result of that roll is announced to "
        "every player."
    )
    send(game, m, "[Proposal] Daily dice", f'Enact rule 24 "Bonus":\n{text}\n\nCheers,\n{m}\n')
    ack = Outbox.body(last_reply(outbox, m))
    assert text in " ".join(ack.split()) and f'not rule text: "Cheers, / {m}"' in ack
    assert game.state("nomes")["proposals"][0]["changes"][0]["text"] == text


def test_a_moved_vote_deadline_says_which_deadline(game, outbox):
    m = mover(game)
    send(game, m, "[Proposal] Daily dice", PROPOSAL)
    out = game.admin("nomes", {"type": "deadline", "extend": "1d", "by": "gm"}, "gm")
    assert out.ok and out.lines[0].startswith("The vote on proposal 1 moved from ")


def test_the_next_movers_closing_vote_ack_says_the_turn_is_theirs(game, outbox):
    """The vote that closes the proposal hands the turn to its voter: the one mail they get
    carries "Your move", headed as theirs alone, not as what the players were told."""
    state = game.state("nomes")
    m = state["turn"]["player"]
    nxt = state["order"][(state["order"].index(m) + 1) % 3]
    first = next(p for p in state["order"] if p not in (m, nxt))
    send(game, m, "[Proposal] Daily dice", PROPOSAL)
    send(game, first, "Re: [Proposal 1] Daily dice", "FOR")
    send(game, nxt, "Re: [Proposal 1] Daily dice", "FOR")
    mails = [x for x in outbox.all() if x["To"] == addr(nxt)]
    closing = mails[-1]
    body = Outbox.body(closing)
    assert (
        closing["X-Mailref-Kind"] == "ack"
        and "Also for you alone (" in body
        and "[Turn 2] Your move" in body
    )
    assert 'What the players were told ("[Nomic Sidekick Nomic] [Turn 2]' not in body
