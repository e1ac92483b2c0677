"""A relay's refusals: one wanting a login keeps the mail waiting and names the keys; which refusals
are the relay refusing this host."""

from __future__ import annotations

import json
import time

import pytest

from support.helpers import wait_for
from support.joining import confirm_on_site
from support.operator_host import PickyRelay, send
from support.ops import Site

pytestmark = pytest.mark.spec("4.3")


@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")
@pytest.mark.parametrize("wants", ["login", "relaying"])
def test_a_relay_wanting_a_login_it_was_not_given_keeps_the_mail_waiting_and_says_which_keys(
    tmp_path, wants
):
    """A relay that needs AUTH (or relays only for logged-in clients) with no [smtp_out]
    username: every reply and announcement "failed for good: relay said 530 5.7.0
    Authentication required", one WARNING per row, and `mailref check` said "EHLO ok". Now the
    check fails naming the keys, the mail waits (one line), and goes once the login is set."""
    relay = PickyRelay(wants)
    relay.controller.start()
    try:
        site = Site(tmp_path, relay_port=relay.port)
        r = site.cli("check")
        line = next(x for x in r.stdout.splitlines() if "SMTP relay" in x)
        assert (
            r.returncode == 1
            and line.startswith("FAIL")
            and "[smtp_out] username and password_file" in line
        ), r.stdout
        site.create_game("nomes", "sidekick", "nomes@ref.example", gm="gm@example.org")
        with site.serve() as daemon:
            for i, name in enumerate(["Alice", "Bob", "Carol"]):
                send(
                    site,
                    f"{name.lower()}@example.org",
                    "nomes@ref.example",
                    "[Join]",
                    f"Name: {name}",
                    f"j{i}@x",
                )
                confirm_on_site(site, f"{name.lower()}@example.org")
            assert wait_for(lambda: daemon.stderr().count("joined") == 3, 30), daemon.stderr()
            assert wait_for(
                lambda: "outbox: mail not delivered" in daemon.stderr(), 30
            ), daemon.stderr()
            time.sleep(1)
        log = daemon.stderr()
        assert (
            "failed for good" not in log and log.count(" ERROR ") == 1 and " WARNING " not in log
        ), log
        assert "[smtp_out] username and password_file" in log, log
        rows = json.loads(site.cli("outbox", "list", "--json").stdout)
        assert rows and {row["status"] for row in rows} == {"queued"}, rows

        (tmp_path / "relay.pass").write_text("s3cret\n")
        text = site.config.read_text().replace(
            f"port = {relay.port}\n",
            f'port = {relay.port}\nusername = "mailref"\npassword_file = "relay.pass"\n',
        )
        site.config.write_text(text)
        r = site.cli("check")
        assert r.returncode == 0, r.stdout
        r = site.cli("outbox", "retry")
        assert r.returncode == 0 and f"{len(rows)} delivered now" in r.stdout, (r.stdout, r.stderr)
        assert len(relay.mails) == len(rows)
    finally:
        relay.controller.stop()


def test_which_refusals_are_the_relay_refusing_this_host():
    """Only the relay's words for "log in first" or "no relaying" keep mail waiting; a verdict
    on the mail itself (a DMARC refusal relayed back) still fails it."""
    from mailref.config import SmtpOut
    from mailref.mail.relay_trouble import refuses_us

    relay = SmtpOut(host="relay.example", port=587)
    for code, said in [
        (530, "5.7.0 Authentication required"),
        (530, "5.7.57 Client not authenticated to send mail"),
        (550, "5.7.1 Relaying denied. Proper authentication required"),
        (554, "5.7.1 <x@y.org>: Relay access denied"),
        (550, "5.7.1 Unable to relay"),
    ]:
        assert refuses_us(code, said, relay), said
    for code, said in [
        (
            550,
            "5.7.26 Unauthenticated email from example.org is not accepted due to domain's DMARC "
            "policy",
        ),
        (550, "5.1.1 <x@y.org>: Recipient address rejected: User unknown"),
        (552, "5.3.4 Message size exceeds fixed limit"),
    ]:
        assert refuses_us(code, said, relay) is None, said
