"""The ports the tests' servers listen on (tests/support/ports.py): a port is handed to one
process only, so a server started in one test process never finds its port taken by
another's, however long it takes to start."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

from support import ports

SUPPORT = Path(__file__).resolve().parents[1]


def test_two_processes_are_never_handed_the_same_port():
    # Neither binds what it was handed: the old way (port 0, closed, listened on later) could
    # hand the same number to both meanwhile.
    other = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from support.ports import free_port; "
            "print(*[free_port() for _ in range(50)], flush=True); sys.stdin.read()",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=SUPPORT,
    )
    try:
        assert other.stdout is not None and other.stdin is not None
        theirs = {int(p) for p in other.stdout.readline().split()}
        mine = {ports.free_port() for _ in range(50)}  # while the other process lives
    finally:
        other.communicate("", timeout=60)
    assert len(theirs) == 50 and len(mine) == 50 and not theirs & mine, (theirs, mine)


def test_a_port_in_use_is_skipped_and_none_is_one_the_kernel_hands_out():
    low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    first = ports.free_port()
    with socket.create_server(("127.0.0.1", first)):  # a server of this process listens on it
        handed = [ports.free_port() for _ in range(ports.BLOCK)]
    assert first not in handed
    assert all(ports.LOWEST <= p < low for p in [first, *handed])
