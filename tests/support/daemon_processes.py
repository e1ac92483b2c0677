"""The daemon as a process, signalled as systemd signals it, and the processes it starts."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from support.ops import Site

G = "nomes@ref.example"


def serve(site: Site, log: Path, **env: str) -> subprocess.Popen:
    """`mailref serve` in a session of its own, so the test signals it as systemd does: the whole
    group."""
    with open(log, "wb") as f:
        return subprocess.Popen(
            [sys.executable, "-m", "mailref", "serve"],
            cwd=site.root,
            env=site.env(**env),
            stdout=subprocess.DEVNULL,
            stderr=f,
            start_new_session=True,
        )


def has_open(pid: int, suffix: str) -> bool:
    try:
        return any(
            os.readlink(f"/proc/{pid}/fd/{fd}").endswith(suffix)
            for fd in os.listdir(f"/proc/{pid}/fd")
        )
    except OSError:
        return False


def children(pid: int) -> list[int]:
    try:
        return [
            int(c)
            for t in os.listdir(f"/proc/{pid}/task")
            for c in Path(f"/proc/{pid}/task/{t}/children").read_text().split()
        ]
    except OSError:
        return []


def listener_child(pid: int) -> int | None:
    for c in children(pid):
        try:
            if b"spawn_main" in Path(f"/proc/{c}/cmdline").read_bytes():
                return c
        except OSError:
            pass
    return None


LEFT_OF = """(names => {
  const p = [...document.querySelectorAll('p')].find(p => p.textContent.startsWith('Turn order:'));
  const walker = document.createTreeWalker(p, NodeFilter.SHOW_TEXT);
  const at = {};
  for (let n = walker.nextNode(); n; n = walker.nextNode())
    for (const name of names) {
      const i = n.textContent.indexOf(name);
      if (i >= 0) { const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + \
name.length);
                    at[name] = r.getBoundingClientRect().left; }
    }
  return at;
})"""


class Refusing:
    """A relay that knows no such user."""

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        return "550 5.1.1 no such user here"


CAP_NET_BIND_SERVICE, PR_CAPBSET_DROP = 10, 24


def without_low_ports() -> None:
    """In the child, before exec: as the unit's empty CapabilityBoundingSet leaves the daemon."""
    import ctypes

    if os.geteuid() == 0 and ctypes.CDLL(None, use_errno=True).prctl(
        PR_CAPBSET_DROP, CAP_NET_BIND_SERVICE, 0, 0, 0
    ):
        raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def free_low_port() -> int:
    import socket

    for port in range(1023, 900, -1):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
                return port
            except OSError:
                continue
    pytest.skip("no free port below 1024")
