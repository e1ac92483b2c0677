"""[Withdraw]: a withdrawn BlogNomic proposal reads as failed."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, assert_replays
from support.joining import confirm_waiting
from support.play import addr, send

pytestmark = pytest.mark.spec("5.2")


def test_a_withdrawn_blognomic_proposal_reads_as_failed(referee, outbox, clock):
    """BlogNomic: "Proposal 2 … has FAILED (withdrawn)" (it said "is FAILED"), the proposal mail
    has no empty line where a deadline would be, and the ruleset mail no empty "Scores:"."""
    blog = "blog@ref.example"
    referee.create_game(
        "blog", "blognomic", blog, gm="gm@ref.example", parameters={"min_open": "1s"}
    )
    names = ["ann", "ben", "cat", "dan", "eve"]
    for n in names:
        send(referee, n, "[Join]", f"Name: {n.title()}", to=blog)
        confirm_waiting(referee)
    send(
        referee,
        "ann",
        "[Proposal] Tax",
        'Enact a new rule entitled "Tax" with the following text:\nPay up.\n',
        to=blog,
    )
    announced = Outbox.body(
        [m for m in outbox.all() if m["To"] == addr("ben") and "[Proposal 1]" in str(m["Subject"])][
            0
        ]
    )
    assert "Pay up.\n\nTo vote, reply" in announced or "\n\n\n" not in announced, announced
    send(referee, "ann", "[Withdraw] 1", "changed my mind", to=blog)
    failed = [m for m in outbox.all() if m["X-Mailref-Kind"] == "results"][0]
    assert 'Proposal 1 "Tax" by Ann has FAILED (withdrawn).' in Outbox.body(failed)
    send(
        referee,
        "ben",
        "[Proposal] Tax again",
        'Enact a new rule entitled "Tax" with the following text:\nPay up.\n',
        to=blog,
    )
    clock.advance(seconds=2)
    for n in ("cat", "dan"):
        send(referee, n, "[Vote] 2", "FOR", to=blog)
    ruleset = [m for m in outbox.all() if m["X-Mailref-Kind"] == "ruleset"]
    assert ruleset and "Scores:\n\n" not in Outbox.body(ruleset[0])
    assert_replays(referee)
