"""The judge and the Emperor get one mail for what is passed to them."""

from __future__ import annotations

import pytest

from support.table import text
from support.table_play import NOMES, nomes

pytestmark = pytest.mark.spec("2.6")


def test_the_judge_gets_one_mail_for_a_call_for_judgement(table):
    """Item 12: the judge's mail says what the announcement says; the judge gets that one."""
    nomes(table, "Alice", "Bob", "Carol")
    state = table.referee.state("nomes")
    order, mover = state["order"], state["turn"]["player"]
    judge = order[(order.index(mover) - 1) % 3]
    asker, third = [p for p in order if p != judge]
    got = table.send(
        f"{asker.lower()}@x.org", NOMES, "[CfJ] Is rule 5 being followed?", "Details here."
    )
    table.reply(got, f"{asker.lower()}@x.org")
    mine = table.one(got, f"{judge.lower()}@x.org", kind="judge")
    body = " ".join(text(mine).split())
    assert "Is rule 5 being followed?" in body and "Details here." in body and "[Ruling] 1" in body
    assert "The other players were told" in body
    told = table.one(got, f"{third.lower()}@x.org", kind="announcement")
    assert f"The judge is {judge}" in text(told)
    # The judge's plain Reply to that one mail is the ruling.
    got = table.write(
        f"{judge.lower()}@x.org",
        NOMES,
        "Re: " + str(mine["Subject"]),
        "It is being followed.",
        in_reply_to=mine["Message-ID"],
    )
    assert "Your ruling on judgement 1 is recorded" in text(
        table.reply(got, f"{judge.lower()}@x.org")
    )


def test_the_emperor_gets_one_mail_for_a_proposal_passed_to_him(table):
    """As item 12 for the Emperor: the mail asking for his judgement carries the vote's result;
    the other players get the result."""
    r, g = table.referee, "empire@ref.example"
    r.create_game("empire", "imperial", g, name="Empire")
    for n in ("joe", "ann", "ben"):
        table.join(f"{n}@rome.example", g, f"Name: {n.title()}")
    assert [p["name"] for p in r.state("empire")["players"] if "emperor" in p["offices"]] == ["Joe"]
    for i, n in enumerate(("ann", "ben")):
        table.send(f"{n}@rome.example", g, "[Point of Order] Hello", f"Senator {i}")
    table.send(
        "ann@rome.example", g, "[Proposal] Dragons", 'Enact rule 27 "Dragons":\nDragons exist.\n'
    )
    table.send("ben@rome.example", g, "[Vote] 1", "YES")
    r.clock.advance(days=4, seconds=1)
    r.tick()
    got = table.deliver()
    mine = " ".join(text(table.one(got, "joe@rome.example", kind="judge")).split())
    assert (
        "YES 1, NO 0 of 1 Senator entitled" in mine
        and "goes to the Emperor" in mine
        and "Dragons exist." in mine
    )
    assert "[Judge] 1" in mine
    for n in ("ann", "ben"):
        assert "TO THE EMPEROR" in str(
            table.one(got, f"{n}@rome.example", kind="results")["Subject"]
        )
