"""A question and a GM's results reply read cleanly."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, mail
from support.joining import confirm_waiting
from support.play import addr, send  # the same players' addresses, mail sent the same way
from support.play_four import BLOG, PLAYERS, blog, last, nomes

pytestmark = pytest.mark.spec("2.4")


def test_a_question_and_a_gm_results_reply_read_cleanly(referee, outbox, tmp_path):
    """The CfJ announcement ran the question into its detail ("asks: Is it valid?\nRule 9
    says…"); the GM's plain Reply with the results went out as "[Dip] [Results] Turn 1: Dip",
    the game's name twice."""
    mover = nomes(referee)
    asker = next(p for p in PLAYERS if p.title() != mover)
    send(
        referee,
        asker,
        "[CfJ] Is a sign-off valid?",
        "Rule 9 asks for good grammar.\nDoes a sign-off break it?",
    )
    told = next(
        m
        for m in outbox.all()
        if m["X-Mailref-Kind"] == "announcement" and "[Judgement 1]" in str(m["Subject"])
    )
    assert (
        f"{asker.title()} asks: Is a sign-off valid?\n\nRule 9 asks for good grammar."
        in Outbox.body(told).replace("\r\n", "\n")
    )
    blog(referee)
    send(
        referee,
        "alice",
        "[CfJ] Was proposal 1 enacted?",
        "Nothing changed.\nShould it be failed?",
        to=BLOG,
    )
    told = last(outbox, addr("bob"), "announcement", "[CfJ")
    assert "Was proposal 1 enacted?\n\nNothing changed." in Outbox.body(told).replace("\r\n", "\n")
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
    referee.accept(
        mail(
            "gm@ref.example",
            dip,
            "Re: " + str(digest["Subject"]),
            "Both moves succeed.",
            in_reply_to=digest["Message-ID"],
        ),
        "smtp",
    )
    results = last(outbox, addr("ann"), "results")
    assert str(results["Subject"]) == "[Orders game] [Results] Turn 1", results["Subject"]
    # Its page has no Offices column of dashes pushing the players' columns off a phone's screen.
    from mailref.config import SiteConfig
    from mailref.site import rebuild

    rebuild(referee.store, SiteConfig(tmp_path / "site"), None, referee.clock())
    page = (tmp_path / "site" / "dip" / "index.html").read_text()
    assert (
        '<th scope="col">Offices</th>' not in page
        and "<caption>Players, their status</caption>" in page
    )
    assert (
        '<th scope="col">Offices</th>' in (tmp_path / "site" / "nomes" / "index.html").read_text()
    )
