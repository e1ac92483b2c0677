"""Ports for the servers the tests start, each handed to one process only.

A port found free by binding port 0 and closing it is listened on later (a daemon starting,
a Dovecot): meanwhile another test process (an xdist worker, another checkout's suite on
this machine) could be handed the same number, and one of the two servers could not listen.
So each process claims a block of ports below the kernel's ephemeral range (which port 0 and
outgoing connections draw from), by a lock held for its life, and hands out the ports of its
block in turn, skipping any that something still holds."""

from __future__ import annotations

import fcntl
import os
import socket
import tempfile
from pathlib import Path

BLOCK = 200  # ports a process claims at once
LOWEST = 10_000
LOCKS = Path(tempfile.gettempdir()) / "mailref-test-ports"

_held: list[int] = []  # the locks of this process's blocks, open for its life
_block = range(0)
_owner = 0  # the pid that claimed _block (a forked child claims its own)
_next = 0


def _ephemeral_start() -> int:
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def claim_block() -> range:
    """A block of BLOCK ports no other living process holds, held until this one ends."""
    try:
        LOCKS.mkdir()
        LOCKS.chmod(0o1777)  # shared by every user's suite, as the temp directory is
    except FileExistsError:
        pass
    for start in range(LOWEST, _ephemeral_start() - BLOCK + 1, BLOCK):
        try:  # read-only is enough to lock, so a lock file another user made serves too
            fd = os.open(LOCKS / f"{start}", os.O_RDONLY | os.O_CREAT, 0o444)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue
        _held.append(fd)
        return range(start, start + BLOCK)
    raise RuntimeError(f"every block of test ports under {LOCKS} is held")


def _unheld(port: int) -> bool:
    """Nothing listens on PORT nor holds it (no SO_REUSEADDR: a closing connection counts)."""
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_port() -> int:
    """A loopback port no other process is handed and nothing holds now; this process hands
    it out again only after the rest of its block."""
    global _block, _owner, _next
    if _owner != os.getpid():
        _block, _owner, _next = claim_block(), os.getpid(), 0
    for _ in range(len(_block)):
        port = _block[_next % len(_block)]
        _next += 1
        if _unheld(port):
            return port
    _block, _next = claim_block(), 0  # every port of the block is in use: another block
    return free_port()
