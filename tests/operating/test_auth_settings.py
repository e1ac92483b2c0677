"""Sender authentication settings: require_auth with no trusted server is said to the GM at once;
the daemon logs the site and trusted servers it uses."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.spec("2.7")


def test_require_auth_on_with_no_trusted_server_is_said_to_the_gm_at_once(tmp_path):
    """SPEC §2.7: with no [auth] trusted_authserv_ids nothing can be verified, so a game set
    require_auth=on refuses every player's command. `game set` said only "require_auth = on"; the
    GM learnt it from the players' refusals. It now says so (exit 0: the setting is taken)."""
    from support.ops import Site

    site = Site(tmp_path, smtp_in=False)
    r = site.cli(
        "game",
        "create",
        "nomes",
        "--variant",
        "sidekick",
        "--address",
        "nomes@ref.example",
        "--set",
        "require_auth=on",
    )
    assert r.returncode == 0 and "trusts no authentication server" in r.stdout, (r.stdout, r.stderr)
    for value, warned in (("off", False), ("on", True)):
        r = site.cli("game", "set", "nomes", f"require_auth={value}")
        assert (
            r.returncode == 0
            and ("every player's command in this game is refused" in r.stdout) == warned
        ), r.stdout
    (tmp_path / "trusting").mkdir()
    trusting = Site(
        tmp_path / "trusting",
        smtp_in=False,
        extra='[auth]\ntrusted_authserv_ids = ["mx.ref.example"]\n',
    )
    r = trusting.cli(
        "game",
        "create",
        "nomes",
        "--variant",
        "sidekick",
        "--address",
        "nomes@ref.example",
        "--set",
        "require_auth=on",
    )
    assert r.returncode == 0 and "note:" not in r.stdout, r.stdout


def test_the_daemon_logs_the_site_and_the_trusted_servers_it_uses(tmp_path):
    """SPEC §1.2: `mailref serve` "logs what it uses". Its start line named the database, the
    listener, IMAP and the relay or outbox, but not the published site's folder nor the servers
    whose Authentication-Results it trusts, both of which change what players get."""
    from support.ops import Site

    site = Site(
        tmp_path,
        smtp_in=False,
        extra='[site]\ndir = "var/site"\n' '[auth]\ntrusted_authserv_ids = ["mx.ref.example"]\n',
    )
    daemon = site.serve().ready()
    try:
        said = next(line for line in daemon.stderr().splitlines() if "mailref starting:" in line)
    finally:
        daemon.stop()
    assert (
        f"site {tmp_path / 'var' / 'site'}" in said
        and "trusted authentication servers mx.ref.example" in said
    ), said
