"""The IMAP gateway as an operator meets it: a folder that does not exist yet, a wrong
password, the server restarted under a running daemon. Each fault is one line while it
lasts and one when it clears (SPEC §7), never a line a second; mail waiting meanwhile is
answered once it works."""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path

import pytest

from support.dovecot import USER
from support.helpers import mail, wait_for
from support.helpers import maildir_mails as outbox_mails
from support.ops import Site

G = "nomes@ref.example"
pytestmark = [pytest.mark.dovecot, pytest.mark.spec("2.1", "7")]


def folder_for(dovecot, name: str) -> str:
    """A folder name of this test's own that does not exist (yet) on the server."""
    folder = f"{name}{time.monotonic_ns() % 10**9}"
    c = dovecot.client()
    for f in (folder, f"{folder}-done", f"{folder}-rejected"):
        if c.folder_exists(f):
            c.delete_folder(f)
    c.logout()
    return folder


def test_a_missing_folder_is_one_line_until_it_exists_then_its_mail_is_answered(tmp_path, dovecot):
    folder = folder_for(dovecot, "missing")
    site = Site(tmp_path, smtp_in=False, extra=dovecot.imap_toml(folder, poll_interval="1s"))
    site.create_game("nomes", "sidekick", G)

    check = site.cli("check")
    assert check.returncode == 1
    (line,) = [x for x in check.stdout.splitlines() if x.startswith("FAIL")]
    assert (
        f"the folder '{folder}' does not exist" in line
        and "[imap] folder" in line
        and "secs)" not in line
    )

    with site.serve() as daemon:
        assert wait_for(lambda: "does not exist" in daemon.stderr(), 20), daemon.stderr()
        time.sleep(6)  # long enough for several attempts (1 s, 2 s, 4 s back-off)
        said = [x for x in daemon.stderr().splitlines() if "does not exist" in x]
        assert len(said) == 1, daemon.stderr()  # was: one warning a second, for ever
        assert "[imap] folder" in said[0] and "b'" not in said[0]

        c = dovecot.client()
        c.create_folder(folder)
        c.append(folder, mail("alice@x.org", G, "[Join]", "Name: Alice"))
        c.logout()
        acks = wait_for(
            lambda: [m for m in outbox_mails(tmp_path) if m["X-Mailref-Kind"] == "confirm"], 30
        )
        assert [m["To"] for m in acks] == ["alice@x.org"]
        assert wait_for(lambda: "works again" in daemon.stderr(), 10)
    assert [x for x in daemon.stderr().splitlines() if "Traceback" in x] == []


def test_a_wrong_password_is_one_clear_line_in_check_and_in_the_daemon(tmp_path, dovecot):
    folder = folder_for(dovecot, "pw")
    site = Site(
        tmp_path,
        smtp_in=False,
        extra=dovecot.imap_toml(folder, poll_interval="1s", password="wrong"),
    )
    check = site.cli("check")
    assert check.returncode == 1
    (line,) = [x for x in check.stdout.splitlines() if x.startswith("FAIL")]
    assert (
        f"login as '{USER}' refused" in line
        and "[imap] username and password" in line
        and "b'" not in line
    )

    with site.serve() as daemon:
        assert wait_for(lambda: "refused" in daemon.stderr(), 20)
        time.sleep(4)  # the server delays each failed login; the daemon tries again meanwhile
        said = [x for x in daemon.stderr().splitlines() if "refused" in x]
        assert len(said) == 1 and "b'" not in said[0], daemon.stderr()


def test_the_server_restarted_under_the_daemon_is_one_line_and_no_mail_waits(tmp_path, dovecot):
    folder = folder_for(dovecot, "restart")
    c = dovecot.client()
    c.create_folder(folder)
    c.logout()
    site = Site(
        tmp_path, smtp_in=False, extra=dovecot.imap_toml(folder, poll_interval="1h")
    )  # IDLE only
    site.create_game("nomes", "sidekick", G)
    with site.serve() as daemon:
        time.sleep(1.5)  # in IDLE
        dovecot.stop()
        time.sleep(1)
        dovecot.start()
        c = dovecot.client()
        c.append(folder, mail("bob@x.org", G, "[Join]", "Name: Bob"))
        c.logout()
        acks = wait_for(
            lambda: [m for m in outbox_mails(tmp_path) if m["X-Mailref-Kind"] == "confirm"], 40
        )
        assert [m["To"] for m in acks] == ["bob@x.org"]
        log = daemon.stderr()
    lost = [x for x in log.splitlines() if "connection was lost" in x or "unreachable" in x]
    # The drop and maybe a refused reconnect while it started (or none: the session survived).
    assert len(lost) <= 2 and ("works again" in log or not lost), log
    assert "Traceback" not in log


def test_tls_on_a_plain_port_says_which_key(tmp_path, dovecot):
    """ssl = true (the default) against a server's plain IMAP port."""
    site = Site(
        tmp_path,
        smtp_in=False,
        extra=dovecot.imap_toml("INBOX").replace("ssl = false", "ssl = true"),
    )
    r = site.cli("check")
    (line,) = [x for x in r.stdout.splitlines() if x.startswith("FAIL")]
    assert (
        r.returncode == 1
        and "TLS failed" in line
        and f"port {dovecot.port}" in line
        and "[imap] ssl = true" in line
    )


def test_a_server_that_wants_tls_before_login_is_not_called_a_wrong_password():
    """Dovecot's default (disable_plaintext_auth) answers a LOGIN without TLS with
    [PRIVACYREQUIRED]: the password may be right; the key to change is ssl."""
    from imapclient.exceptions import LoginError

    from mailref.config import Imap
    from mailref.mail.imap_trouble import explain

    cfg = Imap(
        host="imap.example.org",
        port=143,
        ssl=False,
        username="referee",
        password="x",
        folder="INBOX",
        processed_folder="p",
        rejected_folder="r",
    )
    said = explain(
        LoginError(
            "b'[PRIVACYREQUIRED] Plaintext authentication disallowed on non-secure (SSL/TLS) "
            "connections.'"
        ),
        cfg,
    )
    assert (
        "refuses a login without TLS" in said
        and "[imap] starttls = true" in said
        and "ssl = true" in said
    )
    assert "password" not in said
    assert "b'" not in said


# ---- STARTTLS ([imap] starttls = true on the plain port, as most hosts offer) ------------------


@pytest.fixture(scope="module")
def tls_dovecot(dovecot):
    """A Dovecot of its own offering STARTTLS with a self-signed certificate for 127.0.0.1
    (after the suite's own, which skips where Dovecot cannot run)."""
    from support.dovecot import Dovecot

    # Not under pytest's tmp folder: that is 0700, and Dovecot's auth runs as the mail user.
    root = Path(tempfile.mkdtemp(prefix="mailref-dovecot-tls-"))
    d = Dovecot(root, tls=True).start()
    yield d
    d.stop()
    shutil.rmtree(root, ignore_errors=True)


def starttls_toml(dovecot, folder: str) -> str:
    return dovecot.imap_toml(folder, poll_interval="1s").replace(
        "ssl = false", "ssl = false\nstarttls = true"
    )


def test_starttls_logs_in_over_tls_and_the_mail_is_answered(tmp_path, tls_dovecot):
    dovecot_log = tls_dovecot.root / "dovecot.log"
    out = dovecot_log.read_text().count("Logged out")
    folder = folder_for(tls_dovecot, "tls")
    c = tls_dovecot.client()
    c.create_folder(folder)
    c.append(folder, mail("alice@x.org", G, "[Join]", "Name: Alice"))
    c.logout()
    # Dovecot's log process writes the test's own two (plain) logins when it comes to them.
    assert wait_for(lambda: dovecot_log.read_text().count("Logged out") >= out + 2, 30)
    site = Site(tmp_path, smtp_in=False, extra=starttls_toml(tls_dovecot, folder))
    site.create_game("nomes", "sidekick", G)
    before = len(dovecot_log.read_text().splitlines())  # the test's own (plain) login
    trusted = {
        "SSL_CERT_FILE": str(tls_dovecot.cert)
    }  # the host's own CA, as an operator would name it
    check = site.cli("check", **trusted)
    assert check.returncode == 0, check.stdout + check.stderr
    assert "login ok, over STARTTLS" in check.stdout
    with site.serve(**trusted) as daemon:
        acks = wait_for(
            lambda: [m for m in outbox_mails(tmp_path) if m["X-Mailref-Kind"] == "confirm"], 30
        )
        assert [m["To"] for m in acks] == ["alice@x.org"]
    assert "Traceback" not in daemon.stderr() and "WARNING" not in daemon.stderr(), daemon.stderr()
    # Dovecot logs each login with TLS when the session was encrypted before it.
    logins = [x for x in dovecot_log.read_text().splitlines()[before:] if "Login: user=<" in x]
    assert logins and all("TLS" in x for x in logins), logins


def test_an_untrusted_certificate_is_one_line_naming_the_host(tmp_path, tls_dovecot):
    site = Site(tmp_path, smtp_in=False, extra=starttls_toml(tls_dovecot, "INBOX"))
    check = site.cli("check")  # the system's CAs do not know the self-signed certificate
    (line,) = [x for x in check.stdout.splitlines() if x.startswith("FAIL")]
    assert (
        check.returncode == 1
        and "certificate is not trusted" in line
        and "'127.0.0.1' ([imap] host)" in line
    )
    with site.serve() as daemon:
        assert wait_for(lambda: "certificate is not trusted" in daemon.stderr(), 20)
        time.sleep(3)  # the back-off tries again meanwhile: still one line
        said = [x for x in daemon.stderr().splitlines() if "is not trusted" in x]
        assert len(said) == 1 and "Traceback" not in daemon.stderr(), daemon.stderr()


def test_starttls_against_a_server_without_it_names_the_key(tmp_path, dovecot):
    site = Site(tmp_path, smtp_in=False, extra=starttls_toml(dovecot, "INBOX"))
    check = site.cli("check")
    (line,) = [x for x in check.stdout.splitlines() if x.startswith("FAIL")]
    assert (
        check.returncode == 1
        and "does not offer STARTTLS" in line
        and "[imap] starttls = false" in line
    )


def test_ssl_and_starttls_together_are_refused_naming_the_key(tmp_path, dovecot):
    site = Site(
        tmp_path,
        smtp_in=False,
        extra=starttls_toml(dovecot, "INBOX").replace("ssl = false", "ssl = true"),
    )
    r = site.cli("check")
    assert (
        r.returncode == 1 and "[imap] starttls" in r.stderr and "ssl = false" in r.stderr
    ), r.stderr
    assert str(site.config) in r.stderr and "Traceback" not in r.stderr
