"""Deadlines as players meet them: a deadline let pass is heard as late; a resume says when each
deadline now falls."""

from __future__ import annotations

import pytest

from support.helpers import Outbox
from support.joining import confirm_waiting
from support.long_games import last, nomes
from support.play import addr, send  # the same players' addresses, mail sent the same way

pytestmark = pytest.mark.spec("4.2")


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
    assert (
        f"{mover}, your turn (turn 1) is skipped: no move within the turn timeout (rule 8)."
        in Outbox.body(mine[0])
    )
    others = sorted(m["To"] for m in new if "Turn 1 skipped" in str(m["Subject"]))
    assert others == sorted(addr(p) for p in ("alice", "bob", "carol") if p.title() != mover)

    referee.create_game("dip", "orders", "dip@ref.example", gm="gm@ref.example")
    for p in ("ann", "ben", "cat"):
        send(referee, p, "[Join]", f"Name: {p.title()}\n", to="dip@ref.example")
        confirm_waiting(referee)
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


def test_the_resume_mail_says_when_each_deadline_now_falls(referee, outbox, clock):
    """ "Play resumes. Every deadline moved 6d later." left each player to add six days to a date
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
