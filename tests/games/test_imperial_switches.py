"""Imperial's mechanics as switches bound to the rules that state them: the Senate passes an
amendment, the Emperor accepts it, and the referee follows the new text."""

from __future__ import annotations

import pytest

from mailref.engine.ruleparams import read
from mailref.engine.variants.rule_tables import IMPERIAL
from support import imperial as emp
from support.helpers import Outbox
from support.joining import confirm

pytestmark = pytest.mark.spec("5.1")


def _accepted(game, title: str, body: str) -> int:
    """Ann proposes; Ben, Cat and Dan vote YES; the Emperor accepts it at the deadline."""
    emp.send(game, "Ann", f"[Proposal] {title}", body)
    number = max(p["number"] for p in game.state("empire")["proposals"])
    for n in ("Ben", "Cat", "Dan"):
        emp.send(game, n, f"Re: [Proposal {number}] {title}", "YES")
    emp.at(game, days=4, seconds=1)
    emp.send(game, "Joe", f"[Judge] {number}", "ACCEPT")
    assert emp.prop(game, number)["status"] == "accepted"
    return number


@pytest.mark.parametrize(
    ("name", "text", "word"),
    [
        (
            "veto",
            "TIE will judge each proposal submitted and accept, veto or ignore it.",
            "allowed",
        ),
        ("veto", "TIE will judge each proposal submitted and accept or ignore it.", "refused"),
        ("veto", "TIE will judge each proposal and may not veto it.", None),
        (
            "senators",
            "A person then becomes an Imperial Senator at the submission of their first Proposal.",
            "submission",
        ),
        ("senators", "A person becomes an Imperial Senator only by Directive.", "directive"),
        ("senators", "Only a Directive makes Senators.", "directive"),
        ("senators", "Proposals are sent to THS.", None),
    ],
)
def test_imperial_switch_forms(name, text, word):
    assert read(IMPERIAL[name], text) == word


def test_rule_7_without_veto_refuses_the_emperors_veto_citing_rule_7_as_it_reads(
    imperial_game, outbox
):
    """Rule 7 amended to "accept or ignore"; the Emperor's VETO used to be accepted. Now it is
    refused, quoting rule 7 as it now reads, and the judge mail no longer offers it."""
    game = imperial_game
    _accepted(
        game,
        "No veto",
        'In rule 7, replace "accept, veto or ignore it" with "accept or ignore it".\n',
    )
    assert game.state("empire")["parameters"]["veto"] == "refused"
    assert "(veto: allowed -> refused)" in Outbox.body(emp.reply(game, "Ben"))

    emp.send(game, "Ben", "[Proposal] Hats", 'Enact rule 40 "Hats":\nHats exist.\n')
    for n in ("Ann", "Cat", "Dan"):
        emp.send(game, n, "Re: [Proposal 2] Hats", "YES")
    emp.at(game, days=4, seconds=1)
    judge = [m for m in outbox.all() if m["X-Mailref-Kind"] == "judge"][-1]
    assert "ACCEPT, or IGNORE" in " ".join(Outbox.body(judge).split())
    emp.send(game, "Joe", "[Judge] 2", "VETO")
    refusal = " ".join(Outbox.body(emp.reply(game, "Joe")).split())
    assert 'rule 7 now reads "TIE will judge each proposal submitted and accept or ignore it.' in (
        refusal
    )
    assert emp.prop(game, 2)["status"] == "awaiting-judgement"
    emp.send(game, "Joe", "[Judge] 2", "ACCEPT")
    assert emp.prop(game, 2)["status"] == "accepted"


def test_rule_3_senators_only_by_directive_keeps_a_newcomer_from_the_senate(imperial_game, outbox):
    """Rule 3 amended so that Senators are made only by Directive; a newcomer's first proposal
    used to make her a Senator still. Now it does not, her ack says why, and neither the
    proposal's announcement nor a refused ballot quotes rule 3 as it first read."""
    game = imperial_game
    _accepted(
        game,
        "Senators by Directive",
        "Amend rule 3 to read:\nA Proposal is submitted by sending it by electronic mail or the "
        "World Wide Web to THS. A person becomes an Imperial Senator only by Directive of the "
        "Emperor.\n",
    )
    assert game.state("empire")["parameters"]["senators"] == "directive"
    emp.send(game, "Kim", "[Join]", "Name: Kim")
    confirm(game, emp.addr("Kim"))
    emp.send(game, "Kim", "[Proposal] Boats", 'Enact rule 41 "Boats":\nBoats exist.\n')
    ack = " ".join(Outbox.body(emp.reply(game, "Kim")).split())
    assert "makes Senators only by the Emperor's Directive" in ack
    kim = next(p for p in game.state("empire")["players"] if p["name"] == "Kim")
    assert "senator" not in kim["offices"]
    # Nobody is told rule 3's removed sentence: not the voters, not Kim refused a ballot.
    number = max(p["number"] for p in game.state("empire")["proposals"])
    assert "only by the Emperor's Directive (rule 3)" in Outbox.body(
        [m for m in outbox.all() if m["X-Mailref-Kind"] == "announcement"][-1]
    )
    emp.send(game, "Ben", "[Proposal] Roads", 'Enact rule 42 "Roads":\nRoads exist.\n')
    emp.send(game, "Kim", f"[Vote] {number + 1}", "YES")
    refusal = " ".join(Outbox.body(emp.reply(game, "Kim")).split())
    assert "rule 3 now makes Senators only by the Emperor's Directive" in refusal
    assert "first proposal" not in refusal


@pytest.mark.parametrize(
    ("text", "name", "word"),
    [
        ("One YES suffices to pass a proposal to the Emperor.", "majority", "one"),
        ("A person becomes an Imperial Senator only by Directive.", "senators", "directive"),
    ],
)
def test_a_new_rule_stating_a_switch_sets_it(imperial_game, text, name, word):
    """A new rule that states a switch sets it as an amendment of its own rule does, and the
    ruleset mail says the referee runs the new rule."""
    game = imperial_game
    _accepted(game, "New way", f'Enact rule 40 "New Way":\n{text}\n')
    assert game.state("empire")["parameters"][name] == word
    assert "runs new rule 40 as it reads" in Outbox.body(emp.reply(game, "Ben"))


def test_a_new_rule_allowing_abstain_lets_a_senator_abstain(imperial_game, outbox):
    """A new rule "A Senator may vote ABSTAIN." is accepted; a Senator's ABSTAIN used to be
    refused. Now it is recorded, and counts for neither side: YES 1 of 3 entitled is still no
    majority."""
    game = imperial_game
    emp.send(game, "Ben", "[Proposal] Hats", 'Enact rule 40 "Hats":\nHats exist.\n')
    emp.send(game, "Cat", "Re: [Proposal 1] Hats", "ABSTAIN")
    assert "not a vote" in Outbox.body(emp.reply(game, "Cat"))
    emp.at(game, days=4, seconds=1)
    _accepted(game, "Abstentions", 'Enact rule 41 "Abstentions":\nA Senator may vote ABSTAIN.\n')
    assert game.state("empire")["parameters"]["abstain_vote"] == "taken"

    emp.send(game, "Ben", "[Proposal] Caps", 'Enact rule 42 "Caps":\nCaps exist.\n')
    number = max(p["number"] for p in game.state("empire")["proposals"])
    emp.send(game, "Cat", f"Re: [Proposal {number}] Caps", "ABSTAIN")
    emp.send(game, "Dan", f"Re: [Proposal {number}] Caps", "ABSTAIN")
    emp.send(game, "Ann", f"Re: [Proposal {number}] Caps", "YES")
    assert emp.prop(game, number)["votes"]["Cat"] == "ABSTAIN"
    emp.at(game, days=4, seconds=1)
    assert emp.prop(game, number)["status"] == "rejected"


def _help(game) -> str:
    emp.send(game, "Ben", "[Help]", "")
    sent = [m for m in Outbox(game).all() if m["To"] == emp.addr("Ben")]
    assert sent[-1]["X-Mailref-Kind"] == "help", sent[-1]["Subject"]
    return " ".join(Outbox.body(sent[-1]).split())


def test_help_offers_no_veto_once_rule_7_names_none(imperial_game):
    """[Help] used to list "[Judge] N ACCEPT|VETO|IGNORE" after rule 7 lost its veto; it reads
    the switch as the refusal does."""
    game = imperial_game
    assert "ACCEPT|VETO|IGNORE" in _help(game)
    _accepted(
        game,
        "No veto",
        'In rule 7, replace "accept, veto or ignore it" with "accept or ignore it".\n',
    )
    text = _help(game)
    assert "[Judge] N ACCEPT|IGNORE reason" in text
    assert "VETO" not in text


def test_help_makes_no_senator_of_a_proposal_once_rule_3_says_directive(imperial_game):
    """[Help] used to promise "your first proposal makes you an Imperial Senator" after rule 3
    made Senators only by Directive."""
    game = imperial_game
    assert "your first proposal makes you an Imperial Senator" in _help(game)
    _accepted(
        game,
        "Senators by Directive",
        "Amend rule 3 to read:\nA Proposal is submitted by sending it by electronic mail or the "
        "World Wide Web to THS. A person becomes an Imperial Senator only by Directive of the "
        "Emperor.\n",
    )
    text = _help(game)
    assert "first proposal makes you" not in text
    assert "Senators are made only by the Emperor's Directive" in text


def test_help_names_the_b_rules_from_rule_15_as_amended(imperial_game):
    """Rule 15's boundary moved by Proclamation: the referee ran the new one while [Help]
    still said the B rules were "21 and up"."""
    game = imperial_game
    emp.send(
        game,
        "Joe",
        "[Proclamation] Longer A",
        'In rule 15, replace "1 through 20 inclusive" with "1 through 25 inclusive".\n'
        'In rule 15, replace "numbered 21 or higher" with "numbered 26 or higher".\n',
    )
    assert game.state("empire")["parameters"]["first_b_rule"] == 26
    text = _help(game)
    assert "a playtest of the B rules (rules 26 and up)" in text
    assert "rules 21 and up" not in text
