"""An orders game exported mid-turn and imported goes on as the same game: its players and
their lands and Grain, the turn and its deadline, the orders already in, the turns resolved;
the turn then resolves as it would have where it was, drawing the same dice from the same
committed seed."""

from __future__ import annotations

import argparse
import contextlib
import io
import json

import pytest

from mailref.cli.dice import cmd_dice_verify, dice_chain
from mailref.cli.rulesets import cmd_game_export, cmd_game_import
from mailref.engine.game_file import MARK, parse
from mailref.engine.public import public_view
from mailref.engine.ruleset_file import RulesetProblems
from support.helpers import Outbox, assert_replays, last_to
from support.joining import confirm
from support.orders_play import addr, send

EIRE, DIPLO, COPY = "eire@ref.example", "diplo@ref.example", "copy@ref.example"


def exported_and_imported(
    referee, slug: str, tmp_path, into: str = "copy", address: str = COPY
) -> str:
    """The game SLUG by `game export --to FILE`, then `game import INTO FILE` at ADDRESS; the
    file's text."""
    path = tmp_path / f"{slug}.game"
    with contextlib.redirect_stdout(io.StringIO()):
        assert cmd_game_export(referee, argparse.Namespace(slug=slug, to=str(path)), "gm") == 0
        made = argparse.Namespace(slug=into, file=str(path), address=address, from_text=None)
        assert cmd_game_import(referee, made, "gm") == 0
    return path.read_text(encoding="utf-8")


def shown(referee, slug: str) -> dict:
    view = public_view(referee.state(slug))
    return {k: v for k, v in view.items() if k not in ("slug", "address", "created")}


def told_once(referee, game: str) -> None:
    """Each player of the copy is mailed once that it runs here, with how to leave."""
    told = [
        m
        for m in Outbox(referee).all()
        if m["X-Mailref-Kind"] == "notice" and "now runs here" in str(m["Subject"])
    ]
    players = [p for p in referee.state("copy")["players"] if p["status"] == "active"]
    assert sorted(m["To"] for m in told) == sorted(p["addresses"][0] for p in players)
    assert "send [Quit] to this address" in " ".join(Outbox.body(told[0]).split())


def eire_mid_turn(referee) -> None:
    """Finn, Maeve and Oisin at turn 1 of Eire; Finn's and Maeve's orders are in, Oisin's not."""
    referee.rng = None  # the game's seed chain, as a server draws
    referee.create_game("eire", "eire", EIRE, gm="gm@ref.example", parameters={"turn_length": "2d"})
    for name, color, tribe, origin in (
        ("Finn", "Green", "Plainsmen", "Tara"),
        ("Maeve", "Red", "Plainsmen", "Donal"),
        ("Oisin", "Gold", "Merfolk", "Llanc"),
    ):
        body = f"Name: {name}\nColor: {color}\nTribe: {tribe}\nOrigin: {origin}"
        send(referee, name, EIRE, "[Join]", body)
        confirm(referee, addr(name))
    assert referee.admin("eire", {"type": "start"}, "gm").ok
    state = referee.state("eire")
    free = [x["name"] for x in state["lands"] if x["owner"] is None]
    near = {
        p: [n for n in land(state, o)["neighbours"] if n in free]
        for p, o in (("Finn", "Tara"), ("Maeve", "Donal"))
    }
    send(referee, "Finn", EIRE, "[Orders]", f"**Attack {near['Finn'][0]} with 9 Grain**")
    send(referee, "Maeve", EIRE, "[Orders]", f"**Attack {near['Maeve'][0]} with 8 Grain**")
    assert set(referee.state("eire")["orders"]) == {"Finn", "Maeve"}


def land(state: dict, name: str) -> dict:
    return next(x for x in state["lands"] if x["name"] == name)


def test_an_eire_turn_with_orders_in_resolves_the_same_after_import(referee, tmp_path):
    eire_mid_turn(referee)
    text = exported_and_imported(referee, "eire", tmp_path)
    assert "mechanics: eire" in text and '"Finn"' in text
    assert shown(referee, "copy") == shown(referee, "eire")
    assert referee.state("copy")["orders"] == referee.state("eire")["orders"]
    told_once(referee, "copy")
    last = "**Invest 4 Grain in Llanc**"
    send(referee, "Oisin", EIRE, "[Orders]", last)
    send(referee, "Oisin", COPY, "[Orders]", last)
    here, there = referee.state("copy"), referee.state("eire")
    assert here["turn"]["number"] == there["turn"]["number"] == 2
    rolls = there["history"][-1]["rolls"]
    assert len(rolls) == 4 and here["history"] == there["history"]
    assert here["lands"] == there["lands"] and here["grain"] == there["grain"]
    results = [
        Outbox.body(m).replace(COPY, EIRE)
        for m in Outbox(referee).to(addr("Maeve"), kind="results")
    ]
    assert len(results) == 2 and results[0].split("Dice:")[0] == results[1].split("Dice:")[0]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cmd_dice_verify(referee, argparse.Namespace(slug="copy"), "gm") == 0
    assert "4 draws recomputed from revealed seeds: all match." in out.getvalue()
    assert_replays(referee)


def test_a_game_imported_twice_draws_as_it_would_have_where_it_began(referee, tmp_path):
    """Moved once, played on (Maeve rolls a die in each), moved again: the third game still
    draws the d10s the first one draws."""
    eire_mid_turn(referee)
    exported_and_imported(referee, "eire", tmp_path)
    send(referee, "Maeve", EIRE, "[Roll] d100")
    send(referee, "Maeve", COPY, "[Roll] d100")
    assert referee.state("copy")["rolls"] == referee.state("eire")["rolls"]
    again = "again@ref.example"
    text = exported_and_imported(referee, "copy", tmp_path, "again", again)
    assert referee.state("again")["entries_before"] > referee.state("copy")["entries_before"]
    assert '"entries_before"' not in text
    for game in (EIRE, COPY, again):
        send(referee, "Oisin", game, "[Orders]", "**Invest 4 Grain in Llanc**")
    first, second, third = (referee.state(g)["history"] for g in ("eire", "copy", "again"))
    assert len(first[-1]["rolls"]) == 4 and first == second == third
    assert_replays(referee)


def test_a_gm_orders_game_goes_on_from_its_file_with_its_results(referee, clock, tmp_path):
    referee.create_game("diplo", "orders", DIPLO, gm="gm@ref.example")
    for name in ("Ann", "Bob"):
        send(referee, name, DIPLO, "[Join]", f"Name: {name}")
        confirm(referee, addr(name))
    assert referee.admin("diplo", {"type": "start"}, "gm").ok
    for name in ("Ann", "Bob"):
        send(referee, name, DIPLO, "[Orders]", f"**{name} holds Paris**")
    gm = "gm@ref.example"
    send(
        referee,
        gm,
        DIPLO,
        "[Results] Turn 1",
        "Nobody moved.",
        in_reply_to=last_to(referee, gm, DIPLO),
    )
    send(referee, "Ann", DIPLO, "[Orders]", "**Ann moves to Lyon**")
    text = exported_and_imported(referee, "diplo", tmp_path)
    assert "mechanics: orders" in text and "## " not in text
    assert shown(referee, "copy") == shown(referee, "diplo")
    assert referee.state("copy")["history"][0]["results"] == "Nobody moved."
    told_once(referee, "copy")
    send(referee, "Bob", COPY, "[Orders]", "**Bob moves to Nice**")
    digest = [m for m in Outbox(referee).to("gm@ref.example", kind="digest")][-1]
    body = Outbox.body(digest)
    assert "Ann moves to Lyon" in body and "Bob moves to Nice" in body
    assert referee.state("copy")["turn"]["awaiting_results"]
    assert_replays(referee)


def test_a_dice_seed_changed_in_the_file_is_refused_with_its_line(referee, tmp_path):
    eire_mid_turn(referee)
    text = exported_and_imported(referee, "eire", tmp_path)
    head, _, tail = text.partition(MARK)
    rest = json.loads(tail)
    assert rest["dice"]["sha256"] in {s["sha256"] for s in dice_seeds(referee, "eire")}
    rest["dice"]["seed"] = "0" * 64
    with pytest.raises(RulesetProblems) as e:
        parse(head + MARK + "\n" + json.dumps(rest), "eire.game")
    line = len(head.splitlines()) + 2
    assert e.value.problems == [
        f"line {line}: the dice seed does not hash to its SHA-256: export the game again"
    ]


def dice_seeds(referee, slug: str) -> list[dict]:
    return dice_chain(referee, slug)["seeds"]


def test_the_players_of_an_orders_game_imported_mid_turn_are_told_the_turn(referee, tmp_path):
    """The mail that an imported Eire game now runs here tells its players the turn going on,
    that the orders already sent stand and when the rest are due, and speaks of no score."""
    eire_mid_turn(referee)
    exported_and_imported(referee, "eire", tmp_path)
    (told,) = [
        m
        for m in Outbox(referee).to(addr("Oisin"), kind="notice")
        if "now runs here" in str(m["Subject"])
    ]
    text = " ".join(Outbox.body(told).split())
    assert "Turn 1 goes on here: orders sent for it before the move stand" in text
    assert "the rest are due Thu 3 Dec 2026 10:00 UTC, in 2 days" in text
    assert "score" not in text
    assert_replays(referee)
