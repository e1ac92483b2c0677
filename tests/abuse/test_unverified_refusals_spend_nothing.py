"""Refusals of mail not verified as the player's spend none of her replies (SPEC §2.2, §2.7):
they are answered within an allowance of their own, per sender and game, so that 25 forged
commands From her leave her own verified mail answered. They spent her 20 replies of the day."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, mail, make_referee
from support.joining import reply_to_confirmation
from support.listener import listening, submit

pytestmark = pytest.mark.spec("2.7")

G = "nomes@ref.example"
ALICE = "alice@example.org"
MX = "mx.ref.example"
SIGNED = f"Authentication-Results: {MX}; dkim=pass header.d=example.org\r\n".encode()


def test_forged_commands_leave_the_players_own_mail_answered(tmp_path, clock):
    referee = make_referee(tmp_path, clock, trusted_authserv_ids=(MX,))
    referee.create_game("nomes", "sidekick", G, parameters={"require_auth": "on"})
    outbox = Outbox(referee)
    with listening(referee, 10_000_000) as port:
        submit(port, ALICE, [G], SIGNED + mail(ALICE, G, "[Join]", "Name: Alice"))
        submit(port, ALICE, [G], SIGNED + reply_to_confirmation(referee, ALICE))
        outbox.new()
        for _ in range(25):
            submit(port, "mallory@evil.test", [G], mail(ALICE, G, "[Away]"))
        refused = outbox.to(ALICE, outbox.new())
        assert 0 < len(refused) <= 6  # a few refusals, then one notice, then silence
        assert referee.state("nomes")["players"][0]["status"] == "active"
        submit(port, ALICE, [G], SIGNED + mail(ALICE, G, "[Status]"))
    (answer,) = outbox.to(ALICE, outbox.new())
    assert answer["X-Mailref-Kind"] == "status"
