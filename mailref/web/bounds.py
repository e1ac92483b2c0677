"""The endpoint's doors bounded as the SMTP listener's are (SPEC §4.3): at most MAX_CONNECTIONS
open at once, each serving one request, whose header must come within HEADER_DEADLINE of the
connection and its body within BODY_DEADLINE of the header; a bad request of any kind is one
log line, then counted and said again with its rate, never a traceback each."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

log = logging.getLogger("mailref.web")

MAX_CONNECTIONS = 256  # open at once; more are closed at once (a 503), each under the file limit
HEADER_DEADLINE = 10.0  # seconds from the connection to the end of the request's header
BODY_DEADLINE = 10.0  # seconds from the header to the end of the body
SAY_EVERY = 60.0  # seconds: a kind of bad request is said at most once in this long


class BadRequests:
    """Bad requests by kind: the first said at once, the others counted and said with their
    rate once SAY_EVERY has passed since the kind was last said."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.counted: dict[str, tuple[float, int]] = {}  # kind -> (said at, counted since)

    def note(self, kind: str, peer: str = "") -> None:
        now = self.clock()
        said, n = self.counted.get(kind, (None, 0))
        if said is None:
            log.warning(
                "web: %s%s; more of this kind are counted", kind, f" ({peer})" if peer else ""
            )
            self.counted[kind] = (now, 0)
        elif now - said >= SAY_EVERY:
            log.warning("web: %d more %s in %.0f s", n + 1, kind, now - said)
            self.counted[kind] = (now, 0)
        else:
            self.counted[kind] = (said, n + 1)


class QuietServerLog(logging.Filter):
    """aiohttp's "Error handling request" with a traceback, for each malformed request: counted
    by kind (the error's name) instead."""

    def __init__(self, bad: BadRequests) -> None:
        super().__init__()
        self.bad = bad

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        kind = type(exc).__name__ if exc is not None else "error"
        self.bad.note(f"malformed requests ({kind})")
        return False


class Door(asyncio.Protocol):
    """One connection: aiohttp's protocol INNER, closed when its header is late or INNER has
    not begun a request; the endpoint's handler calls begun() and body_deadline()."""

    def __init__(self, inner: asyncio.Protocol, doors: Doors) -> None:
        self.inner, self.doors = inner, doors
        self.transport: asyncio.Transport | None = None
        self.timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        self.doors.open[transport] = self
        loop = asyncio.get_running_loop()
        self.timer = loop.call_later(HEADER_DEADLINE, self.late, "headers not sent in time")
        self.inner.connection_made(transport)

    def begun(self) -> None:
        """The request's header has come: the header deadline no longer holds."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def late(self, kind: str) -> None:
        self.doors.bad.note(kind, peer(self.transport))
        if self.transport is not None:
            self.transport.abort()

    def data_received(self, data: bytes) -> None:
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received()

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        self.begun()
        if self.transport is not None:
            self.doors.open.pop(self.transport, None)
        self.inner.connection_lost(exc)


class Full(asyncio.Protocol):
    """A connection past MAX_CONNECTIONS: told to come back later, and closed."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        transport.write(
            b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n"
            b"Retry-After: 10\r\n\r\n"
        )
        transport.close()


class Doors:
    """The protocol factory of the endpoint's socket, over aiohttp's factory SERVER."""

    def __init__(self, bad: BadRequests) -> None:
        self.bad = bad
        self.server: Callable[[], asyncio.Protocol] | None = None  # set once aiohttp's is made
        self.open: dict[asyncio.BaseTransport, Door] = {}

    def __call__(self) -> asyncio.Protocol:
        assert self.server is not None
        if len(self.open) >= MAX_CONNECTIONS:
            self.bad.note(f"connections past the {MAX_CONNECTIONS} open at once")
            return Full()
        return Door(self.server(), self)

    def door_of(self, transport: asyncio.BaseTransport | None) -> Door | None:
        return self.open.get(transport) if transport is not None else None


def raise_file_limit() -> int:
    """The process's soft limit on open files raised to its hard limit (systemd's default soft
    limit is 1,024, which MAX_CONNECTIONS and the mail the daemon sends share); returns it."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if hard == resource.RLIM_INFINITY or soft < hard:
            wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        return soft
    except (ImportError, ValueError, OSError):  # no such limit here, or not ours to raise
        return -1


def peer(transport: asyncio.BaseTransport | None) -> str:
    where = transport.get_extra_info("peername") if transport is not None else None
    return str(where[0]) if where else ""
