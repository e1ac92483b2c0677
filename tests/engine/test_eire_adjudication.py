"""Eire's adjudication as a table, in the manner of the DATC: each row is a position (who holds
which land, its output, each player's Grain), the orders of one turn and the d10s the turn rolls,
and what the turn must come to: combat, split defence, devastation and investment, and the orders
a position refuses. The rules are driven directly (no mail, no store); a row names exactly the
rolls its turn uses (support/eire_table.py). Rules: seed 001 and docs/games/eire.md."""

from __future__ import annotations

import pytest

from support.eire_table import BRAN, FINN, MAEVE, OISIN, SIDHE, Row, V, check, play, position

pytestmark = pytest.mark.spec("5.4")

# ---- combat: "d10 + Grain = your number. If you roll higher ..., you win" ------------------
COMBAT = {
    "the text's worked example: 17 + 6 against Bain's 10 + 4": Row(
        (FINN, MAEVE),
        {"Finn": ("Attack Bain with 17 Grain",), "Maeve": ("Defend Donal with 1 Grain",)},
        dice=(6, 4),
        owners={"Bain": "Finn"},
        outputs={"Bain": 5},
        said=("Finn: 17 Grain + d10 6 = 23 against 10 + d10 4 = 14: wins",),
    ),
    "one more than the defence wins": Row(
        (FINN, MAEVE),
        {"Finn": ("Attack Bain with 12 Grain",), "Maeve": ("Defend Donal with 1 Grain",)},
        dice=(1, 2),
        owners={"Bain": "Finn"},
        said=("Finn: 12 Grain + d10 1 = 13 against 10 + d10 2 = 12: wins",),
    ),
    "a tie holds: the attacker must roll higher": Row(
        (FINN, MAEVE),
        {"Finn": ("Attack Bain with 10 Grain",), "Maeve": ("Defend Donal with 1 Grain",)},
        dice=(5, 5),
        owners={"Bain": None},
        outputs={"Bain": 10},
        said=("= 15 against 10 + d10 5 = 15: is repelled", "Bain holds."),
    ),
    "an independent land defends with independent_defense": Row(
        (FINN, MAEVE),
        {"Finn": ("Attack Bain with 5 Grain",), "Maeve": ("Defend Donal with 1 Grain",)},
        dice=(1, 1),
        params={"independent_defense": 3},
        owners={"Bain": "Finn"},
        said=("Finn: 5 Grain + d10 1 = 6 against 3 + d10 1 = 4: wins",),
    ),
    "a player's defended land holds on a tie": Row(
        (FINN, MAEVE),
        {"Finn": ("Attack Reudh with 10 Grain",), "Maeve": ("Defend Reudh with 8 Grain",)},
        dice=(4, 6),
        holds={"Bain": "Finn", "Reudh": "Maeve"},
        owners={"Reudh": "Maeve"},
        outputs={"Reudh": 15},
        said=("Reudh (Maeve) attacked by Finn with 10", "against 8 + d10 6 = 14: is repelled"),
    ),
    "a player's defended land falls to a higher total": Row(
        (FINN, MAEVE),
        {"Finn": ("Attack Reudh with 10 Grain",), "Maeve": ("Defend Reudh with 8 Grain",)},
        dice=(5, 6),
        holds={"Bain": "Finn", "Reudh": "Maeve"},
        owners={"Reudh": "Finn"},
        said=("Reudh falls to Finn; its output is halved, 15 -> 7.",),
    ),
    "an undefended player's land is walked into, without rolls": Row(
        (FINN, MAEVE),
        {"Finn": ("Attack Reudh with 1 Grain",), "Maeve": ("Defend Donal with 1 Grain",)},
        holds={"Bain": "Finn", "Reudh": "Maeve"},
        owners={"Reudh": "Finn"},
        outputs={"Reudh": 7},
        said=("undefended: the attackers walk in",),
    ),
    "walked into by two: the most Grain takes it": Row(
        (FINN, MAEVE, OISIN),
        {
            "Finn": ("Attack Reudh with 3 Grain",),
            "Maeve": ("Defend Donal with 1 Grain",),
            "Oisin": ("Attack Reudh with 5 Grain",),
        },
        holds={"Bain": "Finn", "Reudh": "Maeve"},
        owners={"Reudh": "Oisin"},
        said=("Reudh (Maeve) attacked by Oisin with 5, Finn with 3", "falls to Oisin"),
    ),
    "with walk_in off an undefended land is fought for": Row(
        (FINN, MAEVE),
        {"Finn": ("Attack Reudh with 1 Grain",), "Maeve": ("Defend Donal with 1 Grain",)},
        dice=(1, 5),
        params={"walk_in": False},
        holds={"Bain": "Finn", "Reudh": "Maeve"},
        owners={"Reudh": "Maeve"},
        said=("Finn: 1 Grain + d10 1 = 2 against 0 + d10 5 = 5: is repelled",),
    ),
    "an independent land is never walked into": Row(
        (FINN, MAEVE),
        {"Finn": ("Attack Bain with 1 Grain",), "Maeve": ("Defend Donal with 1 Grain",)},
        dice=(10, 1),
        owners={"Bain": None},
        said=("Finn: 1 Grain + d10 10 = 11 against 10 + d10 1 = 11: is repelled",),
        unsaid=("walk in",),
    ),
    "the Origin Land defends with +5": Row(
        (FINN, MAEVE),
        {"Finn": ("Attack Donal with 10 Grain",), "Maeve": ("Defend Donal with 2 Grain",)},
        dice=(5, 9),
        holds={"Reudh": "Finn"},
        owners={"Donal": "Maeve"},
        said=("Finn: 10 Grain + d10 5 = 15 against 2 + d10 9 + 5 bonus = 16: is repelled",),
    ),
    "the Origin Land falls to a total above defence, roll and bonus": Row(
        (FINN, MAEVE),
        {"Finn": ("Attack Donal with 10 Grain",), "Maeve": ("Defend Donal with 2 Grain",)},
        dice=(5, 7),
        holds={"Reudh": "Finn", "Cashel": "Maeve"},
        owners={"Donal": "Finn"},
        outputs={"Donal": 5},
        said=("Finn: 10 Grain + d10 5 = 15 against 2 + d10 7 + 5 bonus = 14: wins",),
    ),
    "a conqueror holding another's Origin Land defends it without the bonus": Row(
        (FINN, MAEVE),
        {"Finn": ("Defend Donal with 5 Grain",), "Maeve": ("Attack Donal with 10 Grain",)},
        dice=(1, 6),
        holds={"Donal": "Finn", "Cashel": "Maeve"},
        owners={"Donal": "Finn"},
        said=("Maeve: 10 Grain + d10 1 = 11 against 5 + d10 6 = 11: is repelled",),
    ),
    "a Woodkin defends its Deep Forest Origin with both bonuses": Row(
        (FINN, BRAN),
        {"Finn": ("Attack Fánad with 20 Grain",), "Bran": ("Defend Fánad with 5 Grain",)},
        dice=(1, 6),
        holds={"Ardagh": "Finn"},
        owners={"Fánad": "Bran"},
        said=("Finn: 20 Grain + d10 1 = 21 against 5 + d10 6 + 10 bonus = 21: is repelled",),
    ),
    "a Woodkin has +5 in any Deep Forest it holds": Row(
        (FINN, BRAN),
        {"Finn": ("Attack Bréifne with 12 Grain",), "Bran": ("Defend Bréifne with 5 Grain",)},
        dice=(1, 3),
        holds={"Ardagh": "Finn", "Bréifne": "Bran"},
        owners={"Bréifne": "Bran"},
        said=("against 5 + d10 3 + 5 bonus = 13: is repelled",),
    ),
    "a Woodkin outside a Deep Forest has no bonus": Row(
        (FINN, BRAN),
        {"Finn": ("Attack Emain with 10 Grain",), "Bran": ("Defend Emain with 5 Grain",)},
        dice=(1, 5),
        holds={"Ardagh": "Finn", "Emain": "Bran"},
        owners={"Emain": "Finn"},
        outputs={"Emain": 4},
        said=("Finn: 10 Grain + d10 1 = 11 against 5 + d10 5 = 10: wins",),
    ),
    "a Sidhe attacks with +1 a Menhir Valley held": Row(
        (FINN, SIDHE),
        {"Finn": ("Defend Llanc with 1 Grain",), "Oisin": ("Attack Bain with 10 Grain",)},
        dice=(1, 1),
        holds={"Emain": "Oisin"},
        owners={"Bain": "Oisin"},
        said=("Oisin: 10 Grain + d10 1 + 2 Sidhe = 13 against 10 + d10 1 = 11: wins",),
    ),
    "a Sidhe defends its Origin valley with the Origin and Sidhe bonuses": Row(
        (FINN, SIDHE),
        {"Finn": ("Attack Ardagh with 10 Grain",), "Oisin": ("Defend Ardagh with 1 Grain",)},
        dice=(1, 5),
        owners={"Ardagh": "Oisin"},
        said=("Finn: 10 Grain + d10 1 = 11 against 1 + d10 5 + 6 bonus = 12: is repelled",),
    ),
    "Defend and Attack Grain is spent whatever the outcome": Row(
        (FINN, MAEVE),
        {"Finn": ("Attack Bain with 10 Grain",), "Maeve": ("Defend Donal with 7 Grain",)},
        dice=(1, 10),
        grain={"Finn": 40, "Maeve": 30},
        owners={"Bain": None},
        grain_after={"Finn": 30 + 25, "Maeve": 23 + 15},  # and next turn's income
    ),
}


# ---- split defence: "spread as equally as possible with any leftover spent against the Player
# with highest amount"; "falls into the hands of the Player that dedicated more Grain" ---------
SPLIT = {
    "three on an independent land: 10 splits 4, 3, 3, the 4 against the largest": Row(
        (FINN, MAEVE, SIDHE),
        {
            "Finn": ("Attack Bain with 5 Grain",),
            "Maeve": ("Attack Bain with 9 Grain",),
            "Oisin": ("Attack Bain with 3 Grain",),
        },
        dice=(1, 1, 1, 1, 1, 1),
        holds={"Reudh": "Maeve"},
        owners={"Bain": "Maeve"},
        said=(
            "Bain (independent) attacked by Maeve with 9, Finn with 5, Oisin with 3",
            "Maeve: 9 Grain + d10 1 = 10 against 4 + d10 1 = 5: wins",
            "Finn: 5 Grain + d10 1 = 6 against 3 + d10 1 = 4: wins",
            "Oisin: 3 Grain + d10 1 + 1 Sidhe = 5 against 3 + d10 1 = 4: wins",
        ),
    ),
    "equal attacks: the leftover goes against the first by name": Row(
        (FINN, MAEVE, OISIN),
        {
            "Finn": ("Attack Reudh with 6 Grain",),
            "Maeve": ("Defend Reudh with 7 Grain",),
            "Oisin": ("Attack Reudh with 6 Grain",),
        },
        dice=(1, 1, 3, 1),
        holds={"Bain": "Finn", "Reudh": "Maeve"},
        owners={"Reudh": "Oisin"},
        outputs={"Reudh": 7},
        said=(
            "Finn: 6 Grain + d10 1 = 7 against 4 + d10 1 = 5: wins",
            "Oisin: 6 Grain + d10 3 = 9 against 3 + d10 1 = 4: wins",
            "Reudh falls to Oisin",
        ),
    ),
    "winners with equal Grain: the higher combat total takes it": Row(
        (FINN, MAEVE, OISIN),
        {
            "Finn": ("Attack Reudh with 6 Grain",),
            "Maeve": ("Defend Reudh with 6 Grain",),
            "Oisin": ("Attack Reudh with 6 Grain",),
        },
        dice=(4, 1, 2, 1),
        holds={"Bain": "Finn", "Reudh": "Maeve"},
        owners={"Reudh": "Finn"},
        said=("Finn: 6 Grain + d10 4 = 10", "Oisin: 6 Grain + d10 2 = 8", "falls to Finn"),
    ),
    "winners with equal Grain and total: the first by name takes it": Row(
        (FINN, MAEVE, OISIN),
        {
            "Finn": ("Attack Donal with 8 Grain",),
            "Maeve": ("Defend Donal with 4 Grain",),
            "Oisin": ("Attack Donal with 8 Grain",),
        },
        dice=(1, 1, 1, 1),
        holds={"Reudh": "Finn", "Laigin": "Maeve"},
        owners={"Donal": "Finn"},
        said=(
            "Finn: 8 Grain + d10 1 = 9 against 2 + d10 1 + 5 bonus = 8: wins",
            "Oisin: 8 Grain + d10 1 = 9 against 2 + d10 1 + 5 bonus = 8: wins",
        ),
    ),
    "the larger attack repelled, the smaller wins and takes the land": Row(
        (FINN, MAEVE, OISIN),
        {
            "Finn": ("Attack Reudh with 12 Grain",),
            "Maeve": ("Defend Reudh with 10 Grain",),
            "Oisin": ("Attack Reudh with 4 Grain",),
        },
        dice=(1, 9, 8, 1),
        holds={"Bain": "Finn", "Reudh": "Maeve"},
        owners={"Reudh": "Oisin"},
        said=(
            "Finn: 12 Grain + d10 1 = 13 against 5 + d10 9 = 14: is repelled",
            "Oisin: 4 Grain + d10 8 = 12 against 5 + d10 1 = 6: wins",
        ),
    ),
    "a defence smaller than the attackers leaves some a share of 0": Row(
        (FINN, MAEVE, OISIN),
        {
            "Finn": ("Attack Reudh with 2 Grain",),
            "Maeve": ("Defend Reudh with 1 Grain",),
            "Oisin": ("Attack Reudh with 3 Grain",),
        },
        dice=(1, 1, 1, 1),
        holds={"Bain": "Finn", "Reudh": "Maeve"},
        owners={"Reudh": "Oisin"},
        said=(
            "Oisin: 3 Grain + d10 1 = 4 against 1 + d10 1 = 2: wins",
            "Finn: 2 Grain + d10 1 = 3 against 0 + d10 1 = 1: wins",
        ),
    ),
}


# ---- devastation: "The Grain output of the State is thus HALVED"; below 5 it supports no
# attack; investment "+1 per 5 Grain ... caps at 30" ---------------------------------------------
DEVASTATION = {
    "a conquered land's output is halved, rounded down": Row(
        (FINN, MAEVE),
        {"Finn": ("Attack Reudh with 1 Grain",), "Maeve": ("Defend Donal with 1 Grain",)},
        holds={"Bain": "Finn", "Reudh": "Maeve"},
        owners={"Reudh": "Finn"},
        outputs={"Reudh": 7},
        said=("its output is halved, 15 -> 7.",),
    ),
    "a devastated land can still be attacked and is halved again": Row(
        (FINN, MAEVE),
        {"Finn": ("Attack Reudh with 1 Grain",), "Maeve": ("Defend Donal with 1 Grain",)},
        holds={"Bain": "Finn", "Reudh": "Maeve"},
        output={"Reudh": 3},
        owners={"Reudh": "Finn"},
        outputs={"Reudh": 1},
    ),
    "a land of exactly 5 supports an attack": Row(
        (FINN, MAEVE),
        {"Finn": ("Attack Bain with 20 Grain",), "Maeve": ("Defend Donal with 1 Grain",)},
        dice=(1, 1),
        output={"Llanc": 5},
        owners={"Bain": "Finn"},
    ),
    "the text's worked example: 45 Grain in Llanc raises 20 to 29": Row(
        (FINN, MAEVE),
        {"Finn": ("Invest 45 Grain in Llanc",), "Maeve": ("Defend Donal with 1 Grain",)},
        grain={"Finn": 90},
        outputs={"Llanc": 29},
        said=("Finn invests 45 Grain in Llanc: output 20 -> 29",),
    ),
    "investment: the remainder of 5 is spent and yields nothing": Row(
        (FINN, MAEVE),
        {"Finn": ("Invest 9 Grain in Llanc",), "Maeve": ("Invest 4 Grain in Donal",)},
        grain={"Finn": 9, "Maeve": 4},
        outputs={"Llanc": 21, "Donal": 10},
        said=("output 20 -> 21", "Maeve invests 4 Grain in Donal: output 10 -> 10"),
        grain_after={"Finn": 21 + 5, "Maeve": 10 + 5},  # nothing left, and the income
    ),
    "investment caps output at 30": Row(
        (FINN, MAEVE),
        {"Finn": ("Invest 100 Grain in Llanc",), "Maeve": ("Defend Donal with 1 Grain",)},
        outputs={"Llanc": 30},
        said=("Finn invests 100 Grain in Llanc: output 20 -> 30 (cap 30)",),
    ),
    "a devastated land is rebuilt by investment": Row(
        (FINN, MAEVE),
        {"Finn": ("Invest 5 Grain in Bain",), "Maeve": ("Defend Donal with 1 Grain",)},
        holds={"Bain": "Finn"},
        output={"Bain": 4},
        outputs={"Bain": 5},
    ),
    "Grain invested in a land that falls this turn is lost": Row(
        (FINN, MAEVE),
        {"Finn": ("Attack Reudh with 1 Grain",), "Maeve": ("Invest 10 Grain in Reudh",)},
        holds={"Bain": "Finn", "Reudh": "Maeve"},
        owners={"Reudh": "Finn"},
        outputs={"Reudh": 7},
        said=("Maeve's 10 Grain in Reudh is lost: the land fell this turn.",),
    ),
    "every combat is fought on the map as the turn began": Row(
        (FINN, SIDHE),
        {
            "Finn": ("Defend Llanc with 1 Grain",),
            "Oisin": ("Attack Emain with 10 Grain", "Attack Fánad with 10 Grain"),
        },
        dice=(10, 1, 10, 1),
        owners={"Emain": "Oisin", "Fánad": "Oisin"},
        outputs={"Emain": 4, "Fánad": 2},
        said=("Oisin: 10 Grain + d10 10 + 1 Sidhe = 21 against 10 + d10 1 = 11: wins",),
        unsaid=("+ 2 Sidhe",),
    ),
    "a land lost this turn still supports the attack ordered from it": Row(
        (FINN, MAEVE),
        {"Finn": ("Attack Cashel with 10 Grain",), "Maeve": ("Attack Reudh with 1 Grain",)},
        dice=(10, 1),
        holds={"Reudh": "Finn", "Bain": "Finn"},
        owners={"Reudh": "Maeve", "Cashel": "Finn"},
    ),
    "the last land lost eliminates its holder, who is told in the results": Row(
        (FINN, MAEVE),
        {"Finn": ("Attack Donal with 30 Grain",), "Maeve": ("Invest 5 Grain in Donal",)},
        holds={"Cashel": "Finn"},
        owners={"Donal": "Finn"},
        said=("Maeve holds no land and is eliminated; the color Gold is free.",),
        eliminated=("Maeve",),
    ),
}


@pytest.mark.parametrize("row", COMBAT.values(), ids=COMBAT.keys())
def test_combat(row):
    check(row)


@pytest.mark.parametrize("row", SPLIT.values(), ids=SPLIT.keys())
def test_split_defence(row):
    check(row)


@pytest.mark.parametrize("row", DEVASTATION.values(), ids=DEVASTATION.keys())
def test_devastation_and_investment(row):
    check(row)


# ---- orders the position refuses: (position, order) -> why ---------------------------------
REFUSED = {
    "a land bordering none of yours": ({}, {}, "Attack Cashel with 5 Grain", "does not border"),
    "a land of yours": ({}, {}, "Attack Llanc with 5 Grain", "Llanc is already yours"),
    "defending a land not yours": ({}, {}, "Defend Donal with 5 Grain", "you do not hold Donal"),
    "investing in a land not yours": ({}, {}, "Invest 5 Grain in Bain", "you do not hold Bain"),
    "an attack from a devastated land": (
        {},
        {"Llanc": 4},
        "Attack Bain with 5 Grain",
        "produce below 5 Grain and cannot support an attack",
    ),
    "a devastated land is supported by no neighbour": (
        {"Ardagh": "Finn"},
        {"Llanc": 4, "Ardagh": 4},
        "Attack Bain with 5 Grain",
        "cannot support an attack",
    ),
    "more Grain than held": ({}, {}, "Attack Bain with 101 Grain", "only 100 Grain left"),
    "an unknown land": ({}, {}, "Attack Bainn with 5 Grain", "did you mean Bain?"),
}


@pytest.mark.parametrize(
    ("holds", "output", "sentence", "why"), REFUSED.values(), ids=REFUSED.keys()
)
def test_orders_the_position_refuses(holds, output, sentence, why):
    state = position((FINN, MAEVE), holds, output)
    accepted, rejected = V.read_orders(state, "Finn", [sentence], [])
    assert accepted == [] and len(rejected) == 1 and why in rejected[0][1]


def test_a_player_eliminated_in_the_turn_reads_its_results_and_has_no_next_turn():
    """Everybody who played the turn gets its results, the one it eliminated too; the next turn
    is not theirs (the engine's side of tests/games/test_eire_elimination.py)."""
    state, ctx = play(
        DEVASTATION["the last land lost eliminates its holder, who is told in the results"]
    )
    (results,) = [o for o in ctx.out if o.kind == "results"]
    assert sorted(results.to) == ["Finn", "Maeve"]
    assert V.players.player(state, "Maeve")["status"] == "left"
    assert [p["name"] for p in V.players.active(state)] == ["Finn"]
