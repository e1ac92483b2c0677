"""`mailref check` says ok for the listener's port only when it is free or mailref itself
answers there: a port Postfix (or anything else) holds leaves `mailref serve` unable to
listen, and the check said ok."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from support.ops import Site

pytestmark = pytest.mark.spec("1.4")


@contextmanager
def held(port: int, greeting: bytes) -> Iterator[None]:
    """Another process's server on PORT: it greets each connection with GREETING (none:
    silent)."""
    with socket.socket() as srv:
        srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        srv.bind(("127.0.0.1", port))
        srv.listen(8)
        done = threading.Event()

        def serve() -> None:
            srv.settimeout(0.2)
            while not done.is_set():
                try:
                    conn, _ = srv.accept()
                except OSError:
                    continue
                with conn:
                    if greeting:
                        conn.sendall(greeting)
                    conn.settimeout(3)
                    try:
                        conn.recv(100)
                    except OSError:
                        pass

        t = threading.Thread(target=serve, daemon=True)
        t.start()
        try:
            yield
        finally:
            done.set()
            t.join(5)


@pytest.mark.parametrize(
    "greeting", [b"220 mx.ref.example ESMTP Postfix (Debian/GNU)\r\n", b""], ids=["postfix", "mute"]
)
def test_check_fails_a_listener_port_another_process_holds(tmp_path, greeting):
    site = Site(tmp_path)
    with held(site.smtp_port, greeting):
        r = site.cli("check")
    line = next(x for x in r.stdout.splitlines() if "SMTP listener" in x)
    assert r.returncode == 1 and line.startswith("FAIL"), r.stdout
    assert "held by another process" in line and "cannot listen there" in line, line
    if greeting:
        assert "ESMTP Postfix" in line, line


def test_check_passes_a_free_listener_port(tmp_path):
    site = Site(tmp_path)
    r = site.cli("check")
    line = next(x for x in r.stdout.splitlines() if "SMTP listener" in x)
    assert line.startswith("ok") and "free" in line, r.stdout


def test_check_passes_the_port_a_running_mailref_serve_holds(tmp_path):
    site = Site(tmp_path)
    with site.serve():
        r = site.cli("check")
    line = next(x for x in r.stdout.splitlines() if "SMTP listener" in x)
    assert line.startswith("ok") and "running mailref serve" in line, r.stdout
