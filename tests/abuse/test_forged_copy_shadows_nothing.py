"""A forged copy sent first shadows nothing (SPEC §2.7): a mail refused as unverified is no
earlier copy of the verified mail with its Message-ID and From, which is kept and acted on.
It was dropped as "duplicate: Message-ID already received" and never answered."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, mail, make_referee, process_all
from support.joining import reply_to_confirmation
from support.listener import listening, storing, submit

pytestmark = pytest.mark.spec("2.7")

G = "nomes@ref.example"
ALICE = "alice@example.org"
MX = "mx.ref.example"
SIGNED = f"Authentication-Results: {MX}; dkim=pass header.d=example.org\r\n".encode()
MID = "<next-move@example.org>"


@pytest.fixture
def strict(tmp_path, clock):
    referee = make_referee(tmp_path, clock, trusted_authserv_ids=(MX,))
    referee.create_game("nomes", "sidekick", G, parameters={"require_auth": "on"})
    with listening(referee, 10_000_000) as port:
        submit(port, ALICE, [G], SIGNED + mail(ALICE, G, "[Join]", "Name: Alice"))
        submit(port, ALICE, [G], SIGNED + reply_to_confirmation(referee, ALICE))
    return referee


def test_a_forged_copy_refused_first_does_not_shadow_the_real_mail(strict):
    outbox = Outbox(strict)
    outbox.new()
    with listening(strict, 10_000_000) as port:
        forged = mail(ALICE, G, "[Away]", "forged", message_id=MID)
        submit(port, "mallory@evil.test", [G], forged)
        assert strict.state("nomes")["players"][0]["status"] == "active"
        real = SIGNED + mail(ALICE, G, "[Away]", "I am off for a bit.", message_id=MID)
        submit(port, ALICE, [G], real)
    assert strict.state("nomes")["players"][0]["status"] == "away"


def test_a_forged_copy_kept_in_the_same_batch_does_not_shadow_the_real_mail(strict):
    """Both kept before either is read (a daemon busy with earlier mail): the real one, held
    back as a copy of the forged one, is read once the forged one is refused."""
    with storing(strict, 10_000_000) as port:
        submit(port, "mallory@evil.test", [G], mail(ALICE, G, "[Away]", "x", message_id=MID))
        submit(port, ALICE, [G], SIGNED + mail(ALICE, G, "[Away]", "off", message_id=MID))
    process_all(strict)
    assert strict.state("nomes")["players"][0]["status"] == "away"
