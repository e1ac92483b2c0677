"""An undo while an Eire turn's results wait for the GM's [Publish] (SPEC §5.4): the turn is
resolved again from the same draws, and only the GM hears of it."""

from __future__ import annotations

import random
import re

import pytest
from games.test_gm_preview import EIRE, GM, body, combats, independent_neighbour, start

from mailref.store import Game, JournalEntry
from support.helpers import assert_replays
from support.joining import confirm_waiting
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


def roll_lines(text: str) -> dict[str, list[str]]:
    """Each combat's attack lines (its d10s), by the land fought over."""
    out: dict[str, list[str]] = {}
    land = ""
    for line in combats(text).splitlines():
        if line.startswith("  ") and not line.startswith("    "):
            land = line.split(" (")[0].strip()
        elif "d10" in line:
            out.setdefault(land, []).append(line.strip())
    return out


def start_three(referee, seed: int) -> None:
    """Alice, Bob and Carol in an Eire game previewed by the GM, drawing from SEED."""
    referee.create_game(
        "eire",
        "eire",
        EIRE,
        gm=GM,
        parameters={"turn_length": "1d", "start_grain": "20", "gm_preview": "on"},
    )
    for name, color, origin in (
        ("alice", "Red", "Donal"),
        ("bob", "Gold", "Llanc"),
        ("carol", "Green", "Reudh"),
    ):
        send(
            referee,
            name,
            "[Join]",
            f"Name: {name.title()}\nColor: {color}\nTribe: Plainsmen\nOrigin: {origin}",
            to=EIRE,
        )
        confirm_waiting(referee)
    referee.admin("eire", {"type": "start"}, "gm")
    referee.rng = random.Random(seed)


def targets_of(referee) -> dict[str, list[str]]:
    """Independent lands Alice (one) and Bob (two) border, none chosen twice; Carol, silent,
    keeps the turn open until its deadline."""
    state = referee.state("eire")
    lands = {x["name"]: x for x in state["lands"]}
    chosen: dict[str, list[str]] = {}
    taken: set[str] = set()
    for name, count in (("Alice", 1), ("Bob", 2)):
        free = sorted(
            {
                n
                for x in lands.values()
                if x["owner"] == name
                for n in x["neighbours"]
                if lands[n]["owner"] is None
            }
            - taken
        )[:count]
        chosen[name.lower()] = free
        taken |= set(free)
    return chosen


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_an_undone_order_leaves_the_other_combats_their_rolls(referee, outbox, clock, seed):
    """Combats wait for [Publish]; the GM undoes the orders of the earliest land's attacker.
    The combats still fought keep the d10s the GM saw, where the draws taken in order would
    have moved them onto the undone combat's; [Publish] sends those rolls."""
    start_three(referee, seed)
    order = [x["name"] for x in referee.state("eire")["lands"]]
    targets = targets_of(referee)
    first = min(targets, key=lambda n: min(order.index(x) for x in targets[n]))
    for name, lands in targets.items():
        attacks = "\n".join(f"**Attack {land} with 5 Grain**" for land in lands)
        send(referee, name, "[Orders]", attacks, to=EIRE)
    with referee.store() as s:
        game = s.query(Game).filter_by(slug="eire").one()
        entries = s.query(JournalEntry).filter_by(game_id=game.id).order_by(JournalEntry.seq)
        undone = [e.seq for e in entries if e.action.get("type") == "orders"][
            list(targets).index(first)
        ]
    clock.advance(days=1, seconds=1)
    referee.tick()
    seen = roll_lines(body(outbox.to(GM, kind="preview")[-1]))
    assert set(seen) == {x for lands in targets.values() for x in lands}, seen
    outbox.new()
    assert referee.admin("eire", {"type": "undo", "entries": [undone]}, "gm").ok
    again = roll_lines(body(next(m for m in outbox.new() if m["X-Mailref-Kind"] == "preview")))
    kept = {land: lines for land, lines in seen.items() if land not in targets[first]}
    assert kept and again == kept, (again, kept)
    assert referee.admin("eire", {"type": "publish"}, "gm").ok
    published = body(outbox.to(addr("carol"), kind="results")[-1])
    assert roll_lines(published) == kept
    assert_replays(referee)


def test_a_combat_an_undone_removal_brings_back_is_fought_from_the_journals_draws(
    referee, outbox, clock
):
    """The GM removes Alice while the results wait, dropping her combat, then undoes it: her
    combat is fought again, from draws already journaled, and Bob's keep their rolls."""
    start_three(referee, 3)
    targets = targets_of(referee)
    for name, lands in targets.items():
        attacks = "\n".join(f"**Attack {land} with 5 Grain**" for land in lands)
        send(referee, name, "[Orders]", attacks, to=EIRE)
    clock.advance(days=1, seconds=1)
    referee.tick()
    remove = {"type": "player_remove", "player": "Alice", "reason": "asked to leave"}
    assert referee.admin("eire", remove, "gm").ok
    seen = roll_lines(body(outbox.to(GM, kind="preview")[-1]))
    with referee.store() as s:
        game = s.query(Game).filter_by(slug="eire").one()
        last = max(e.seq for e in s.query(JournalEntry).filter_by(game_id=game.id))
    outbox.new()
    assert referee.admin("eire", {"type": "undo", "entries": [last]}, "gm").ok
    again = roll_lines(body(next(m for m in outbox.new() if m["X-Mailref-Kind"] == "preview")))
    assert set(again) == {x for lands in targets.values() for x in lands}, again
    assert {land: again[land] for land in seen} == seen
    assert referee.admin("eire", {"type": "publish"}, "gm").ok
    assert_replays(referee)
