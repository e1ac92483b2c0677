"""The GM's thanks for the digest is no request for help."""

from __future__ import annotations

import pytest

from support.helpers import Outbox
from support.long_games import G, last, mail_from_gm, nomes

pytestmark = pytest.mark.spec("2.6")


def test_the_gms_thanks_for_the_digest_is_no_request_for_help(referee, outbox, clock):
    """The GM answered the daily digest "Thanks, looks fine." and got the players' whole help
    text back ("I found no command tag in your subject"); a player's reply to any mail is told
    that nothing was done. So is the GM's now."""
    nomes(referee)
    clock.advance(days=1)
    referee.tick()
    digest = last(outbox, "gm@ref.example", "digest")
    referee.accept(
        mail_from_gm("Re: " + str(digest["Subject"]), "Thanks, looks fine.", digest["Message-ID"]),
        "smtp",
        "gm@ref.example",
        [G],
    )
    answer = last(outbox, "gm@ref.example")
    assert answer["X-Mailref-Kind"] == "error"
    assert "I found no command in your reply, so nothing was done" in Outbox.body(answer)
