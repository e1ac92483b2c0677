"""A port below 1024 without the capability says how to grant it."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from support.daemon_processes import free_low_port, without_low_ports
from support.ops import Site

pytestmark = pytest.mark.spec("7")


def test_a_port_below_1024_without_the_capability_says_how_to_grant_it(tmp_path):
    """`[smtp_in] port = 25` under the unit (CapabilityBoundingSet= empty): the daemon ended
    "cannot listen on 127.0.0.1:25: permission denied" and `check` said the same, leaving the
    operator to work out why. Both now name the capability and the unit's keys."""
    if os.geteuid() != 0:
        pytest.skip("needs root to drop a capability")
    site = Site(tmp_path)
    port = free_low_port()
    site.config.write_text(
        site.config.read_text().replace(f"port = {site.smtp_port}", f"port = {port}")
    )
    r = subprocess.run(
        [sys.executable, "-m", "mailref", "check"],
        cwd=site.root,
        env=site.env(),
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=without_low_ports,
    )
    line = next(x for x in r.stdout.splitlines() if "SMTP listener" in x)
    assert (
        line.startswith("FAIL") and "CAP_NET_BIND_SERVICE" in line and "AmbientCapabilities" in line
    ), r.stdout
    proc = subprocess.run(
        [sys.executable, "-m", "mailref", "serve"],
        cwd=site.root,
        env=site.env(),
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=without_low_ports,
    )
    assert proc.returncode == 1 and "permission denied" in proc.stderr, proc.stderr
    assert "AmbientCapabilities=CAP_NET_BIND_SERVICE" in proc.stderr.splitlines()[-1], proc.stderr
