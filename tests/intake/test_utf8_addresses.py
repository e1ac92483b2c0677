"""Players with internationalised addresses (SPEC §4.3, RFC 6530-6532) through real SMTP: they
write with SMTPUTF8 to the listener and get their replies through a relay that offers
SMTPUTF8; a non-ASCII domain alone goes as its IDNA form and needs nothing of the relay; a
relay without SMTPUTF8 gets no such mail, and the row's refusal is recorded, logged and
sent to the game's GM."""

from __future__ import annotations

import email
import email.policy
import json
import logging
import smtplib
from email.message import EmailMessage

import pytest

from mailref.config import SmtpOut
from mailref.mail.smtp import Listener
from mailref.store import OutboxMessage
from mailref.write.address import problem
from support.delivery import Deliverer
from support.dovecot import free_port
from support.helpers import process_all
from support.joining import confirm_waiting
from support.ops import CountingSink, Site

pytestmark = pytest.mark.spec("4.3", "2.3")

G = "nomes@ref.example"
JUERGEN = "jürgen@münchen.example"
JUERGEN_WIRE = "jürgen@xn--mnchen-3ya.example"  # the domain as DNS knows it
DOKIMI = "δοκιμή@example.gr"
ANNA = "anna@münchen.example"
ANNA_WIRE = "anna@xn--mnchen-3ya.example"


def utf8_mail(frm: str, subject: str, body: str = "") -> bytes:
    """A mail as an SMTPUTF8 client writes it: UTF-8 headers (RFC 6532), no encoded words."""
    msg = EmailMessage(policy=email.policy.SMTPUTF8)
    msg["From"], msg["To"], msg["Subject"] = frm, G, subject
    msg["Message-ID"] = email.utils.make_msgid(domain="players.example")
    msg.set_content(body or "\n")
    return msg.as_bytes()


@pytest.fixture
def host(referee, tmp_path):
    port = free_port()
    listener = Listener(
        referee, "127.0.0.1", port, 10_000_000, on_stored=lambda: process_all(referee)
    )
    listener.start()
    referee.create_game("nomes", "sidekick", G, name="Nomes", gm="gm@games.example")

    def send(frm: str, subject: str, body: str = "") -> None:
        with smtplib.SMTP("127.0.0.1", port) as c:
            c.sendmail(frm, [G], utf8_mail(frm, subject, body), mail_options=["SMTPUTF8"])

    yield send
    listener.stop()


def deliver(referee, relay: CountingSink, tmp_path) -> Deliverer:
    d = Deliverer(
        referee.store,
        "referee@ref.example",
        SmtpOut(host="127.0.0.1", port=relay.port),
        tmp_path / "md",
        "admin@ref.example",
    )
    while d.deliver(referee.clock())[0]:
        pass
    return d


def received(relay: CountingSink) -> list[tuple[str, bool, EmailMessage]]:
    """(recipient, whether it came with SMTPUTF8, the mail) of everything the relay took."""
    out = []
    for rcpts, raw, utf8 in relay.envelopes:
        msg = email.message_from_bytes(raw, policy=email.policy.SMTPUTF8)
        out += [(r, utf8, msg) for r in rcpts]
    return out


class Relay(CountingSink):
    """A relay that also notes whether each mail came with SMTPUTF8."""

    def __init__(self, smtputf8: bool):
        super().__init__(smtputf8=smtputf8)
        self.envelopes: list[tuple[list[str], bytes, bool]] = []

    async def handle_DATA(self, server, session, envelope):
        self.envelopes.append(
            (
                list(envelope.rcpt_tos),
                envelope.original_content or envelope.content,
                bool(envelope.smtp_utf8),
            )
        )
        return await super().handle_DATA(server, session, envelope)


def test_players_with_non_ascii_addresses_join_play_and_get_their_replies(referee, host, tmp_path):
    for who, name in ((JUERGEN, "Jürgen"), (DOKIMI, "Dokimi"), (ANNA, "Anna")):
        host(who, "[Join]", f"Name: {name}")
        confirm_waiting(referee)
    players = {p["name"]: p["addresses"] for p in referee.state("nomes")["players"]}
    assert players == {"Jürgen": [JUERGEN_WIRE], "Dokimi": [DOKIMI], "Anna": [ANNA_WIRE]}
    mover = referee.state("nomes")["turn"]["player"]
    address = {"Jürgen": JUERGEN, "Dokimi": DOKIMI, "Anna": ANNA}
    host(address[mover], "[Proposal] Tea", 'Enact rule 301 "Tea":\nTea for all.\n')
    for name in address:
        if name != mover:
            host(address[name], "Re: [Nomes] [Proposal 1] Tea", "FOR")
    assert referee.state("nomes")["proposals"][0]["status"] != "voting"
    with Relay(smtputf8=True) as relay:
        deliver(referee, relay, tmp_path)
    got = received(relay)
    for addr in (JUERGEN_WIRE, DOKIMI):
        mine = [(utf8, m) for r, utf8, m in got if r == addr]
        assert mine and all(utf8 for utf8, _ in mine)  # sent with SMTPUTF8
        assert all(
            m["To"] == addr and m["X-Mailref-Kind"] for _, m in mine
        )  # the address as written, in UTF-8
        acks = [m for _, m in mine if m["X-Mailref-Kind"] == "ack"]
        assert len(acks) >= 2 and "Understood" in acks[0].get_body(("plain",)).get_content()
    anna = [
        (utf8, m) for r, utf8, m in got if r == ANNA_WIRE
    ]  # an IDN domain alone: plain ASCII mail
    assert anna and not any(utf8 for utf8, _ in anna)
    with referee.store() as s:
        assert {r.status for r in s.query(OutboxMessage)} == {"sent"}


def test_a_relay_without_smtputf8_refuses_clearly_and_the_gm_is_told(
    referee, host, tmp_path, caplog
):
    host(DOKIMI, "[Join]", "Name: Dokimi")
    confirm_waiting(referee)
    host(ANNA, "[Join]", "Name: Anna")
    confirm_waiting(referee)
    with Relay(smtputf8=False) as relay, caplog.at_level(logging.WARNING, logger="mailref.outbox"):
        d = deliver(referee, relay, tmp_path)
        with referee.store() as s:
            rows = s.query(OutboxMessage).order_by(OutboxMessage.id).all()
            failed = [r for r in rows if r.status == "failed"]
            assert failed and all(r.recipients == [DOKIMI] for r in failed)
            assert (
                "does not offer SMTPUTF8" in failed[0].last_error and DOKIMI in failed[0].last_error
            )
        assert d.deliver(referee.clock()) == (0, 0)  # never retried by itself
    got = received(relay)
    assert not any(r == DOKIMI for r, _, _ in got)
    assert any(r == ANNA_WIRE for r, _, _ in got)  # the others' mail goes on
    (alert,) = [m for r, _, m in got if m["X-Mailref-Kind"] == "alert"]
    assert alert["To"] == "gm@games.example"  # the game's GM
    text = alert.get_body(("plain",)).get_content()
    assert DOKIMI in text and "does not offer SMTPUTF8" in text
    assert "failed for good" in caplog.text and "SMTPUTF8" in caplog.text


def test_addresses_are_checked_as_internationalised_addresses():
    for ok in (JUERGEN, DOKIMI, ANNA, "josé@example.org", "用户@例子.广告"):
        assert problem(ok) is None, ok
    assert "non-ASCII" in problem(DOKIMI, ascii_local=True)
    assert problem(ANNA, ascii_local=True) is None
    assert problem("zero\u200bwidth@example.org")  # a format character is no address
    assert problem("a@exa mple.org") and problem("a@[192.0.2.1]") and problem("a@-x-.org")


def test_the_cli_takes_an_internationalised_player_address_and_check_tells_about_the_relay(
    tmp_path,
):
    with CountingSink(smtputf8=False) as old:
        site = Site(tmp_path, relay_port=old.port, smtp_in=False)
        check = site.cli("check")
    assert any(
        "SMTP relay" in line and "no SMTPUTF8" in line for line in check.stdout.splitlines()
    ), check.stdout
    assert (
        site.cli("game", "create", "nomes", "--variant", "sidekick", "--address", G).returncode == 0
    )
    r = site.cli("player", "add", "nomes", "Jürgen", JUERGEN)
    assert r.returncode == 0, r.stderr
    state = json.loads(site.cli("game", "show", "nomes", "--json").stdout)
    assert [p["addresses"] for p in state["players"]] == [[JUERGEN_WIRE]]
    r = site.cli("game", "create", "greek", "--variant", "sidekick", "--address", DOKIMI)
    assert r.returncode == 1 and "non-ASCII part before the @" in r.stderr
