"""Eire's High King and victories as a table, in the manner of the DATC: each row a position, one
turn's orders and rolls, and who holds the title or wins after it (support/eire_table.py).
Rules: seed 001 and docs/games/eire.md."""

from __future__ import annotations

import pytest

from support.eire_table import FINN, MAEVE, OISIN, SIDHE, Row, V, check, position

pytestmark = pytest.mark.spec("5.4")

# ---- High King: "holds his Origin Land, has 50 Grain or more Total, and holds Origin Lands of at
# least 2 other Players"; "loses his Status if he no longer fulfills 2 or more requirements" -----
THREE = (("Finn", "Plainsmen", "Bain"), ("Maeve", "Plainsmen", "Reudh"), OISIN)
CROWNED = {"Reudh": "Finn", "Cashel": "Finn", "Dál Riata": "Maeve", "Laigin": "Oisin"}
QUIET = {"Maeve": ("Defend Dál Riata with 1 Grain",), "Oisin": ("Defend Laigin with 1 Grain",)}
# Six players, two of whom hold the Origin Lands of two others each.
SIX = (
    *THREE,
    ("Niamh", "Plainsmen", "Llanc"),
    ("Aoife", "Plainsmen", "Donal"),
    ("Cormac", "Plainsmen", "Ardagh"),
)
TWO_CROWNS = {
    **{"Cashel": "Finn", "Llanc": "Finn", "Donal": "Maeve", "Ardagh": "Maeve"},
    **{"Laigin": "Oisin", "Emain": "Niamh", "Mide": "Aoife", "Fánad": "Cormac"},
}
SIX_QUIET = {
    name: (f"Defend {land} with 1 Grain",)
    for land, name in TWO_CROWNS.items()
    if name not in ("Finn", "Maeve")
}
HIGH_KING = {
    "a claim meeting the three requirements is proclaimed": Row(
        THREE,
        {"Finn": ("Declare High King",), **QUIET},
        holds=CROWNED,
        grain={"Finn": 50},
        king="Finn",
        said=("Finn is proclaimed High King of Eire!",),
    ),
    "49 Grain is short of the claim": Row(
        THREE,
        {"Finn": ("Declare High King",), **QUIET},
        holds=CROWNED,
        grain={"Finn": 49},
        king=None,
        said=("Finn does not meet the requirements",),
    ),
    "one other Origin Land is short of the claim": Row(
        THREE,
        {"Finn": ("Declare High King",), **QUIET},
        holds={**CROWNED, "Cashel": "Oisin"},
        king=None,
    ),
    "without one's own Origin Land there is no claim": Row(
        THREE,
        {"Finn": ("Declare High King", "Defend Reudh with 1 Grain"), **QUIET},
        holds={**CROWNED, "Bain": "Maeve"},
        king=None,
    ),
    "the claim is judged on the Grain held before the turn's orders spend it": Row(
        THREE,
        {"Finn": ("Declare High King", "Invest 40 Grain in Bain"), **QUIET},
        holds=CROWNED,
        grain={"Finn": 60},
        king="Finn",
    ),
    "simultaneous claims: the larger Grain takes the title": Row(
        SIX,
        {"Finn": ("Declare High King",), "Maeve": ("Declare High King",), **SIX_QUIET},
        holds=TWO_CROWNS,
        grain={"Finn": 60, "Maeve": 70},
        king="Maeve",
        said=("Maeve is proclaimed High King of Eire!",),
    ),
    "equal simultaneous claims: nobody takes the title this turn": Row(
        SIX,
        {"Finn": ("Declare High King",), "Maeve": ("Declare High King",), **SIX_QUIET},
        holds=TWO_CROWNS,
        grain={"Finn": 60, "Maeve": 60},
        king=None,
        said=("Several equal claims: nobody takes the title this turn.",),
    ),
    "while there is a High King no other may claim": Row(
        THREE,
        {"Finn": ("Declare High King",), **QUIET},
        holds={"Cashel": "Finn", "Dál Riata": "Maeve", "Laigin": "Oisin"},
        high_king="Maeve",
        king="Maeve",
        said=("Maeve is High King: no other may claim the title.",),
    ),
    "one requirement failing keeps the title": Row(
        THREE,
        {"Finn": ("Defend Bain with 1 Grain",), **QUIET},
        holds=CROWNED,
        grain={"Finn": 10},
        high_king="Finn",
        king="Finn",
        unsaid=("reduced to a Chiefdom",),
    ),
    "two requirements failing reduce the High King to a Chiefdom": Row(
        THREE,
        {"Finn": ("Defend Bain with 1 Grain",), **QUIET},
        holds={**CROWNED, "Cashel": "Oisin"},
        grain={"Finn": 10},
        high_king="Finn",
        king=None,
        said=("Finn no longer meets two of the High King's requirements",),
    ),
    "a High King's lands lost in combat count at the end of the turn": Row(
        THREE,
        {
            "Finn": ("Defend Bain with 1 Grain",),
            "Maeve": ("Attack Reudh with 1 Grain",),
            "Oisin": ("Attack Cashel with 1 Grain",),
        },
        holds=CROWNED,
        grain={"Finn": 10},
        high_king="Finn",
        owners={"Reudh": "Maeve", "Cashel": "Oisin"},
        king=None,
    ),
    "the Origin Land of a player eliminated this turn counts": Row(
        THREE,
        {"Finn": ("Declare High King",), "Oisin": ("Defend Laigin with 1 Grain",)},
        holds={"Reudh": "Finn", "Cashel": "Finn", "Laigin": "Oisin"},
        grain={"Finn": 60},
        king="Finn",
        eliminated=("Maeve",),
    ),
}


# ---- victory: "Dominion: Hold 22 Lands in a continuous manner"; "Communion: Hold 7 Menhir
# Valleys"; the High King "locked towards Dominion Destiny" -------------------------------------
VICTORY = {
    "Communion: the Menhir Valleys held after the turn": Row(
        (FINN, SIDHE),
        {"Finn": ("Defend Llanc with 1 Grain",), "Oisin": ("Attack Emain with 20 Grain",)},
        dice=(1, 1),
        params={"communion": 2},
        owners={"Emain": "Oisin"},
        winners=("Oisin",),
        said=("Oisin by Communion rules Eire!",),
    ),
    "the High King cannot win by Communion": Row(
        (FINN, SIDHE),
        {"Finn": ("Defend Llanc with 1 Grain",), "Oisin": ("Attack Emain with 20 Grain",)},
        dice=(1, 1),
        params={"communion": 2},
        high_king="Oisin",
        owners={"Emain": "Oisin"},
    ),
    "Dominion: a contiguous realm of the given size": Row(
        (FINN, MAEVE),
        {"Finn": ("Attack Ardagh with 20 Grain",), "Maeve": ("Defend Donal with 1 Grain",)},
        dice=(1, 1),
        params={"dominion": 3},
        holds={"Bain": "Finn"},
        winners=("Finn",),
        said=("Finn by Dominion rules Eire!",),
    ),
    "lands apart are no Dominion": Row(
        (FINN, MAEVE),
        {"Finn": ("Attack Ardagh with 20 Grain",), "Maeve": ("Defend Donal with 1 Grain",)},
        dice=(1, 1),
        params={"dominion": 3},
        holds={"Fódla": "Finn", "Eoghan": "Finn"},
        owners={"Ardagh": "Finn"},
    ),
    "two victories in one turn share it": Row(
        (FINN, SIDHE),
        {"Finn": ("Attack Bain with 20 Grain",), "Oisin": ("Attack Emain with 20 Grain",)},
        dice=(1, 1, 1, 1),
        params={"dominion": 3, "communion": 2},
        holds={"Reudh": "Finn"},
        winners=("Finn", "Oisin"),
        said=("Finn by Dominion and Oisin by Communion rule Eire!",),
    ),
}


@pytest.mark.parametrize("row", HIGH_KING.values(), ids=HIGH_KING.keys())
def test_high_king(row):
    check(row)


@pytest.mark.parametrize("row", VICTORY.values(), ids=VICTORY.keys())
def test_victory(row):
    check(row)


# ---- the claim's ack: "decided at resolution; as things stand you lack ..." --------------------
LACKING = {
    "one's Origin held, 20 Grain, no other Origin Land": (
        {**CROWNED, "Reudh": "Maeve", "Cashel": "Oisin"},
        20,
        ["50 Grain (you have 20)", "the Origin Lands of two other players"],
    ),
    "one's Origin lost, 60 Grain, two other Origin Lands": (
        {**CROWNED, "Bain": "Maeve"},
        60,
        ["your Origin Land Bain"],
    ),
}


@pytest.mark.parametrize(("holds", "grain", "lacking"), LACKING.values(), ids=LACKING.keys())
def test_a_claim_is_accepted_with_what_is_lacking_as_things_stand(holds, grain, lacking):
    """The engine's side of tests/games/test_eire_victory.py: the claim is judged at resolution,
    and its acceptance says what is lacking now, and only that."""
    state = position(THREE, holds, {})
    state["grain"]["Finn"] = grain
    accepted, rejected = V.read_orders(state, "Finn", ["Declare High King"], [])
    assert rejected == [] and [o["kind"] for o in accepted] == ["high-king"]
    note = accepted[0]["note"]
    assert note == "decided at resolution; as things stand you lack " + ", ".join(lacking)


def test_a_claim_meeting_every_requirement_is_accepted_without_a_note():
    state = position(THREE, CROWNED, {})
    accepted, rejected = V.read_orders(state, "Finn", ["Declare High King"], [])
    assert rejected == [] and "note" not in accepted[0]
