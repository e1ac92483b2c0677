"""A Thunderbird proposal (format=flowed) is enacted as written, not as cut for transport."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, assert_replays
from support.play import addr, send  # the same players' addresses, mail sent the same way
from support.play_four import PLAYERS, G, flowed, last, nomes

pytestmark = pytest.mark.spec("3.1")


def test_a_thunderbird_proposal_is_enacted_as_written_not_as_cut_for_transport(referee, outbox):
    """Carol's client sends format=flowed: her rule's one sentence arrives in three lines ending
    in a space. The rule was enacted with the client's line breaks in it; now it is one line, as
    she wrote it (RFC 3676), and a quoted vote in a flowed reply still never counts."""
    mover = nomes(referee)
    body = (
        'Enact rule 26 "Long Winded":\n'
        "When a proposal is made by a player who has not moved for more than \n"
        "ten days, every other player receives two points, and the mover loses \n"
        "one point for each day of delay beyond the tenth.\n\n"
        f"Cheers,\n{mover}\n-- \n{mover}, Nomes since 2025\n"
    )
    referee.accept(flowed(addr(mover), G, "[Proposal] Long winded", body), "smtp")
    prop = referee.state("nomes")["proposals"][0]
    assert prop["changes"][0]["text"] == (
        "When a proposal is made by a player who has not moved for more than ten days, every "
        "other player "
        "receives two points, and the mover loses one point for each day of delay beyond the tenth."
    )
    voters = [p for p in PLAYERS if p.title() != mover]
    announcement = last(outbox, addr(voters[0]), "announcement", "[Proposal 1]")
    quoted = "\n".join(
        "> " + ln for ln in Outbox.body(announcement).replace("\r\n", "\n").splitlines()
    )
    reply = (
        "I need to think about \nthis one.\n\nOn 01/12/2026 10:00, Nomes wrote:\n> AGAINST \n"
        f"{quoted}\n"
    )
    referee.accept(
        flowed(
            addr(voters[0]),
            G,
            "Re: " + str(announcement["Subject"]),
            reply,
            in_reply_to=announcement["Message-ID"],
        ),
        "smtp",
    )
    # Her own words are prose ("I need to think about this one."): the players talking.
    assert "I need to think about" in Outbox.body(last(outbox, addr(voters[1]), "discussion"))
    assert voters[0].title() not in referee.state("nomes")["proposals"][0]["votes"]
    for p in voters:
        send(referee, p, "[Vote] 1", "FOR")
    rule = next(r for r in referee.state("nomes")["rules"] if r["number"] == "26")
    assert "\n" not in rule["text"]
    assert_replays(referee)
