"""How the outbox opens a relay connection: TLS from the first byte (`[smtp_out] tls =
"implicit"`, port 465) with the certificate checked, the EHLO name set by `ehlo_name`, and a
refused login tried once a connection and then not again until its back-off ends. Real
aiosmtpd relays."""

from __future__ import annotations

import ssl

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult
from sqlalchemy import select

from mailref import config as config_mod
from mailref.config import SmtpOut
from mailref.door import Settings
from mailref.mail.outbox import Deliverer
from mailref.referee import Referee
from mailref.store import OutboxMessage, open_store
from mailref.timeutil import utcnow
from support.dovecot import free_port, self_signed
from support.helpers import mail
from support.ops import Site

pytestmark = pytest.mark.spec("4.3")

G = "nomes@ref.example"


class Sink:
    """A relay handler keeping each mail with the EHLO name it was sent under and whether the
    connection was in TLS; LOGINS counts AUTH attempts per connection."""

    def __init__(self):
        self.got: list[tuple[str, list[str], bool]] = []
        self.logins: dict[int, int] = {}

    async def handle_EHLO(self, server, session, envelope, hostname, responses):
        session.host_name = hostname
        return responses

    async def handle_DATA(self, server, session, envelope):
        over_tls = server.transport.get_extra_info("ssl_object") is not None
        self.got.append((session.host_name, list(envelope.rcpt_tos), over_tls))
        return "250 OK"

    def refuse(self, server, session, envelope, mechanism, data):
        self.logins[id(session)] = self.logins.get(id(session), 0) + 1
        return AuthResult(success=False, handled=False)


@pytest.fixture(scope="module")
def cert(tmp_path_factory):
    root = tmp_path_factory.mktemp("relay-465")
    self_signed(root / "cert.pem", root / "key.pem")
    return root / "cert.pem", root / "key.pem"


def rows(referee) -> list[OutboxMessage]:
    with referee.store() as s:
        return list(s.scalars(select(OutboxMessage).order_by(OutboxMessage.id)))


def deliverer(referee, relay: SmtpOut) -> Deliverer:
    return Deliverer(referee.store, "referee@ref.example", relay, "unused", "gm@ref.example")


def test_implicit_tls_reaches_a_relay_on_its_tls_port_under_the_ehlo_name_set(
    referee, clock, cert, monkeypatch
):
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(*map(str, cert))
    sink = Sink()
    ctl = Controller(sink, hostname="127.0.0.1", port=free_port(), ssl_context=context)
    ctl.start()
    try:
        referee.create_game("nomes", "sidekick", G)
        referee.accept(mail("alice@x.org", G, "[Help]"))
        relay = SmtpOut(host="127.0.0.1", port=ctl.port, tls="implicit", ehlo_name="games.test")
        monkeypatch.delenv("SSL_CERT_FILE", raising=False)
        assert deliverer(referee, relay).deliver(clock()) == (0, 1)  # not a CA we know
        assert sink.got == []
        assert "certificate is not trusted" in rows(referee)[0].last_error
        monkeypatch.setenv("SSL_CERT_FILE", str(cert[0]))
        clock.advance(minutes=5)
        assert deliverer(referee, relay).deliver(clock()) == (1, 0)
    finally:
        ctl.stop()
    assert sink.got == [("games.test", ["alice@x.org"], True)]


def test_a_wrong_password_costs_one_login_a_connection_and_then_waits_its_back_off(referee, clock):
    sink = Sink()
    ctl = Controller(
        sink,
        hostname="127.0.0.1",
        port=free_port(),
        authenticator=sink.refuse,
        auth_require_tls=False,
    )
    ctl.start()
    try:
        referee.create_game("nomes", "sidekick", G)
        referee.accept(mail("alice@x.org", G, "[Help]"))
        d = deliverer(
            referee, SmtpOut(host="127.0.0.1", port=ctl.port, username="mailref", password="no")
        )
        assert d.deliver(clock()) == (0, 1)
        assert list(sink.logins.values()) == [1]  # was: PLAIN refused, then LOGIN tried too
        # More mail, due at once: no new login before the back-off ends.
        referee.accept(mail("bob@x.org", G, "[Help]"))
        clock.advance(minutes=10)
        d.deliver(clock())
        assert list(sink.logins.values()) == [1]
    finally:
        ctl.stop()
    waiting = rows(referee)
    assert sink.got == [] and {r.status for r in waiting} == {"queued"}
    assert all("refused the login" in r.last_error for r in waiting), [
        r.last_error for r in waiting
    ]


def test_the_relays_tls_and_ehlo_name_keys_are_checked(tmp_path):
    cfg = tmp_path / "m.toml"
    cfg.write_text('[smtp_out]\nport = 465\ntls = "implicit"\nehlo_name = "mail.example.org"\n')
    relay = config_mod.load(cfg).smtp_out
    assert (relay.tls, relay.ehlo_name, relay.starttls) == ("implicit", "mail.example.org", False)
    cfg.write_text("[smtp_out]\nstarttls = true\n")  # the older key still reads
    assert config_mod.load(cfg).smtp_out.tls == "starttls"
    for bad, key in (
        ('tls = "ssl"', r"\[smtp_out\] tls"),
        ('tls = "implicit"\nstarttls = true', r"\[smtp_out\] starttls"),
        ('ehlo_name = "my host"', r"\[smtp_out\] ehlo_name"),
    ):
        cfg.write_text(f"[smtp_out]\n{bad}\n")
        with pytest.raises(config_mod.ConfigError, match=key):
            config_mod.load(cfg)


def test_outbox_retry_trusts_the_relay_by_the_configurations_ca_file_as_the_daemon_does(
    tmp_path, cert, monkeypatch
):
    """The daemon's unit may name a private CA in its environment; a command an operator runs
    has no such environment: the CA comes from the configuration, or the line names the key."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(*map(str, cert))
    sink = Sink()
    ctl = Controller(
        sink, hostname="127.0.0.1", port=free_port(), tls_context=context, require_starttls=True
    )
    ctl.start()
    try:
        site = Site(tmp_path, relay_port=ctl.port, smtp_in=False)
        site.db.parent.mkdir(parents=True, exist_ok=True)
        referee = Referee(
            open_store(f"sqlite:///{site.db}"),
            Settings("referee@ref.example", "gm@ref.example"),
            utcnow,
        )
        referee.create_game("nomes", "sidekick", G, gm="gm@ref.example")
        referee.admin(
            "nomes", {"type": "player_add", "name": "Alice", "address": "alice@x.org"}, "test"
        )
        queued = len(rows(referee))
        referee.store.dispose()
        toml = site.config.read_text()
        site.config.write_text(
            toml.replace(f"port = {ctl.port}\n", f'port = {ctl.port}\ntls = "starttls"\n')
        )
        monkeypatch.delenv("SSL_CERT_FILE", raising=False)
        r = site.cli("outbox", "retry")
        assert r.returncode == 0 and "0 delivered now" in r.stdout, r.stdout + r.stderr
        assert "certificate is not trusted" in r.stderr and "[smtp_out] ca_file" in r.stderr
        assert sink.got == []
        site.config.write_text(
            toml.replace(
                f"port = {ctl.port}\n",
                f'port = {ctl.port}\ntls = "starttls"\nca_file = "{cert[0]}"\n',
            )
        )
        r = site.cli("outbox", "retry")
        assert r.returncode == 0 and f"{queued} delivered now" in r.stdout, r.stdout + r.stderr
        assert site.cli("check").returncode == 0
    finally:
        ctl.stop()
    assert len(sink.got) == queued and all(tls for _, _, tls in sink.got)
