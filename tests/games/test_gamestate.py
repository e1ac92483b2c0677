"""The gamestate by mail (BlogNomic's GNDT; SPEC §5.2): the columns the seed's dynasty declares,
`[Update]` with one alteration a line, all or nothing, and a column an enacted rule adds."""

from __future__ import annotations

import pytest

from support.blognomic import NAMES, at, reply, send
from support.declared import assert_declared
from support.helpers import Outbox

pytestmark = pytest.mark.spec("5.2")

GOLD = (
    'Enact a new rule entitled "Gold" with the following text:\n'
    "Each Wizard has an amount of Gold, which is a nonnegative integer, tracked in the GNDT. "
    "Gold defaults to 10.\n"
)


@pytest.fixture
def game(blognomic_game):
    yield blognomic_game
    assert_declared(blognomic_game)  # every key the gamestate writes is declared


def values(game) -> dict:
    return game.state("blog")["gamestate"]["values"]


def refusal(game, who: str) -> str:
    m = reply(game, who)
    assert m["X-Mailref-Kind"] == "error", Outbox.body(m)
    return m["X-Mailref-Refusal"]


def test_every_wizard_has_thaum_hand_and_home_at_their_defaults(game):
    """ "Each Wizard has an amount of Thaum, which is a nonnegative integer, tracked in the
    GNDT"; "tracked as a comma-delineated list in the field "Hand""; "Each Wizard has a Home ...
    defaulting to the Wilderness"."""
    gs = game.state("blog")["gamestate"]
    assert [c["name"] for c in gs["columns"]] == ["Hand", "Home", "Thaum"]
    for n in NAMES:
        assert values(game)[n] == {"hand": [], "home": "Wilderness", "thaum": 0}


def test_an_update_alters_each_line_and_answers_old_and_new(game):
    send(
        game,
        "Ann",
        "[Update] Thaum +3 because rule 2.8",
        "Hand: Fox, Owl\nHome = Swamp",
    )
    assert values(game)["Ann"] == {"hand": ["Fox", "Owl"], "home": "Swamp", "thaum": 3}
    assert "Thaum of Ann: 0 -> 3 (because rule 2.8)" in Outbox.body(reply(game, "Ann"))
    send(game, "Ann", "[Update] Thaum of Ben +2", "Hand - Fox")
    body = Outbox.body(reply(game, "Ann"))
    assert "Thaum of Ben: 0 -> 2" in body and "Hand of Ann: Fox, Owl -> Owl" in body
    assert (values(game)["Ben"]["thaum"], values(game)["Ann"]["hand"]) == (2, ["Owl"])
    log = game.state("blog")["gamestate"]["log"]
    assert [(e["player"], e["column"], e["old"], e["new"]) for e in log[-2:]] == [
        ("Ben", "Thaum", 0, 2),
        ("Ann", "Hand", ["Fox", "Owl"], ["Owl"]),
    ]
    assert log[0]["why"] == "rule 2.8" and log[0]["source"]


def test_a_line_naming_nobody_refuses_the_whole_mail(game):
    send(game, "Ann", "[Update] Thaum +3", "Thaum of Bob +2")
    assert refusal(game, "Ann") == "column_no_owner"
    assert values(game)["Ann"]["thaum"] == 0


def test_thaum_below_zero_is_refused_whole_and_nothing_changes(game):
    """ "a nonnegative integer"; rule 3.3, Atomic Actions: all steps are one action."""
    send(game, "Ann", "[Update] Home = Swamp", "Thaum -3")
    assert refusal(game, "Ann") == "column_below"
    assert "Thaum may not go below 0" in Outbox.body(reply(game, "Ann"))
    assert values(game)["Ann"] == {"hand": [], "home": "Wilderness", "thaum": 0}


def test_a_hand_of_five_cards_is_refused(game):
    """ "A Wizard may have up to four cards in their hand"."""
    send(game, "Ann", "[Update] Hand: Fox, Owl, Fire, Flood, Fable")
    assert refusal(game, "Ann") == "column_too_long"
    assert values(game)["Ann"]["hand"] == []
    send(game, "Ann", "[Update] Hand: Fox, Owl, Fire, Flood")
    assert values(game)["Ann"]["hand"] == ["Fox", "Owl", "Fire", "Flood"]


@pytest.mark.parametrize(
    ("subject", "body", "code"),
    [
        ("[Update]", "", "update_empty"),
        ("[Update]", "I would like more Thaum please", "update_unreadable"),
        ("[Update] Gold +1", "", "no_column"),
        ("[Update] Thaum + lots", "", "column_unreadable"),
        ("[Update] Hand - Fox", "", "column_lacks"),
    ],
)
def test_an_update_that_cannot_be_made_is_refused(game, subject, body, code):
    send(game, "Ann", subject, body)
    assert refusal(game, "Ann") == code


def test_an_enacted_rule_that_declares_gold_gives_every_wizard_ten(game):
    send(game, "Ann", "[Proposal] Gold", GOLD)
    for n in ("Ben", "Cat", "Dan"):
        send(game, n, "[Vote] 1", "FOR")
    at(game, hours=12)
    assert game.state("blog")["proposals"][0]["status"] == "enacted"
    for n in NAMES:
        assert values(game)[n]["gold"] == 10
    send(game, "Ann", "[Update] Gold -4")
    assert values(game)["Ann"]["gold"] == 6


def test_status_shows_the_table(game):
    send(game, "Ann", "[Update] Thaum +3")
    send(game, "Ann", "[Status]")
    body = Outbox.body([m for m in Outbox(game).all() if m["X-Mailref-Kind"] == "status"][-1])
    assert "Gamestate:" in body and "Thaum: Ann 3, Ben 0" in body


def test_the_json_view_and_the_journal_show_each_alteration(game):
    """`mailref game show --json` has `gamestate`; `mailref journal` lists each alteration."""
    from mailref.cli.court import journal_rows
    from mailref.engine.public import public_view

    send(game, "Ann", "[Update] Thaum +3", "Home = Swamp because rule 2.14")
    shown = public_view(game.state("blog"))["gamestate"]
    assert shown["values"]["Ann"]["thaum"] == 3
    assert [c["name"] for c in shown["columns"]] == ["Hand", "Home", "Thaum"]
    last = journal_rows(game, "blog")[-1]
    assert last["action"] == "update" and last["who"] == "Ann"
    assert last["what"] == [
        "Ann updated Thaum of Ann: 0 -> 3",
        "Ann updated Home of Ann: Wilderness -> Swamp (because rule 2.14)",
    ]


def test_an_enacted_cfj_sets_a_value_and_the_game_replays(game):
    """Rule 1.11: "When a CfJ is Enacted, the Admin Enacting it shall ... correct the GNDT ... as
    specified in the CFJ"; `Set Thaum of Ben to 5` is carried out, and `replay` is identical (the
    fixture's replay check)."""
    send(game, "Ann", "[Update] Thaum +1")
    send(game, "Ann", "[CfJ] Ben's Thaum was lost", "Ben scored Fire.\nSet Thaum of Ben to 5")
    assert "Set Thaum of Ben to 5" in Outbox.body(reply(game, "Ann"))
    for n in ("Ben", "Cat", "Dan"):
        send(game, n, "[Vote] 1", "FOR")
    at(game, hours=12)
    assert values(game)["Ben"]["thaum"] == 5
    last = game.state("blog")["gamestate"]["log"][-1]
    assert (last["player"], last["old"], last["new"], last["by"]) == ("Ben", 0, 5, "cfj 1")
    results = [m for m in Outbox(game).all() if m["X-Mailref-Kind"] == "results"][-1]
    assert "Thaum of Ben: 0 -> 5 (cfj 1)." in Outbox.body(results)


def test_a_cfj_set_line_its_column_forbids_is_not_applied(game):
    send(game, "Ann", "[CfJ] Ben's Thaum", "Set Thaum of Ben to -2")
    for n in ("Ben", "Cat", "Dan"):
        send(game, n, "[Vote] 1", "FOR")
    at(game, hours=12)
    assert values(game)["Ben"]["thaum"] == 0
    results = [m for m in Outbox(game).all() if m["X-Mailref-Kind"] == "results"][-1]
    assert "not applied" in Outbox.body(results)


def test_an_undone_update_is_as_if_never_made(game):
    """`mailref undo` works on columns as on scores: the journal is replayed without it."""
    from mailref.cli.court import journal_rows

    send(game, "Ann", "[Update] Thaum +3")
    entry = journal_rows(game, "blog")[-1]["number"]
    send(game, "Ben", "[Update] Thaum of Ann +1")
    game.admin("blog", {"type": "undo", "entries": [entry]}, "gm")
    assert values(game)["Ann"]["thaum"] == 1


def test_the_ascension_address_keeps_only_the_kept_rules_columns(game):
    """The dynastic rules the Address does not keep are repealed, and their columns go."""
    from support.blognomic import play_a_dynasty_change

    send(game, "Ann", "[Update] Thaum +3")
    play_a_dynasty_change(game)  # keeps 2.1 "No Lame Scams" alone
    gs = game.state("blog")["gamestate"]
    assert gs["columns"] == [] and gs["values"]["Ann"] == {}
    assert gs["log"][0]["new"] == 3  # what was altered stays on record


def test_a_dice_roll_in_an_update_is_used_as_the_gndt_does(game):
    """Rule 4.1, Dice: "post DICEX in the comments field of the GNDT"; a `DICE6` line is a roll
    journaled with the update, and `Thaum +DICE6` adds the roll."""
    send(game, "Ann", "[Update] Thaum +DICE6 because rule 2.6", "DICE20 for the deal")
    st = game.state("blog")
    first, second = st["rolls"][-2:]
    assert (first["dice"], second["dice"], second["why"]) == ("DICE6", "DICE20", "for the deal")
    assert values(game)["Ann"]["thaum"] == first["values"][0]
    body = Outbox.body(reply(game, "Ann"))
    assert f"Ann rolled DICE20: {second['values'][0]}" in body


def test_the_gm_declares_a_column_by_mail_and_a_player_may_not(game):
    from support.helpers import send_mail

    send(game, "Ann", "[Column] Gold integer", "Default: 10")
    assert refusal(game, "Ann") == "only_gm_declares_columns"
    (welcome,) = [m for m in Outbox(game).to("gm@ref.example") if "is open at" in m["Subject"]]
    send_mail(
        game,
        "gm@ref.example",
        "blog@ref.example",
        "[Column] Gold integer",
        "Default: 10\nMin: 0",
        in_reply_to=welcome["Message-ID"],
    )
    assert all(values(game)[n]["gold"] == 10 for n in NAMES)
    send(game, "Ann", "[Update] Gold -11")
    assert refusal(game, "Ann") == "column_below"


def test_the_gms_digest_shows_the_table(game):
    send(game, "Ann", "[Update] Thaum +3")
    game.admin("blog", {"type": "digest"}, "gm")
    digest = [m for m in Outbox(game).all() if m["X-Mailref-Kind"] == "digest"][-1]
    assert "Thaum: Ann 3, Ben 0" in Outbox.body(digest)


def test_a_game_may_restrict_updates_to_ones_own_values(game):
    """Rule 4.2: "Any Wizard may update any Wizard's data" is the default; `own_data_only` keeps
    each to their own (the GM's decision)."""
    send(game, "Ann", "[Update] Thaum of Ben +1")
    assert values(game)["Ben"]["thaum"] == 1
    game.admin("blog", {"type": "set", "values": {"own_data_only": "on"}}, "gm")
    send(game, "Ann", "[Update] Thaum +1", "Thaum of Ben +1")
    assert refusal(game, "Ann") == "column_not_yours"
    assert (values(game)["Ann"]["thaum"], values(game)["Ben"]["thaum"]) == (0, 1)
    send(game, "Ann", "[Update] Thaum of Ann +1")
    assert values(game)["Ann"]["thaum"] == 1
