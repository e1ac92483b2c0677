"""The digest: a join told before what it set off, the wizards gone quiet, who the Imperial game
waits for."""

from __future__ import annotations

import pytest

from support.helpers import Outbox
from support.joining import confirm_waiting
from support.long_games import BLOG, EMP, blog, last, new_rule, nomes
from support.play import send  # the same players' addresses, mail sent the same way

pytestmark = pytest.mark.spec("2.6")


def test_the_digest_tells_a_join_before_what_it_set_off(referee, outbox, clock):
    """The GM's first digest read "Alice joined. / Turn order drawn: Alice, Bob / Turn 1: Alice
    to move / Bob joined.": the turn order of two players drawn before the second had joined."""
    nomes(referee)
    clock.advance(days=1)
    referee.tick()
    text = Outbox.body(last(outbox, "gm@ref.example", "digest"))
    assert text.index("Bob joined.") < text.index("Turn order drawn:") < text.index("Carol joined.")


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
    late = text[text.index("Late (deadline passed):") :]
    for name in ("Dan", "Eve", "Fay"):
        assert (
            f"{name} has sent nothing since Tue 1 Dec 2026 10:00 UTC: an Admin may render them "
            "Idle "
            f'(rule "Idle Wizards"), which lowers the quorum: `mailref player away blog {name}`'
        ) in late
    assert "Alice has sent" not in text and "Bob has sent" not in text
    assert "Not yet voted on Proposal 8: Dan, Eve, Fay" in text
    assert [p["status"] for p in referee.state("blog")["players"]].count("active") == 6


def test_the_imperial_digest_says_who_the_game_waits_for(referee, outbox, clock):
    """The Imperial GM's digest always read "Waiting for: nobody / Late: nobody", with Senators
    yet to vote and a proposal the Emperor had left unjudged for days."""
    referee.create_game(
        "emp", "imperial", EMP, gm="gm@ref.example", parameters={"vote_period": "2d"}
    )
    for p in ("joel", "alice", "bob", "carol"):
        send(referee, p, "[Join]", f"Name: {p.title()}\n", to=EMP)
        confirm_waiting(referee)
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
    late = text[text.index("Late (deadline passed):") :]
    assert (
        "The Emperor (Joel) has not judged proposal 1, awaiting judgement since Thu 3 Dec 2026 "
        "10:00 UTC" in late
    )
