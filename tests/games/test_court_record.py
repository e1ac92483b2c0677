"""The journal as the court record (SPEC §4.4): a Sidekick judge's ruling undoes a proposal and
scores a penalty, every player is told what changed, and the journal still replays; the
admin's `mailref undo --dry-run` changes nothing."""

from __future__ import annotations

import argparse
import contextlib
import io
import json

import pytest

from mailref.cli.court import cmd_journal, cmd_undo
from mailref.cli.replay import cmd_replay
from support import clients
from support.client_play import NOMES, last, play
from support.helpers import Outbox, assert_replays
from support.joining import confirm
from support.play import addr

pytestmark = pytest.mark.spec("4.4")

PLAYERS = ("Alice", "Bob", "Carol")


def _cli(fn, referee, **kw) -> tuple[int, str]:
    out = io.StringIO()
    kw = {"reason": None, "json": False, "dry_run": False, **kw}
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = fn(referee, argparse.Namespace(**kw), "gm")
    return code, out.getvalue()


def _mail(referee, who: str, subject: str, body: str) -> None:
    play(referee, clients.fresh(addr(who), who, NOMES, subject, body))


def _passed_and_questioned(referee) -> tuple[list[str], str]:
    """Proposal 1 of the first mover passes (rule 24 enacted, +10); the second mover forfeits;
    the first mover's move is questioned. Returns the movers in turn and the judge."""
    referee.create_game("nomes", "sidekick", NOMES, gm="gm@ref.example")
    for p in PLAYERS:
        _mail(referee, p, "[Join]", f"Name: {p}\n")
        confirm(referee, addr(p))
    state = referee.state("nomes")
    i = state["order"].index(state["turn"]["player"])
    order = state["order"][i:] + state["order"][:i]  # the movers in turn, the first now
    _mail(referee, order[0], "[Proposal] Tea time", 'Enact rule 24 "Tea":\nAll drink tea.\n')
    for voter in order[1:]:
        _mail(referee, voter, "[Vote] 1", "FOR")
    _mail(referee, order[1], "[Forfeit]", "")
    _mail(referee, order[2], "[CfJ] Was proposal 1 legal?", "Rule 24 breaks rule 9.")
    state = referee.state("nomes")
    assert state["proposals"][0]["status"] == "passed"
    assert any(str(r["number"]) == "24" for r in state["rules"])
    assert state["judgements"][0]["judge"] == order[1]
    return order, order[1]


def test_a_judges_ruling_undoes_a_proposal_and_scores_a_penalty(referee, outbox):
    """The judge rules "Undo proposal 1" and "Score X -10": rule 24 is gone, so is the +10, the
    -10 applies; what followed from the move (the forfeit of a turn that no longer came) is
    void and named; every player reads one announcement of it, the judge's ack lists it, and
    `mailref replay` says identical."""
    order, judge = _passed_and_questioned(referee)
    author = order[0]
    assert referee.state("nomes")["players"][0]["score"] is not None
    outbox.new()
    _mail(
        referee,
        judge,
        "[Ruling] 1",
        f"Illegal: rule 24 has no effect.\n\nUndo proposal 1\nScore {author} -10\n",
    )
    state = referee.state("nomes")
    scores = {p["name"]: p["score"] for p in state["players"]}
    assert scores[author] == -10 and all(scores[p] == 0 for p in order[1:])
    assert not any(str(r["number"]) == "24" for r in state["rules"])
    assert state["proposals"] == []
    assert state["judgements"][0]["status"] == "decided"
    assert state["turn"]["number"] == 1 and state["turn"]["player"] == author
    new = outbox.new()
    for p in PLAYERS:
        told = [m for m in new if m["To"] == addr(p) and "Ruling by" in str(m["Subject"])]
        assert len(told) == 1, (p, [str(m["Subject"]) for m in new if m["To"] == addr(p)])
        body = Outbox.body(told[0])
        assert "What changes:" in body, body
        assert f"Score of {author}: 10 -> -10." in body
        assert 'Rule 24 "Tea" is no longer in the ruleset.' in body
        assert 'Proposal 1 "Tea time" no longer exists (it was passed).' in body
        assert f"The turn: turn 1, {author} to move (was turn 3, {order[2]} to move)." in body
        assert "No longer holds:" in body and "you can only forfeit your own turn" in body
    (turn,) = [m for m in new if m["X-Mailref-Kind"] == "turn"]
    assert turn["To"] == addr(author) and "[Turn 1] Your move" in str(turn["Subject"])
    ack = Outbox.body(last(outbox, judge, "ack"))
    assert f"Score of {author}: 10 -> -10." in ack and "No longer holds:" in ack
    assert_replays(referee)
    code, out = _cli(cmd_replay, referee, slug="nomes")
    assert code == 0 and "nomes: identical after" in out, out


def test_an_undo_dry_run_changes_nothing(referee, outbox):
    """`mailref undo --dry-run` prints what would change, and neither the game, its journal nor
    the outbox changes."""
    order, _ = _passed_and_questioned(referee)
    before = referee.state("nomes")
    _, journal_before = _cli(cmd_journal, referee, slug="nomes", json=True)
    vote = next(
        line.split()[0]
        for line in _cli(cmd_journal, referee, slug="nomes")[1].splitlines()
        if f"{order[2]} voted on proposal 1" in line
    )
    outbox.new()
    code, out = _cli(cmd_undo, referee, slug="nomes", entries=[int(vote)], dry_run=True)
    assert code == 0, out
    assert "Dry run: nothing is changed" in out
    assert f"Score of {order[0]}: 10 -> 0." in out  # without that FOR, 1 FOR to 1: a tie fails
    assert referee.state("nomes") == before
    assert _cli(cmd_journal, referee, slug="nomes", json=True)[1] == journal_before
    assert outbox.new() == []
    code, out = _cli(cmd_undo, referee, slug="nomes", entries=[int(vote)], reason="a forged vote")
    assert code == 0 and f"Score of {order[0]}: 10 -> 0." in out, out
    assert referee.state("nomes")["proposals"][0]["status"] != "passed"
    told = Outbox.body(last(outbox, order[1], "announcement", "[Undo]"))
    assert "Reason: a forged vote" in told and "What changes:" in told
    assert_replays(referee)


def test_the_journal_lists_every_entry_with_its_source_and_who(referee, outbox):
    """`mailref journal` lists each entry: number, time, source, who, and what it did."""
    order, _ = _passed_and_questioned(referee)
    code, out = _cli(cmd_journal, referee, slug="nomes", json=True)
    entries = json.loads(out)["entries"]
    assert [e["number"] for e in entries] == list(range(1, len(entries) + 1))
    proposed = next(e for e in entries if e["action"] == "propose")
    assert proposed["source"] == "mail" and proposed["who"] == order[0]
    assert any(f'{order[0]} proposed 1 "Tea time"' in w for w in proposed["what"])
    code, text = _cli(cmd_journal, referee, slug="nomes")
    assert code == 0 and f'{order[0]} proposed 1 "Tea time"' in text


def test_undoing_one_players_vote_reopens_the_vote(referee, outbox):
    """ "Undo the vote of X on proposal 1" voids that ballot alone: proposal 1 is voting again,
    waiting for X, and neither its rule nor its points stand."""
    order, judge = _passed_and_questioned(referee)
    _mail(referee, judge, "[Ruling] 1", f"Undo the vote of {order[2].lower()} on proposal 1\n")
    state = referee.state("nomes")
    (prop,) = state["proposals"]
    assert prop["status"] == "voting" and order[2] not in prop["votes"], prop
    assert not any(str(r["number"]) == "24" for r in state["rules"])
    body = Outbox.body(last(outbox, order[0], "announcement", "Ruling by"))
    assert 'Proposal 1 "Tea time" is voting (was passed).' in body, body
    assert f'{order[2]} voted on proposal 1: the ballot on proposal 1 "Tea time" is undone.' in body
    assert_replays(referee)


def test_a_ruling_whose_undo_names_nothing_is_refused(referee, outbox):
    """An undo line naming no entry refuses the ruling, with the reason: the judge may send it
    again, and nothing in the game changes."""
    _, judge = _passed_and_questioned(referee)
    before = referee.state("nomes")
    _mail(referee, judge, "[Ruling] 1", "Undo entry 999\n")
    assert "there is no journal entry 999 before this one" in Outbox.body(
        last(outbox, judge, "error")
    )
    assert referee.state("nomes") == before
    _mail(referee, judge, "[Ruling] 1", "Undo the vote of Nobody on proposal 1\n")
    assert "names no player of this game" in Outbox.body(last(outbox, judge, "error"))


def test_an_undo_cannot_be_undone(referee, outbox):
    """`mailref undo` of the entry of a ruling that undid a proposal is refused, and says why."""
    _, judge = _passed_and_questioned(referee)
    _mail(referee, judge, "[Ruling] 1", "Undo proposal 1\n")
    ruling = json.loads(_cli(cmd_journal, referee, slug="nomes", json=True)[1])["entries"][-1]
    assert ruling["action"] == "ruling" and any(
        "Journal entries void:" in w for w in ruling["what"]
    )
    assert any(w.startswith('Proposal 1 "Tea time" no longer exists') for w in ruling["what"])
    ruling = ruling["number"]
    before = referee.state("nomes")
    code, out = _cli(cmd_undo, referee, slug="nomes", entries=[ruling])
    assert code == 1 and f"journal entry {ruling} is itself an undo" in out, out
    assert referee.state("nomes") == before


def test_a_rulings_lines_read_on_from_one_another(referee, outbox):
    """The court record of a ruling that scores and undoes: its score line says what it did
    (10 -> 0), and what the undo then changed reads on from there (0 -> -10), never again
    from the score before the ruling."""
    order, judge = _passed_and_questioned(referee)
    author = order[0]
    _mail(referee, judge, "[Ruling] 1", f"Illegal.\n\nUndo proposal 1\nScore {author} -10\n")
    ruling = json.loads(_cli(cmd_journal, referee, slug="nomes", json=True)[1])["entries"][-1]
    scored = [w for w in ruling["what"] if w.startswith(f"Score of {author}:")]
    assert scored == [
        f"Score of {author}: 10 -> 0 (judgement 1).",
        f"Score of {author}: 0 -> -10.",
    ], ruling["what"]
    assert {p["name"]: p["score"] for p in referee.state("nomes")["players"]}[author] == -10
    assert_replays(referee)


def test_two_score_lines_of_one_ruling_read_in_turn(referee, outbox):
    """Two score lines of one player in one ruling: each says the change it made, in order."""
    order, judge = _passed_and_questioned(referee)
    author = order[0]
    outbox.new()
    _mail(referee, judge, "[Ruling] 1", f"Twice wrong.\n\nScore {author} -3\nScore {author} -4\n")
    body = Outbox.body(last(outbox, order[2], "announcement", "Ruling by"))
    said = " ".join(body.split())
    first = said.find(f"Score of {author}: 10 -> 7 (judgement 1).")
    assert 0 <= first < said.find(f"Score of {author}: 7 -> 3 (judgement 1)."), body
    assert_replays(referee)
