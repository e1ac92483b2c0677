"""The topmost Authentication-Results header of a trusted server is the verdict, even when it
cannot be read (SPEC §2.7): the receiving server copies the HELO and MAIL FROM the sender
chose into it, so a sender who makes it unreadable must not have a forged header below it
decide. Each mail goes through a real SMTP session to a game with `require_auth=on`."""

from __future__ import annotations

import pytest

from mailref.read.auth import authserv_id, verify
from support.helpers import Outbox, mail, make_referee
from support.joining import reply_to_confirmation
from support.listener import listening, submit

pytestmark = pytest.mark.spec("2.7")

G = "nomes@ref.example"
ALICE = "alice@example.org"
MX = "mx.ref.example"
FORGED = f"Authentication-Results: {MX}; dmarc=pass header.from=example.org\r\n"
# What the receiving server writes when the sender picks an odd HELO or MAIL FROM; the
# `authres` parser refuses each of them.
UNREADABLE = [
    f"{MX}; spf=pass smtp.helo=[192.0.2.7]",
    f"{MX}; spf=none smtp.mailfrom=<>",
    f"{MX}; spf=pass smtp.mailfrom=élise@example.org",
    f"{MX}; spf=pass smtp.mailfrom=m@[192.0.2.7]",
]


@pytest.fixture
def strict(tmp_path, clock):
    """A game that requires authenticated mail, with Alice a player, and a send function."""
    referee = make_referee(tmp_path, clock, trusted_authserv_ids=(MX,))
    referee.create_game("nomes", "sidekick", G, parameters={"require_auth": "on"})
    with listening(referee, 10_000_000) as port:

        def send(raw: bytes, mail_from: str = ALICE) -> None:
            submit(port, mail_from, [G], raw, mail_options=["SMTPUTF8", "BODY=8BITMIME"])

        signed = f"Authentication-Results: {MX}; dkim=pass header.d=example.org\r\n".encode()
        send(signed + mail(ALICE, G, "[Join]", "Name: Alice"))
        send(signed + reply_to_confirmation(referee, ALICE))  # verified too (SPEC §2.7)
        assert [p["name"] for p in referee.state("nomes")["players"]] == ["Alice"]
        yield referee, send


def status(referee) -> str:
    return referee.state("nomes")["players"][0]["status"]


@pytest.mark.parametrize(
    "value", UNREADABLE, ids=["helo-literal", "null-mailfrom", "utf8-mailfrom", "literal-domain"]
)
def test_an_unreadable_trusted_header_on_top_is_not_verified(strict, value):
    referee, send = strict
    outbox = Outbox(referee)
    outbox.new()
    raw = f"Authentication-Results: {value}\r\n{FORGED}".encode() + mail(ALICE, G, "[Away]")
    send(raw, "mallory@evil.test")
    assert status(referee) == "active"  # forged mail from Alice is not acted on
    (reply,) = outbox.new()
    assert reply["To"] == ALICE and reply["X-Mailref-Kind"] == "error"
    assert "could not be verified" in Outbox.body(reply) and "cannot be read" in Outbox.body(reply)


def test_an_unnamed_unreadable_header_on_top_is_not_verified(strict):
    referee, send = strict
    send(f"Authentication-Results: ; ;\r\n{FORGED}".encode() + mail(ALICE, G, "[Away]"))
    assert status(referee) == "active"


def test_an_untrusted_servers_header_above_the_trusted_one_is_passed_over(strict):
    referee, send = strict
    above = "Authentication-Results: relay.evil.test; spf=pass smtp.helo=[192.0.2.7]\r\n"
    send(
        (
            above + f"Authentication-Results: {MX}; dmarc=fail header.from=example.org\r\n{FORGED}"
        ).encode()
        + mail(ALICE, G, "[Away]")
    )
    assert status(referee) == "active"  # the trusted server's own "fail" decides
    send((above + FORGED).encode() + mail(ALICE, G, "[Away]"))
    assert status(referee) == "away"


def test_a_trusted_header_with_a_quoted_or_commented_id_is_attributed():
    assert authserv_id(f'(received here) "{MX}" 1; spf=pass smtp.helo=[192.0.2.7]') == MX
    assert authserv_id(f"{MX.upper()};spf=none smtp.mailfrom=<>") == MX
    assert authserv_id("   ") is None
    verdict = verify(
        [f"{MX}; spf=pass smtp.helo=[192.0.2.7]", FORGED.split(": ", 1)[1]], ALICE, [MX]
    )
    assert not verdict.verified and MX in verdict.why
