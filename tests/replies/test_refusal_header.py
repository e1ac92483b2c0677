"""An error reply names its refusal's code in `X-Mailref-Refusal` (docs/decisions/refusals.md):
a filter or a test reads which refusal it is without reading its words."""

from __future__ import annotations

import pytest

from support.helpers import Outbox
from support.play import addr, send
from support.play_four import last, nomes

pytestmark = pytest.mark.spec("2.6")


def test_an_error_reply_names_its_refusal_in_a_header(referee, outbox):
    nomes(referee)
    send(referee, "dan", "[Join]", "Name: -Dan")  # a name must start with a letter, digit or _
    error = last(outbox, addr("dan"), "error")
    assert error["X-Mailref-Refusal"] == "bad_player_name"
    assert "'-Dan' is not a usable player name" in Outbox.body(error)
    others = [m for m in outbox.all() if m["X-Mailref-Kind"] != "error"]
    assert others and all(m["X-Mailref-Refusal"] is None for m in others)
