"""Eire adjudication (SPEC §5.4; seed 001) with fixed rolls: the text's worked examples, every
rule sentence and every house rule; map consistency; Grain and ownership invariants."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mailref import resource
from mailref.engine.context import Ctx, Refused
from mailref.engine.variants.eire import Eire
from mailref.timeutil import parse_iso

pytestmark = pytest.mark.spec("5.4")

NOW = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)
V = Eire()


def new_game(**params) -> dict:
    return V.initial_state("eire", "Eire", "eire@ref.example", "gm@ref.example", "UTC", params, NOW)


def act(state: dict, action: dict, rolls: list[int] | None = None) -> Ctx:
    """Apply ACTION with the given d10 rolls (the journal's recorded draws, as replay does)."""
    ctx = Ctx(NOW, draws=rolls or [])
    V.handle(state, action, ctx)
    return ctx


def join(state, name, color, tribe, origin):
    act(
        state,
        {
            "type": "join",
            "name": name,
            "address": f"{name.lower()}@x.org",
            "choices": {"color": color, "tribe": tribe, "origin": origin},
        },
    )


def started(players: list[tuple[str, str, str, str]], **params) -> dict:
    """A game with PLAYERS (name, color, tribe, origin) joined and turn 1 open."""
    state = new_game(**params)
    for p in players:
        join(state, *p)
    act(state, {"type": "start"})
    return state


def land(state, name):
    return V.land(state, name)


@pytest.fixture
def game():
    return started(
        [("Finn", "Green", "Plainsmen", "Llanc"), ("Maeve", "Red", "Plainsmen", "Donal")]
    )


def orders(state, name, *lines, rolls=None):
    return act(state, {"type": "orders", "player": name, "sentences": list(lines)}, rolls)


def deadline(state, rolls=None) -> Ctx:
    """The turn's deadline passes, as the timer fires it (a refused order keeps the turn open)."""
    ctx = Ctx(parse_iso(state["turn"]["deadline"]), draws=rolls or [])
    V.handle(state, {"type": "tick"}, ctx)
    return ctx


# ---- the map -------------------------------------------------------------------------


def test_map_is_consistent():
    lands = json.loads((resource("data") / "eire_map.json").read_text())["lands"]
    names = {x["name"] for x in lands}
    assert len(lands) == 42 and {"Donal", "Reudh", "Bain", "Llanc"} <= names
    by = {x["name"]: x for x in lands}
    for x in lands:
        for n in x["neighbours"]:
            assert x["name"] in by[n]["neighbours"], "adjacency is symmetric"
        # hex-grid neighbours: the adjacency graph is planar by construction
        q, r = x["hex"]
        assert all(
            tuple(by[n]["hex"])
            in {(q + a, r + b) for a, b in [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]}
            for n in x["neighbours"]
        )
    seen, stack = {"Llanc"}, ["Llanc"]
    while stack:
        for n in by[stack.pop()]["neighbours"]:
            if n not in seen:
                seen.add(n)
                stack.append(n)
    assert seen == names, "the island is connected"
    kinds = [x["type"] for x in lands]
    assert kinds.count("Menhir Valley") >= 7 + 1 and kinds.count("Deep Forest") >= 10
    assert set(kinds) == {"Plains", "Deep Forest", "Menhir Valley"}
    assert sum(x["coast"] for x in lands) >= 10


# ---- joining -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "choices,why",
    [
        (
            {"color": "Black", "tribe": "Sidhe", "origin": "Ardagh"},
            "Black is not a color of this game; the free colors",
        ),
        ({"color": "Teal", "tribe": "Elves", "origin": "Ardagh"}, "Tribe"),
        ({"color": "Teal", "tribe": "Sidhe", "origin": "Bain"}, "must start in a Menhir Valley"),
        ({"color": "Teal", "tribe": "Woodkin", "origin": "Ardagh"}, "Deep Forest"),
        ({"color": "Teal", "tribe": "Merfolk", "origin": "Emain"}, "on the coast"),
        (
            {"color": "Green", "tribe": "Sidhe", "origin": "Ardagh"},
            "Green is taken; the free colors",
        ),
        ({"color": "Teal", "tribe": "Plainsmen", "origin": "Llanc"}, "Llanc is taken"),
    ],
)
def test_join_constraints_list_the_free_choices(game, choices, why):
    with pytest.raises(Refused) as e:
        act(game, {"type": "join", "name": "Niamh", "address": "n@x.org", "choices": choices})
    assert why in e.value.reason


def test_worked_example_invest_in_llanc():
    """ "You have 90 Grain, and your Origin Land, Llanc, provides you with 20 Grain. If you invest
    half of your Grain, 45, into Llanc, this will raise Llanc's Grain output to 29"."""
    s = started([("Finn", "Green", "Merfolk", "Llanc"), ("Maeve", "Red", "Plainsmen", "Donal")])
    s["grain"]["Finn"] = 90
    orders(s, "Finn", "Invest 45 Grain in Llanc")
    orders(s, "Maeve", "Defend Donal with 1 Grain")
    assert land(s, "Llanc")["output"] == 29


def test_worked_example_bain_attacked():
    """ "dedicate 17 Grain ... Land of Bain can afford to dedicate only 10 Grain ... You roll is 6,
    their roll is 4. 17+6 = 23, 10+4 = 14"."""
    s = started([("Finn", "Green", "Merfolk", "Llanc"), ("Maeve", "Red", "Plainsmen", "Donal")])
    s["grain"]["Finn"] = 40
    orders(s, "Finn", "Attack Bain with 17 Grain")
    ctx = orders(s, "Maeve", "Defend Donal with 1 Grain", rolls=[6, 4])
    assert land(s, "Bain")["owner"] == "Finn" and land(s, "Bain")["output"] == 5  # 10 halved
    results = next(o for o in ctx.out if o.kind == "results")
    text = "\n".join(results.vars["lines"])
    assert "17 Grain + d10 6 = 23 against 10 + d10 4 = 14: wins" in text
    ((cid, stem, svg),) = results.images
    assert stem == "eire-turn-1" and svg.startswith("<svg") and f"cid:{cid}" in results.html
    assert "  Finn (Green): 2 lands: Llanc, Bain" in text or "Finn (Green): 2 lands" in text


def test_attacker_must_roll_higher(game):
    """ "If you roll higher than the opponents' defending force, you win": a tie holds."""
    game["grain"]["Finn"] = 40
    orders(game, "Finn", "Attack Bain with 10 Grain")
    orders(game, "Maeve", "Defend Donal with 1 Grain", rolls=[5, 5])
    assert land(game, "Bain")["owner"] is None


def test_defence_split_with_leftover_against_the_largest():
    """ "the Grain spent on Defense is spread as equally as possible with any leftover spent against
    the Player with highest amount"."""
    s = started(
        [
            ("Finn", "Green", "Plainsmen", "Llanc"),
            ("Maeve", "Red", "Plainsmen", "Reudh"),
            ("Oisin", "Gold", "Sidhe", "Emain"),
        ]
    )
    for p in ("Finn", "Maeve", "Oisin"):
        s["grain"][p] = 50
    orders(s, "Finn", "Attack Bain with 5 Grain")
    orders(s, "Maeve", "Attack Bain with 9 Grain")
    ctx = orders(s, "Oisin", "Attack Bain with 3 Grain", rolls=[1, 1, 1, 1, 1, 1])
    text = "\n".join(next(o for o in ctx.out if o.kind == "results").vars["lines"])
    # independent Bain defends with 10: shares 4 (largest, Maeve), 3, 3; Oisin's Sidhe +1 for Emain
    assert "Maeve: 9 Grain + d10 1 = 10 against 4 + d10 1 = 5: wins" in text
    assert "Finn: 5 Grain + d10 1 = 6 against 3 + d10 1 = 4: wins" in text
    assert "Oisin: 3 Grain + d10 1 + 1 Sidhe = 5 against 3 + d10 1 = 4: wins" in text
    assert land(s, "Bain")["owner"] == "Maeve"  # several winners: the most Grain takes it


def test_undefended_land_is_walked_into(game):
    """ "If you do not dedicate any Grain to defense of a Land, any opportunistic Player can simply
    walk ... in"."""
    act(
        game,
        {
            "type": "join",
            "name": "Oisin",
            "address": "o@x.org",
            "choices": {"color": "Gold", "tribe": "Plainsmen", "origin": "Bain"},
        },
    )
    game["grain"]["Finn"] = 30
    orders(game, "Finn", "Attack Bain with 1 Grain")
    orders(game, "Maeve", "Defend Donal with 1 Grain")
    orders(game, "Oisin", "Invest 5 Grain in Bain")
    assert land(game, "Bain")["owner"] == "Finn"


def test_origin_and_woodkin_defence_bonuses():
    """Origin Land: "+5 Grain bonus when Defending it"; Woodkin: "+5 Grain bonus when Defending in
    Deep Forest"."""
    s = started([("Finn", "Green", "Plainsmen", "Emain"), ("Bran", "Teal", "Woodkin", "Fánad")])
    s["grain"]["Finn"] = 60
    orders(s, "Finn", "Attack Fánad with 20 Grain")
    ctx = orders(s, "Bran", "Defend Fánad with 5 Grain", rolls=[10, 1])
    text = "\n".join(next(o for o in ctx.out if o.kind == "results").vars["lines"])
    assert "against 5 + d10 1 + 10 bonus = 16" in text and land(s, "Fánad")["owner"] == "Finn"


def test_land_below_5_supports_no_attack_and_output_caps_at_30(game):
    land(game, "Llanc")["output"] = 4
    game["grain"]["Finn"] = 200
    ctx = orders(game, "Finn", "Attack Bain with 10 Grain", "Invest 200 Grain in Llanc")
    assert any("cannot support an attack" in line for line in ctx.ack_lines)
    orders(game, "Maeve", "Defend Donal with 1 Grain")
    assert game["turn"]["number"] == 1  # Finn's refused attack may still be replaced
    deadline(game)
    assert land(game, "Llanc")["output"] == 30


def test_orders_are_checked_against_the_map_and_the_budget(game):
    game["grain"]["Finn"] = 10
    ctx = orders(
        game,
        "Finn",
        "Attack Cashel with 5 Grain",
        "Defend Donal with 2 Grain",
        "Defend Llanc with 8 Grain",
        "Invest 5 Grain in Llanc",
        "Attack Bainn with 1 Grain",
    )
    acks = "\n".join(ctx.ack_lines)
    assert (
        "does not border" in acks
        and "you do not hold Donal" in acks
        and "only 2 Grain left" in acks
    )
    assert "did you mean Bain?" in acks
    assert game["orders"]["Finn"]["orders"] == [
        {"kind": "defend", "land": "Llanc", "grain": 8, "text": "Defend Llanc with 8 Grain"}
    ]
    # the refused orders were never sent: Finn may send the missing ones, within the 2 Grain left
    orders(game, "Finn", "Defend Llanc with 1 Grain")
    assert [o["text"] for o in game["orders"]["Finn"]["orders"]] == [
        "Defend Llanc with 8 Grain",
        "Defend Llanc with 1 Grain",
    ]
    with pytest.raises(Refused, match="cannot edit"):
        orders(game, "Finn", "Defend Llanc with 1 Grain")


def test_income_perks():
    """Plainsmen +5 in the Origin Land; Merfolk +2 for each Land bordering the Sea."""
    s = started([("Finn", "Green", "Plainsmen", "Llanc"), ("Muir", "Cyan", "Merfolk", "Donal")])
    assert s["grain"] == {"Finn": 25, "Muir": 12}


def test_high_king_declaration_bonus_and_loss():
    """Declare when holding one's Origin, 50 Grain and two other Origin Lands; +5; lost when two
    requirements fail."""
    s = started(
        [
            ("Finn", "Green", "Plainsmen", "Bain"),
            ("Maeve", "Red", "Plainsmen", "Reudh"),
            ("Oisin", "Gold", "Plainsmen", "Llanc"),
        ]
    )
    land(s, "Reudh")["owner"] = "Finn"
    land(s, "Llanc")["owner"] = "Finn"
    land(s, "Dál Riata")["owner"] = "Maeve"
    land(s, "Ardagh")["owner"] = "Oisin"
    s["grain"].update(Finn=60, Maeve=60, Oisin=10)
    orders(s, "Finn", "Declare High King")
    orders(s, "Maeve", "Declare High King")
    orders(s, "Oisin", "Defend Ardagh with 1 Grain")
    assert s["high_king"] == "Finn"
    income = V.income(s, "Finn")
    assert income == 10 + 15 + 20 + 5 + 5  # lands, Plainsmen origin bonus, High King bonus
    land(s, "Reudh")["owner"] = "Maeve"
    land(s, "Llanc")["owner"] = "Oisin"
    s["grain"]["Finn"] = 0
    orders(s, "Finn", "Defend Bain with 1 Grain")  # refused: no Grain
    orders(s, "Maeve", "Defend Reudh with 1 Grain")
    orders(s, "Oisin", "Defend Llanc with 1 Grain")
    deadline(s)
    assert s["high_king"] is None


def test_simultaneous_claims_go_to_the_larger_grain():
    s = started(
        [
            (name, color, "Plainsmen", origin)
            for name, color, origin in (
                ("A", "Red", "Bain"),
                ("B", "Gold", "Reudh"),
                ("C", "Teal", "Llanc"),
                ("D", "Cyan", "Donal"),
            )
        ]
    )
    land(s, "Llanc")["owner"], land(s, "Donal")["owner"] = "A", "A"
    land(s, "Emain")["owner"] = "C"
    land(s, "Ardagh")["owner"] = "D"
    s["grain"].update(A=60, B=70, C=5, D=5)
    orders(s, "A", "Declare High King")
    orders(s, "B", "Declare High King")  # B does not meet the requirements
    orders(s, "C", "Defend Emain with 1 Grain")
    orders(s, "D", "Defend Ardagh with 1 Grain")
    assert s["high_king"] == "A"


def test_communion_and_dominion_victories_and_the_high_king_lock():
    s = started(
        [("Finn", "Green", "Sidhe", "Ardagh"), ("Maeve", "Red", "Plainsmen", "Donal")], communion=2
    )
    s["high_king"] = "Finn"
    land(s, "Emain")["owner"] = "Finn"
    V.check_victory(s, Ctx(NOW))
    assert s["status"] == "active"  # the High King is locked to Dominion
    s["high_king"] = None
    V.check_victory(s, Ctx(NOW))
    assert s["winners"] == ["Finn"] and s["status"] == "ended"
    s2 = started(
        [("Finn", "Green", "Plainsmen", "Llanc"), ("Maeve", "Red", "Plainsmen", "Donal")],
        dominion=3,
    )
    land(s2, "Bain")["owner"] = land(s2, "Fódla")["owner"] = "Finn"
    V.check_victory(s2, Ctx(NOW))
    assert s2["status"] == "active"  # Fódla is not contiguous: the realm is Llanc + Bain
    land(s2, "Ardagh")["owner"] = "Finn"
    V.check_victory(s2, Ctx(NOW))
    assert s2["winners"] == ["Finn"]


def test_elimination_frees_the_color_for_a_newcomer(game):
    game["grain"]["Finn"] = 50
    land(game, "Cashel")["owner"] = "Finn"
    orders(game, "Finn", "Attack Donal with 30 Grain")
    orders(game, "Maeve", "Invest 5 Grain in Donal", rolls=[1, 1])
    assert land(game, "Donal")["owner"] == "Finn"
    maeve = V.players.player(game, "Maeve")
    assert maeve["status"] == "left" and maeve["eliminated"]
    act(
        game,
        {
            "type": "join",
            "name": "Niamh",
            "address": "n@x.org",
            "choices": {"color": "Red", "tribe": "Plainsmen", "origin": "Bain"},
        },
    )
    assert V.players.player(game, "Niamh")["color"] == "Red" and game["grain"]["Niamh"] == 10 + 5


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["Attack", "Defend", "Invest"]),
            st.sampled_from(["Bain", "Ardagh", "Llanc", "Donal", "Reudh", "Cashel", "Emain"]),
            st.integers(1, 40),
        ),
        min_size=1,
        max_size=6,
    ),
    st.lists(st.integers(1, 10), min_size=40, max_size=40),
)
def test_grain_is_conserved_and_lands_partition(plan, rolls):
    s = started([("Finn", "Green", "Plainsmen", "Llanc"), ("Maeve", "Red", "Plainsmen", "Donal")])
    before = dict(s["grain"])
    sentences = [
        f"Attack {x} with {n} Grain"
        if k == "Attack"
        else f"Defend {x} with {n} Grain"
        if k == "Defend"
        else f"Invest {n} Grain in {x}"
        for k, x, n in plan
    ]
    orders(s, "Finn", *sentences)
    spent = {n: sum(o["grain"] or 0 for o in s["orders"][n]["orders"]) for n in s["orders"]}
    ctx = Ctx(NOW, draws=rolls)
    V.handle(
        s, {"type": "orders", "player": "Maeve", "sentences": ["Defend Donal with 3 Grain"]}, ctx
    )
    spent["Maeve"] = 3
    if (
        s["turn"]["number"] == 1
    ):  # one of Finn's orders was refused: the turn waits for its deadline
        V.handle(s, {"type": "tick"}, Ctx(parse_iso(s["turn"]["deadline"]), draws=rolls))
    for p in ("Finn", "Maeve"):
        if V.players.player(s, p)["status"] == "active":
            assert s["grain"][p] == before[p] - spent[p] + V.income(
                s, p
            ), "only spending and income change Grain"
    assert sorted(x["name"] for x in s["lands"]) == sorted(
        m["name"] for m in json.loads((resource("data") / "eire_map.json").read_text())["lands"]
    )
    assert all(x["owner"] in (None, "Finn", "Maeve") for x in s["lands"])


# ---- simultaneous turns, the High King's other Origin Lands, newcomers -----------


def test_every_combat_is_fought_on_the_start_of_turn_map():
    """ "The turns of all Players are SIMULTANEOUS": the Sidhe "+1 Grain bonus to all Attack/Defense
    rolls per controlled Menhir Valley" counts the valleys held when the turn began, and the lands
    change hands only after every combat (Emain, taken first in map order, does not help at
    Fánad)."""
    s = started([("Oisin", "Gold", "Sidhe", "Ardagh"), ("Maeve", "Red", "Plainsmen", "Donal")])
    s["grain"]["Oisin"] = 50
    orders(s, "Oisin", "Attack Emain with 10 Grain", "Attack Fánad with 10 Grain")
    ctx = orders(s, "Maeve", "Defend Donal with 1 Grain", rolls=[10, 1, 10, 1])
    text = "\n".join(next(o for o in ctx.out if o.kind == "results").vars["lines"])
    assert "Oisin: 10 Grain + d10 10 + 1 Sidhe = 21 against 10 + d10 1 = 11: wins" in text
    assert "+ 2 Sidhe" not in text
    assert land(s, "Emain")["owner"] == land(s, "Fánad")["owner"] == "Oisin"
    assert (land(s, "Emain")["output"], land(s, "Fánad")["output"]) == (
        4,
        2,
    )  # halved after the combats


def test_a_defender_keeps_the_bonus_of_a_valley_lost_in_the_same_turn():
    """SIMULTANEOUS: a Sidhe who loses a Menhir Valley this turn still defends elsewhere with it
    (Ardagh, index 4 on the map, is fought before Emain, index 8)."""
    s = started([("Oisin", "Gold", "Sidhe", "Ardagh"), ("Finn", "Green", "Plainsmen", "Bain")])
    land(s, "Emain")["owner"] = "Oisin"
    s["grain"].update(Oisin=50, Finn=60)
    orders(s, "Finn", "Attack Emain with 20 Grain", "Attack Ardagh with 20 Grain")
    ctx = orders(
        s, "Oisin", "Defend Ardagh with 1 Grain", "Defend Emain with 1 Grain", rolls=[10, 1, 1, 10]
    )
    text = "\n".join(next(o for o in ctx.out if o.kind == "results").vars["lines"])
    assert (
        "Finn: 20 Grain + d10 10 = 30 against 1 + d10 1 + 7 bonus = 9: wins" in text
    )  # Origin 5 + 2 valleys
    assert (
        "Finn: 20 Grain + d10 1 = 21 against 1 + d10 10 + 2 bonus = 13: wins" in text
    )  # Ardagh still counts
    assert land(s, "Ardagh")["owner"] == land(s, "Emain")["owner"] == "Finn"


def test_the_high_king_counts_the_origin_lands_of_former_enemies():
    """ "If a Player holds his Origin Land, has 50 Grain or more Total, and holds Origin Lands of at
    least 2 other Players" — decision (docs/games/eire.md): "holding several core lands of their
    (former) enemies": an eliminated player's Origin Land still counts."""
    s = started(
        [
            ("Finn", "Green", "Plainsmen", "Bain"),
            ("Maeve", "Red", "Plainsmen", "Reudh"),
            ("Oisin", "Gold", "Plainsmen", "Llanc"),
        ]
    )
    land(s, "Reudh")["owner"] = "Finn"
    land(s, "Llanc")["owner"] = "Finn"
    land(s, "Ardagh")["owner"] = "Oisin"
    s["grain"]["Finn"] = 60
    orders(s, "Finn", "Defend Bain with 1 Grain")
    orders(s, "Maeve", "Declare High King")
    orders(s, "Oisin", "Defend Ardagh with 1 Grain")
    maeve = V.players.player(s, "Maeve")
    assert (maeve["status"], maeve.get("eliminated")) == ("left", True)
    orders(s, "Finn", "Declare High King")
    orders(s, "Oisin", "Defend Ardagh with 1 Grain")
    assert s["high_king"] == "Finn"


def test_a_newcomer_joins_mid_game_and_orders_this_turn(game):
    """ "If any Player gets eliminated, another can take their color, pick an independent State, and
    try their hand" — decision: a newcomer joins while the game runs with a free color and an
    independent land, which is their Origin Land; they get its income at once and the turn waits for
    their orders."""
    with pytest.raises(Refused, match="Donal is taken"):
        act(
            game,
            {
                "type": "join",
                "name": "Oisin",
                "address": "o@x.org",
                "choices": {"color": "Gold", "tribe": "Plainsmen", "origin": "Donal"},
            },
        )
    act(
        game,
        {
            "type": "join",
            "name": "Oisin",
            "address": "o@x.org",
            "choices": {"color": "Gold", "tribe": "Plainsmen", "origin": "Bain"},
        },
    )
    oisin = V.players.player(game, "Oisin")
    assert oisin["origin"] == "Bain" and land(game, "Bain")["owner"] == "Oisin"
    assert game["grain"]["Oisin"] == V.income(game, "Oisin") == 10 + 5
    orders(game, "Finn", "Defend Llanc with 1 Grain")
    orders(game, "Maeve", "Defend Donal with 1 Grain")
    assert game["turn"]["number"] == 1  # waits for the newcomer
    orders(game, "Oisin", "Defend Bain with 1 Grain")
    assert game["turn"]["number"] == 2


def test_one_land_is_written_in_the_singular(game):
    """'1 lands' was seen in the turn mail: a count of one takes the singular."""
    lines = V.turn_lines(game)
    assert any("Finn" in line and line.endswith("1 land") for line in lines), lines
    land(game, "Bain")["owner"] = "Finn"
    lines = V.turn_lines(game)
    assert any("Finn" in line and line.endswith("2 lands") for line in lines), lines


def test_a_moved_deadline_still_reminds_and_resolves(game):
    """The GM moves the turn's deadline (`mailref deadline eire set …`): the timer that follows
    sends the reminder and then resolves the turn (it used to fail on the cleared reminder)."""
    from datetime import timedelta

    new = NOW + timedelta(hours=3)
    moved = act(
        game, {"type": "deadline", "when": new.isoformat().replace("+00:00", "Z"), "by": "gm"}
    )
    assert game["turn"]["deadline"].startswith("2026-12-01T13:00")
    assert (
        moved.ack_lines[0].startswith("Turn 1's deadline moved from ")
        and "in 3 hours" in moved.ack_lines[0]
    )
    ctx = Ctx(V.deadlines.reminder_at(game, new, game["turn"]["started"]) + timedelta(minutes=1))
    V.handle(game, {"type": "tick"}, ctx)
    assert [o.kind for o in ctx.out] == ["reminder"] and game["turn"]["number"] == 1
    assert deadline(game).out and game["turn"]["number"] == 2


def test_the_turn_mail_gives_what_a_new_player_needs_to_write_orders():
    state = new_game()
    join(state, "Finn", "Green", "Plainsmen", "Llanc")
    join(state, "Maeve", "Red", "Plainsmen", "Donal")
    ctx = act(state, {"type": "start"})
    (turn,) = [o for o in ctx.out if o.kind == "turn"]
    lines = turn.vars["lines"]
    llanc = land(state, "Llanc")
    assert f"  Llanc (output {llanc['output']}), next to " + ", ".join(llanc["neighbours"]) in lines
    assert any("Attack LAND with N Grain" in ln for ln in lines)


def test_the_map_in_words_never_breaks_a_land_name_across_lines(game):
    """The results' and the turn page's list of holdings is wrapped at 76 columns; "Dál / Riata"
    over two lines read as two lands. Every name on every line is a whole land's name."""
    names = {x["name"] for x in game["lands"]}
    lines = V.holdings(game)
    assert any(" " in n for n in names) and len(lines) > 3
    listed: list[str] = []
    for line in lines:
        assert len(line) <= 76, line
        tail = line.split(": ", 2)[-1] if ": " in line else line
        listed += [n.strip() for n in tail.split(",") if n.strip()]
    assert [n for n in listed if n not in names] == []
    assert sorted(listed) == sorted(names)


def test_a_conqueror_holding_anothers_origin_land_has_no_origin_bonus_there():
    """ "Each Player's starting Land is called 'Origin Land'. Heart of the chiefdom, its Owner
    receives +5 Grain bonus when Defending it": the heart of one's own chiefdom. Finn holds
    Bran's Origin Fánad and defends it without the +5; Bran's 18 beats Finn's 15 and retakes it."""
    s = started([("Finn", "Green", "Plainsmen", "Emain"), ("Bran", "Teal", "Woodkin", "Fánad")])
    land(s, "Fánad")["owner"], land(s, "Ardagh")["owner"] = "Finn", "Bran"
    s["grain"].update(Finn=30, Bran=30)
    orders(s, "Finn", "Defend Fánad with 5 Grain")
    ctx = orders(s, "Bran", "Attack Fánad with 17 Grain", rolls=[1, 10])
    text = "\n".join(next(o for o in ctx.out if o.kind == "results").vars["lines"])
    assert "Bran: 17 Grain + d10 1 = 18 against 5 + d10 10 = 15: wins" in text, text
    assert land(s, "Fánad")["owner"] == "Bran"


def test_a_high_king_claim_is_judged_on_the_grain_held_before_the_turns_orders_spend_it():
    """ "has 50 Grain or more Total": the orders of a turn are simultaneous, so the claim is judged
    on what the claimant held when ordering. Finn holds 60, defends with 20 and claims: High
    King."""
    s = started(
        [
            ("Finn", "Green", "Plainsmen", "Bain"),
            ("Maeve", "Red", "Plainsmen", "Reudh"),
            ("Oisin", "Gold", "Plainsmen", "Llanc"),
        ]
    )
    land(s, "Reudh")["owner"], land(s, "Llanc")["owner"] = "Finn", "Finn"
    land(s, "Dál Riata")["owner"], land(s, "Ardagh")["owner"] = "Maeve", "Oisin"
    s["grain"].update(Finn=60, Maeve=10, Oisin=10)
    orders(s, "Finn", "Defend Bain with 20 Grain", "Declare High King")
    orders(s, "Maeve", "Defend Dál Riata with 1 Grain")
    orders(s, "Oisin", "Defend Ardagh with 1 Grain")
    assert s["high_king"] == "Finn"
