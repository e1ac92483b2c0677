"""BlogNomic's mechanics as switches bound to the rules that state them: the Wizards pass an
amendment by mail, and the referee follows the new text."""

from __future__ import annotations

import pytest

from mailref.engine.ruleparams import read
from mailref.engine.variants.rule_tables import BLOGNOMIC
from support import blognomic as bn
from support.helpers import Outbox

pytestmark = pytest.mark.spec("5.1")


def _enact(game, title: str, body: str, tag: str = "[Core]") -> int:
    """Ann proposes; Ben, Cat and Dan vote FOR (with Ann's, quorum 4); enacted after 12 hours."""
    bn.send(game, "Ann", f"[Proposal] {tag} {title}", body)
    number = max(m["number"] for m in game.state("blog")["proposals"])
    for n in ("Ben", "Cat", "Dan"):
        bn.send(game, n, f"Re: [Proposal {number}] {title}", "FOR")
    bn.at(game, hours=12, seconds=1)
    assert bn.matter(game, number)["status"] == "enacted"
    return number


def _last(game, kind: str, who: str) -> str:
    mails = [
        m for m in Outbox(game).all() if m["X-Mailref-Kind"] == kind and m["To"] == bn.addr(who)
    ]
    return " ".join(Outbox.body(mails[-1]).split())


@pytest.mark.parametrize(
    ("name", "text", "word"),
    [
        (
            "deferential",
            "all votes of DEFERENTIAL are the same as the Historian's Vote.",
            "historian",
        ),
        ("deferential", "all votes of DEFERENTIAL are counted as AGAINST.", "against"),
        ("deferential", "A vote of DEFERENTIAL is the same as a vote of AGAINST.", "against"),
        ("deferential", "Votes of DEFERENTIAL are ignored.", "nothing"),
        ("deferential", "DEFERENTIAL is not the same as the Historian's Vote.", None),
        (
            "self_kill",
            "A vote AGAINST their own Proposal renders the Proposal Self-Killed.",
            "kills",
        ),
        ("self_kill", "The Historian may use VETO as a voting icon.", "counts"),
        ("dov_historian", "a new Dynasty begins with no Historian.", "none"),
        ("dov_historian", "a new Dynasty begins as a Metadynasty.", "none"),
        (
            "dov_historian",
            "a new Dynasty begins with the Wizard who made the DoV as its Historian.",
            "author",
        ),
        ("dov_historian", "a new Dynasty begins.", None),
        ("abstain_vote", "A Wizard may vote ABSTAIN.", "taken"),
        ("abstain_vote", 'Wizards may also cast a vote of "ABSTAIN".', "taken"),
        ("abstain_vote", "ABSTAIN is a valid vote.", "taken"),
        ("abstain_vote", "A vote of ABSTAIN is counted as a vote of AGAINST.", "taken"),
        ("abstain_vote", "Wizards may not vote ABSTAIN.", "none"),
    ],
)
def test_blognomic_switch_forms(name, text, word):
    assert read(BLOGNOMIC[name], text) == word


def test_rule_1_6_amended_so_deferential_counts_as_against_defeats_a_proposal(blognomic_game):
    """Rule 1.6 amended so that a DEFERENTIAL is the same as an AGAINST; four DEFERENTIAL with no
    Historian used to count for nothing, leaving FOR 3 pending. Now they are four AGAINST, and the
    proposal is Unpopular at once; the result says why."""
    game = blognomic_game
    _enact(
        game,
        "Deference is dissent",
        'In rule 1.6, replace "the same as the Historian\'s Vote" with "the same as a Vote of '
        'AGAINST".\n',
    )
    assert game.state("blog")["parameters"]["deferential"] == "against"
    assert "(deferential: historian -> against)" in _last(game, "ruleset", "Eve")

    bn.send(game, "Ben", "[Proposal] Gold", bn.PROP)
    for n in ("Cat", "Dan"):
        bn.send(game, n, "Re: [Proposal 2] Gold", "FOR")
    for n in ("Eve", "Fay", "Gus", "Ann"):
        bn.send(game, n, "Re: [Proposal 2] Gold", "DEFERENTIAL")
    assert (bn.matter(game, 2)["status"], bn.matter(game, 2)["reason"]) == ("failed", "unpopular")
    assert "counts as AGAINST (rule 1.6 as it now reads)" in _last(game, "results", "Eve")


def test_rule_1_9_without_self_kill_lets_the_author_vote_against_their_own(blognomic_game):
    """Rule 1.9 amended to keep only the Historian's VETO; the author's AGAINST used to self-kill
    the proposal still. Now it counts as any AGAINST, and four FOR enact it."""
    game = blognomic_game
    _enact(
        game,
        "No self-kill",
        "Amend rule 1.9 to read:\nThe Historian may use VETO as a voting icon to cast a Vote on a "
        "proposal; when the Historian casts a vote of VETO on a Proposal, this renders the "
        "Proposal Vetoed, even if the Historian later changes their Vote.\n",
    )
    assert game.state("blog")["parameters"]["self_kill"] == "counts"
    assert "(self_kill: kills -> counts)" in _last(game, "ruleset", "Eve")

    bn.send(game, "Ben", "[Proposal] Gold", bn.PROP)
    bn.send(game, "Ben", "Re: [Proposal 2] Gold", "AGAINST")
    assert "self-kills" not in Outbox.body(bn.reply(game, "Ben"))
    assert not bn.matter(game, 2)["self_killed"]
    for n in ("Cat", "Dan", "Eve", "Fay"):
        bn.send(game, n, "Re: [Proposal 2] Gold", "FOR")
    bn.at(game, hours=12, seconds=1)
    assert bn.matter(game, 2)["status"] == "enacted"


def test_rule_1_12_with_no_historian_makes_a_metadynasty_of_an_enacted_dov(blognomic_game):
    """Rule 1.12 amended so that "a new Dynasty begins with no Historian"; the DoV's author used
    to become Historian, silently. Now the new dynasty has none, no Ascension Address is awaited,
    and every Wizard is told."""
    game = blognomic_game
    _enact(
        game,
        "No Historian",
        'In rule 1.12, replace "a new Dynasty begins with the Wizard who made the DoV as its '
        'Historian" with "a new Dynasty begins with no Historian".\n',
    )
    assert game.state("blog")["parameters"]["dov_historian"] == "none"

    bn.send(game, "Ben", "[DoV] I have won", "All the cards are mine.")
    for n in ("Dan", "Eve", "Fay"):
        bn.send(game, n, "Re: [DoV 2] I have won", "FOR")
    bn.at(game, hours=12, seconds=1)
    state = game.state("blog")
    assert bn.matter(game, 2)["status"] == "enacted"
    assert (state["historian"], state["dynasty"], state["ascension_pending"]) == (None, 2, False)
    assert not any("historian" in p["offices"] for p in state["players"])
    assert "Dynasty 2 begins with no Historian" in _last(game, "results", "Gus")
    bn.send(game, "Cat", "[Proposal] Gold", bn.PROP)
    assert bn.matter(game, 3)["status"] == "pending"  # the Hiatus is over


def test_a_metadynasty_fails_the_other_pending_dovs(blognomic_game):
    """Under rule 1.12 reworded to a Metadynasty, the DoV enacted fails every other pending
    DoV, as a DoV making a Historian does."""
    game = blognomic_game
    _enact(
        game,
        "No Historian",
        'In rule 1.12, replace "a new Dynasty begins with the Wizard who made the DoV as its '
        'Historian" with "a new Dynasty begins with no Historian".\n',
    )
    bn.send(game, "Ben", "[DoV] I have won", "All the cards are mine.")
    bn.send(game, "Cat", "[DoV] No, I have", "The cards are mine.")
    assert bn.matter(game, 3)["status"] == "pending"
    for n in ("Dan", "Eve", "Fay"):
        bn.send(game, n, "Re: [DoV 2] I have won", "FOR")
    bn.at(game, hours=12, seconds=1)
    assert bn.matter(game, 2)["status"] == "enacted"
    assert bn.matter(game, 3)["status"] == "failed"
    assert game.state("blog")["historian"] is None


def test_quorum_reworded_as_one_third_of_the_number_is_read(blognomic_game):
    """Rule 4.1's Quorum "one third of the number of Wizards" used to be left unread (only "one
    third the number" was). Now Quorum is a third of the Wizards, rounded down, plus one."""
    game = blognomic_game
    _enact(
        game,
        "Smaller quorum",
        'In rule 4.1, replace "is half the number" with "is one third of the number".\n',
        tag="[Appendix]",
    )
    assert game.state("blog")["parameters"]["quorum"] == "1/3 down +1"
    bn.send(game, "Ben", "[Proposal] Gold", bn.PROP)
    bn.send(game, "Cat", "Re: [Proposal 2] Gold", "FOR")
    bn.send(game, "Dan", "Re: [Proposal 2] Gold", "FOR")  # FOR 3 of 7 Wizards: quorum 3
    bn.at(game, hours=12, seconds=1)
    assert bn.matter(game, 2)["status"] == "enacted"


@pytest.mark.parametrize(
    ("text", "name", "word"),
    [
        ("All votes of DEFERENTIAL are counted as AGAINST.", "deferential", "against"),
        ("When a DoV is enacted, a new Dynasty begins with no Historian.", "dov_historian", "none"),
    ],
)
def test_a_new_rule_stating_a_switch_sets_it(blognomic_game, text, name, word):
    """A new dynastic rule that states a switch sets it as an amendment of its own rule does,
    and the ruleset mail says the referee runs the new rule."""
    game = blognomic_game
    _enact(
        game, "New way", f'Enact a new rule entitled "New Way" with the following text:\n{text}\n'
    )
    assert game.state("blog")["parameters"][name] == word
    assert f"({name}: " in _last(game, "ruleset", "Eve")


def test_a_new_rule_allowing_abstain_counted_as_against_makes_it_a_vote(blognomic_game):
    """A new rule "A Wizard may vote ABSTAIN. A vote of ABSTAIN is counted as a vote of
    AGAINST."; an ABSTAIN used to be refused ("ABSTAIN is not a vote in this game"). Now it is
    taken, and four ABSTAIN make a proposal Unpopular."""
    game = blognomic_game
    bn.send(game, "Ben", "[Proposal] Gold", bn.PROP)
    bn.send(game, "Cat", "Re: [Proposal 1] Gold", "ABSTAIN")
    assert "is not a vote" in Outbox.body(bn.reply(game, "Cat"))
    bn.at(game, hours=48, seconds=1)  # Ben's FOR alone: Popular, the oldest, enacted
    _enact(
        game,
        "Abstentions",
        'Enact a new rule entitled "Abstentions" with the following text:\nA Wizard may vote '
        "ABSTAIN. A vote of ABSTAIN is counted as a vote of AGAINST.\n",
    )
    params = game.state("blog")["parameters"]
    assert (params["abstain_vote"], params["abstain"]) == ("taken", "against")

    bn.send(game, "Ben", "[Proposal] Silver", bn.PROP)
    number = max(m["number"] for m in game.state("blog")["proposals"])
    bn.send(game, "Cat", f"Re: [Proposal {number}] Silver", "ABSTAIN")
    assert "is not a vote" not in Outbox.body(bn.reply(game, "Cat"))
    for n in ("Dan", "Eve", "Fay"):
        bn.send(game, n, f"Re: [Proposal {number}] Silver", "ABSTAIN")
    assert (bn.matter(game, number)["status"], bn.matter(game, number)["reason"]) == (
        "failed",
        "unpopular",
    )
