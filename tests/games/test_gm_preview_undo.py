"""An undo while an Eire turn's results wait for the GM's [Publish] (SPEC §5.4): the turn is
resolved again from the same draws, and only the GM hears of it."""

from __future__ import annotations

import re

import pytest
from games.test_gm_preview import EIRE, GM, body, combats, independent_neighbour, start

from mailref.store import Game, JournalEntry
from support.helpers import assert_replays
from support.play import addr, send

pytestmark = pytest.mark.spec("5.4")


def test_an_undo_before_publish_resolves_the_turn_again_from_the_same_draws(referee, outbox):
    """The GM's correction undone while the results wait: the players were told of an undo of a
    turn they had not seen ("Nothing else changes" or a parameter), and the GM got no preview.
    Now the GM alone hears of it, with the turn resolved again from the same d10s, and
    [Publish] sends those results."""
    start(referee)
    target = independent_neighbour(referee, "Alice")
    send(referee, "alice", "[Orders]", f"**Attack {target} with 9 Grain**", to=EIRE)
    send(referee, "bob", "[Orders]", "**Invest 10 Grain in Llanc**", to=EIRE)
    first = body(outbox.to(GM, kind="preview")[-1])
    assert referee.admin("eire", {"type": "set", "values": {"independent_defense": "3"}}, "gm").ok
    with referee.store() as s:
        game = s.query(Game).filter_by(slug="eire").one()
        last = max(e.seq for e in s.query(JournalEntry).filter_by(game_id=game.id))
    outbox.new()
    assert referee.admin("eire", {"type": "undo", "entries": [last]}, "gm").ok
    sent = outbox.new()
    assert {m["To"] for m in sent} == {GM}, [(m["To"], m["Subject"]) for m in sent]
    again = body(next(m for m in sent if m["X-Mailref-Kind"] == "preview"))
    assert "resolved again after an undo, from the same rolls" in again
    rolls = re.compile(r"d10 (\d+)")
    assert rolls.findall(combats(first)) == rolls.findall(combats(again))
    assert combats(again) == combats(first)  # independent_defense is 10 again
    assert referee.admin("eire", {"type": "publish"}, "gm").ok
    assert combats(body(outbox.to(addr("alice"), kind="results")[-1])) == combats(first)
    assert_replays(referee)
