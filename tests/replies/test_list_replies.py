"""A reply through a list does not name the game twice."""

from __future__ import annotations

import pytest

from support.helpers import mail
from support.outside_smtp import ALICE, NOMES, alice_alone

pytestmark = pytest.mark.spec("2.6")


def test_a_reply_through_a_list_does_not_name_the_game_twice(referee, smtp):
    """SPEC §2.6: "[nomes-l] Re: [Nomes] [Status]" (a list's tag before a reply's
    prefix) was answered "Re: [Nomes] [nomes-l] Re: [Nomes] [Status]"; the subject names the game
    once already."""
    box = alice_alone(referee, smtp, "nomes", "sidekick", NOMES)
    smtp(mail(ALICE, NOMES, "[nomes-l] Re: [Nomes] [Status]", ""), ALICE, NOMES)
    (reply,) = box.new()
    assert (reply["X-Mailref-Kind"], str(reply["Subject"])) == (
        "status",
        "Re: [nomes-l] Re: [Nomes] [Status]",
    )
