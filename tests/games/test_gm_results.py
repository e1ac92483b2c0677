"""A GM's plain reply to the orders of all players is the results."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, assert_replays, mail
from support.joining import confirm_waiting
from support.play import addr, send

pytestmark = pytest.mark.spec("5.5")


def test_the_gms_plain_reply_to_the_orders_of_all_players_is_the_results(referee, outbox, clock):
    """The orders digest says "Send the results as a mail with the subject [Results]"; the GM
    hits Reply instead. That used to be refused with "gm@… is not a player … ask the GM (gm@…)";
    it is the turn's results, mailed to every player, and the next turn opens."""
    dip = "dip@ref.example"
    referee.create_game("dip", "orders", dip, gm="gm@ref.example", parameters={"turn_length": "1d"})
    for n in ("ann", "ben"):
        send(referee, n, "[Join]", f"Name: {n.title()}", to=dip)
        confirm_waiting(referee)
    referee.admin("dip", {"type": "start"}, "gm")
    send(referee, "ann", "[Orders]", "**A Paris - Burgundy**", to=dip)
    send(referee, "ben", "[Orders]", "**A Munich - Ruhr**", to=dip)
    digest = next(
        m
        for m in outbox.all()
        if m["X-Mailref-Kind"] == "digest" and "Orders of all players" in m["Subject"]
    )
    quoted = "\n".join("> " + ln for ln in Outbox.body(digest).splitlines())
    referee.accept(
        mail(
            "gm@ref.example",
            dip,
            "Re: " + str(digest["Subject"]),
            f"Spring 1901: both moves succeed.\n\nOn Mon, the referee wrote:\n{quoted}\n",
            in_reply_to=digest["Message-ID"],
        ),
        "smtp",
    )
    answer = [
        m
        for m in outbox.all()
        if m["To"] == "gm@ref.example" and m["X-Mailref-Kind"] in ("ack", "error")
    ][-1]
    assert answer["X-Mailref-Kind"] == "ack", Outbox.body(answer)
    assert "Results of turn 1 sent to every player" in Outbox.body(answer)
    results = [m for m in outbox.all() if m["X-Mailref-Kind"] == "results"]
    assert sorted(m["To"] for m in results) == [addr("ann"), addr("ben")]
    assert "Orders of all players" not in str(results[0]["Subject"])
    assert "both moves succeed" in Outbox.body(
        results[0]
    ) and "Paris - Burgundy" not in Outbox.body(results[0])
    assert referee.state("dip")["turn"]["number"] == 2
    # Anyone else replying to it is still refused.
    referee.accept(
        mail(
            "mallory@evil.example",
            dip,
            "Re: " + str(digest["Subject"]),
            "Ann loses.",
            in_reply_to=digest["Message-ID"],
        ),
        "smtp",
    )
    refused = [m for m in outbox.all() if m["To"] == "mallory@evil.example"][-1]
    assert "is not a player of" in Outbox.body(refused)
    assert_replays(referee)
