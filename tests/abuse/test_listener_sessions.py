"""One client cannot hold every session of the SMTP listener."""

from __future__ import annotations

import pytest

from support.helpers import wait_for
from support.listener import listening

pytestmark = pytest.mark.spec("2.1")


def test_one_client_cannot_take_every_session_of_the_listener(referee):
    """600 idle connections from one host took all 500 sessions: everyone else's mail was
    refused "421 too many sessions" until they were timed out, and the host could open them
    again. One client (an address, an IPv6 /64) holds at most MAX_SESSIONS_PER_CLIENT."""
    import socket

    from mailref.mail import smtp_server
    from mailref.mail.smtp_server import client_of
    from support.listener import Raw

    def greeting(port: int, source: str) -> str:
        s = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
        held.append(s)
        return s.makefile("rb").readline().decode()

    held: list = []
    with listening(referee) as port:
        mine = [Raw(port) for _ in range(smtp_server.MAX_SESSIONS_PER_CLIENT)]
        assert all(c.greeting.startswith("220") for c in mine)
        assert greeting(port, "127.0.0.1").startswith("421 4.7.0")
        assert greeting(port, "127.0.0.2").startswith("220")  # another host is served
        mine[0].close()
        # A place of its own comes free once the listener has seen the close.
        assert wait_for(lambda: greeting(port, "127.0.0.1").startswith("220"), 10)
        for c in mine[1:]:
            c.close()
        for s in held:
            s.close()
    assert (
        client_of(("2001:db8::1", 25, 0, 0))
        == client_of(("2001:db8::ffff", 25, 0, 0))
        == "2001:db8::/64"
    )
    assert client_of(("::ffff:192.0.2.1", 25, 0, 0)) == "192.0.2.1" and client_of(None) is None
