"""Judgements: the Emperor's plain reply to the judge mail is the judgement."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, assert_replays, mail
from support.joining import confirm_waiting
from support.play import addr, send

pytestmark = pytest.mark.spec("5.3")


def test_the_emperors_plain_reply_to_the_judge_mail_is_the_judgement(referee, outbox, clock):
    """Carol, the Emperor, hits Reply on "[Proposal 4] awaiting your judgement" and writes a bold
    ACCEPT (Outlook, HTML only): it used to be read as her ballot on proposal 4 ("No vote found …
    the votes here: YES, NO"). The judge mail is now tagged [Judge 4]: her reply judges it.
    A title that starts with a verdict word is not read from the reply's subject."""
    emp = "empire@ref.example"
    referee.create_game("empire", "imperial", emp)
    for n in ("carol", "ann", "ben"):
        send(referee, n, "[Join]", f"Name: {n.title()}", to=emp)
        confirm_waiting(referee)
    send(referee, "ben", "[Point of Order] Hello", "Present.", to=emp)
    send(
        referee,
        "ann",
        "[Proposal] Ignore the dragons",
        'Enact rule 27 "Dragons":\nDragons are ignored.\n',
        to=emp,
    )
    send(referee, "ben", "[Vote] 1", "YES", to=emp)
    clock.advance(days=4, seconds=1)
    referee.tick()
    judge = next(m for m in outbox.all() if m["X-Mailref-Kind"] == "judge")
    assert judge["To"] == addr(
        "carol"
    ) and "[Judge 1] awaiting your judgement: Ignore the dragons" in str(judge["Subject"])
    html = (
        "<html><body><div><b>VETO</b></div><div>Dragons stay.</div><hr><div "
        'id="divRplyFwdMsg"><b>From:</b> '
        "Imperial<br><b>Subject:</b> awaiting your judgement</div><div>Dragons are "
        "ignored.</div></body></html>"
    )
    referee.accept(
        mail(
            addr("carol"),
            emp,
            "RE: " + str(judge["Subject"]),
            html=html,
            in_reply_to=judge["Message-ID"],
        ),
        "smtp",
        addr("carol"),
        [emp],
    )
    answer = [
        m
        for m in outbox.all()
        if m["To"] == addr("carol") and m["X-Mailref-Kind"] in ("ack", "error")
    ][-1]
    assert answer["X-Mailref-Kind"] == "ack", Outbox.body(answer)
    vetoed = next(p for p in referee.state("empire")["proposals"] if p["number"] == 1)
    assert vetoed["status"] == "vetoed"
    told = Outbox.body(
        [m for m in outbox.all() if m["To"] == addr("ann") and m["X-Mailref-Kind"] == "results"][-1]
    )
    assert "Dragons stay." in told and "*" not in told, told  # the bold's marks are not the reason
    assert_replays(referee)
