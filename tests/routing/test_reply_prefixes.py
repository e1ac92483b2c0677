"""Reply prefixes of more languages keep the tag."""

from __future__ import annotations

import pytest

from support.play import send  # the same players' addresses, mail sent the same way
from support.play_four import PLAYERS, nomes

pytestmark = pytest.mark.spec("2.5")


def test_reply_prefixes_of_more_languages_keep_the_tag(referee, outbox):
    """A Russian, Chinese, Hungarian or Italian client's reply ("Ответ:", "回复：", "Vá:", "RIF:")
    hid the tag when the mail carried no In-Reply-To (a webmail's reply by copy): the vote was
    not read. These prefixes are stripped like "Re:" and "AW:"."""
    mover = nomes(referee)
    voters = [p for p in PLAYERS if p.title() != mover]
    send(
        referee,
        mover.lower(),
        "[Proposal] Hats",
        'Enact rule 24 "Hats":\nEvery player wears a hat.\n',
    )
    for voter, prefix in zip(voters, ("Ответ:", "回复：", "RIF:"), strict=True):
        send(referee, voter, f"{prefix} [Nomic Sidekick Nomic] [Proposal 1] Hats", "FOR")
    assert referee.state("nomes")["proposals"][0]["status"] == "passed"
