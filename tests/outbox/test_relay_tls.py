"""The relay over STARTTLS (`[smtp_out] starttls = true`): its certificate is checked, since
smtplib's own default checks none and the relay login would go to whoever answered; an
untrusted certificate or a relay without STARTTLS is one line naming what to change, the mail
waits and goes once the relay is trusted. A real aiosmtpd relay with a self-signed
certificate for 127.0.0.1."""

from __future__ import annotations

import ssl

import pytest
from aiosmtpd.controller import Controller

from mailref.config import SmtpOut
from mailref.store import OutboxMessage
from support.delivery import Deliverer
from support.dovecot import free_port, self_signed
from support.helpers import mail
from support.ops import Site

pytestmark = pytest.mark.spec("4.3")

G = "nomes@ref.example"


class Sink:
    def __init__(self):
        self.got: list[tuple[list[str], bytes, bool]] = []

    async def handle_DATA(self, server, session, envelope):
        self.got.append((envelope.rcpt_tos, envelope.content, session.ssl is not None))
        return "250 OK"


@pytest.fixture(scope="module")
def cert(tmp_path_factory):
    root = tmp_path_factory.mktemp("relay-tls")
    self_signed(root / "cert.pem", root / "key.pem")
    return root / "cert.pem", root / "key.pem"


@pytest.fixture
def tls_relay(cert):
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(*map(str, cert))
    sink = Sink()
    ctl = Controller(
        sink, hostname="127.0.0.1", port=free_port(), tls_context=context, require_starttls=True
    )
    ctl.start()
    yield sink, ctl.port
    ctl.stop()


def statuses(referee) -> list[tuple[str, str]]:
    with referee.store() as s:
        return [(r.status, r.last_error) for r in s.query(OutboxMessage).order_by(OutboxMessage.id)]


def test_the_relays_certificate_is_checked_and_the_mail_waits_until_it_is_trusted(
    referee, clock, tls_relay, cert, monkeypatch, caplog
):
    sink, port = tls_relay
    referee.create_game("nomes", "sidekick", G)
    referee.accept(mail("alice@x.org", G, "[Help]"))
    d = Deliverer(
        referee.store,
        "referee@ref.example",
        SmtpOut(host="127.0.0.1", port=port, starttls=True),
        "unused",
        "gm@ref.example",
    )
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    with caplog.at_level("ERROR", "mailref.outbox"):
        assert d.deliver(clock()) == (0, 1)  # was: sent over TLS to whoever answered
    assert sink.got == [] and [s for s, _ in statuses(referee)] == ["queued"]
    said = [r.getMessage() for r in caplog.records if "not delivered" in r.getMessage()]
    assert (
        len(said) == 1
        and "certificate is not trusted" in said[0]
        and "'127.0.0.1' ([smtp_out] host)" in said[0]
    )
    assert "b'" not in said[0]

    monkeypatch.setenv("SSL_CERT_FILE", str(cert[0]))  # the operator names the relay's CA
    clock.advance(minutes=5)
    assert d.deliver(clock()) == (1, 0)
    ((rcpts, _, over_tls),) = sink.got
    assert rcpts == ["alice@x.org"] and over_tls


def test_check_says_the_certificate_is_not_trusted_and_ok_once_it_is(tmp_path, tls_relay, cert):
    _, port = tls_relay
    site = Site(tmp_path, relay_port=port, smtp_in=False)
    site.config.write_text(
        site.config.read_text().replace(f"port = {port}\n", f"port = {port}\nstarttls = true\n")
    )
    r = site.cli("check")
    (line,) = [x for x in r.stdout.splitlines() if x.startswith("FAIL")]
    assert (
        r.returncode == 1 and "certificate is not trusted" in line and "[smtp_out] host" in line
    ), r.stdout
    r = site.cli("check", SSL_CERT_FILE=str(cert[0]))
    assert r.returncode == 0 and "STARTTLS ok" in r.stdout, r.stdout + r.stderr


def test_a_relay_without_starttls_is_named(tmp_path):
    sink = Sink()
    ctl = Controller(sink, hostname="127.0.0.1", port=free_port())
    ctl.start()
    try:
        site = Site(tmp_path, relay_port=ctl.port, smtp_in=False)
        site.config.write_text(
            site.config.read_text().replace(
                f"port = {ctl.port}\n", f"port = {ctl.port}\nstarttls = true\n"
            )
        )
        r = site.cli("check")
    finally:
        ctl.stop()
    (line,) = [x for x in r.stdout.splitlines() if x.startswith("FAIL")]
    assert "does not offer STARTTLS" in line and "[smtp_out] starttls = false" in line, r.stdout
