"""The service an operator installs (SPEC §7): the unit, `mailref init` and the
README agree on the layout; the scripts never touch the host's services; the daemon logs one
line per mail, without its own timestamps under journald."""

from __future__ import annotations

import configparser
import os
import re
import smtplib
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mailref import config as config_mod
from support.helpers import mail, wait_for
from support.ops import Site

pytestmark = pytest.mark.spec("7")

ROOT = Path(__file__).resolve().parents[2]
G = "nomes@ref.example"


def unit() -> configparser.SectionProxy:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str
    parser.read(ROOT / "mailref.service")
    return parser["Service"]


def test_the_unit_and_init_under_etc_agree_on_every_state_path(tmp_path):
    service = unit()
    assert "ExecReload" not in service, "a reload that stops the daemon is not a reload"
    state = Path(service["WorkingDirectory"])
    assert state == Path("/var/lib") / service["StateDirectory"] == config_mod.SERVICE_STATE
    assert str(state) in service["ReadWritePaths"].split()
    config_file = Path(service["Environment"].split("MAILREF_CONFIG=", 1)[1].split()[0])
    assert config_file == Path("/etc") / service["ConfigurationDirectory"] / "mailref.toml"

    written = tmp_path / "mailref.toml"  # what `mailref init /etc/mailref` writes, read back
    written.write_text(config_mod.init_text(config_file.parent))
    cfg = config_mod.load(written)
    assert cfg.database == f"sqlite:///{state}/mailref.sqlite3"
    assert cfg.outbox_maildir == state / "outbox"
    assert '"var/' not in re.sub(r"#.*", "", written.read_text()), "no state path relative to /etc"


def test_init_elsewhere_keeps_state_beside_the_file(tmp_path):
    site = tmp_path / "site"
    r = subprocess.run(
        [sys.executable, "-m", "mailref", "init", str(site)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    cfg = config_mod.load(site / "mailref.toml")
    assert cfg.database == f"sqlite:///{site.resolve()}/var/mailref.sqlite3"
    assert cfg.outbox_maildir == site.resolve() / "var" / "outbox"


def test_the_readme_describes_the_layout_of_the_unit_and_init():
    readme = (ROOT / "README.md").read_text()
    for needed in (
        "mailref init /etc/mailref",
        "/etc/mailref/mailref.toml",
        "/var/lib/mailref/mailref.sqlite3",
        "/var/lib/mailref/outbox",
        "systemctl restart mailref",
    ):
        assert needed in readme, needed


def test_the_scripts_never_stop_start_or_reconfigure_a_host_service():
    for name in ("setup", "serve", "test"):
        code = "\n".join(
            line.split("#", 1)[0] for line in (ROOT / "scripts" / name).read_text().splitlines()
        )
        code = re.sub(
            r'"[^"]*"', '""', code
        )  # messages may say "service"; commands may not run one
        assert not re.search(r"\b(systemctl|service|invoke-rc\.d|update-rc\.d)\b", code), name
    assert "policy-rc.d" in (ROOT / "scripts" / "setup").read_text()


def test_setup_skips_pip_when_nothing_changed_and_needs_no_network(tmp_path):
    import hashlib
    import shutil

    import pytest

    if not shutil.which("swaks") or not (
        shutil.which("dovecot") or Path("/usr/sbin/dovecot").exists()
    ):
        pytest.skip("the packages scripts/setup installs are missing here")
    checkout = (
        tmp_path / "checkout"
    )  # a checkout whose .venv was installed from this pyproject.toml
    (checkout / "scripts").mkdir(parents=True)
    shutil.copy(ROOT / "scripts" / "setup", checkout / "scripts" / "setup")
    shutil.copy(ROOT / "pyproject.toml", checkout / "pyproject.toml")
    venv = checkout / ".venv" / "bin"
    venv.mkdir(parents=True)
    (venv / "python").symlink_to(sys.executable)
    (venv / "mailref").write_text("#!/bin/sh\n")
    (venv / "mailref").chmod(0o755)
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    (checkout / ".venv" / ".mailref-installed").write_text(f"{digest} [test]\n")
    offline = {
        "PATH": os.environ["PATH"],
        "PIP_NO_INDEX": "1",
        "http_proxy": "http://127.0.0.1:9/",
        "https_proxy": "http://127.0.0.1:9/",
    }
    r = subprocess.run(
        [str(checkout / "scripts" / "setup"), "--test"],
        capture_output=True,
        text=True,
        timeout=120,
        env=offline,
    )
    assert r.returncode == 0 and r.stderr == "", r.stderr
    (checkout / "pyproject.toml").write_text(
        (ROOT / "pyproject.toml").read_text() + "\n# changed\n"
    )
    r = subprocess.run(
        [str(checkout / "scripts" / "setup")],
        capture_output=True,
        text=True,
        timeout=120,
        env=offline,
    )
    assert "setup: installing mailref" in r.stderr  # and says so (offline, pip then fails)


def test_one_log_line_per_mail_and_no_own_timestamps_under_journald(tmp_path):
    site = Site(tmp_path)
    with site.serve(JOURNAL_STREAM="8:12345") as daemon:
        with smtplib.SMTP("127.0.0.1", site.smtp_port) as c:
            for i in range(3):
                c.sendmail(
                    f"p{i}@x.org",
                    ["referee@ref.example"],
                    mail(f"p{i}@x.org", "referee@ref.example", "[Help]"),
                )
        lines = wait_for(
            lambda: [ln for ln in daemon.stderr().splitlines() if " mail #" in ln and "ms)" in ln]
            if daemon.stderr().count("ms)") >= 3
            else None,
            30,
        )
        assert daemon.stop() == 0
    assert len(lines) == 3, daemon.stderr()
    assert re.search(
        r"mail #1 from p0@x\.org game=- tag=help: processed: .* \(\d+ ms\)", lines[0]
    ), lines[0]
    stamp = re.compile(r"^\d{4}-\d\d-\d\d")
    assert not [ln for ln in daemon.stderr().splitlines() if stamp.match(ln)]


def test_unreachable_servers_are_one_line_each_not_a_traceback(tmp_path):
    from support.dovecot import free_port

    closed = free_port()  # nothing listens there
    site = Site(
        tmp_path,
        relay_port=closed,
        extra=(
            f'[imap]\nhost = "127.0.0.1"\nport = {closed}\nssl = false\nusername = "r"\npassword '
            '= "p"\n'
        ),
    )
    with site.serve() as daemon:
        with smtplib.SMTP("127.0.0.1", site.smtp_port) as c:
            for i in range(3):  # three replies wait: the relay is still said to be down once
                c.sendmail(
                    f"p{i}@x.org",
                    ["referee@ref.example"],
                    mail(f"p{i}@x.org", "referee@ref.example", "[Help]"),
                )
        wait_for(
            lambda: daemon.stderr().count("ms)") == 3
            and "not delivered" in daemon.stderr()
            and "IMAP" in daemon.stderr(),
            30,
        )
        time.sleep(1)
        assert daemon.stop() == 0
    log = daemon.stderr()
    assert "Traceback" not in log, log
    relay = [ln for ln in log.splitlines() if "not delivered" in ln]
    assert len(relay) == 1 and f"relay 127.0.0.1:{closed} unreachable" in relay[0], log
    assert [
        ln
        for ln in log.splitlines()
        if f"IMAP r@127.0.0.1:{closed}/INBOX: unreachable" in ln and "refused" in ln
    ], log
