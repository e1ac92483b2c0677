"""How a waiting IMAP connection is found to have ended: what the server sent with its
"+ idling", a host that answers IDLE itself with its BYE (or a close), and a NOOP after the
wait between polls. Each gives the one line the poller says before it connects again."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from imapclient import IMAPClient
from imapclient.exceptions import IMAPClientAbortError, IMAPClientError
from imapclient.imapclient import _parse_untagged_response

from mailref.safe import printable

ANSWER_WAIT = (
    15  # seconds for the server's answer to DONE (or NOOP) before the connection is given up
)


def begin_idle(c: IMAPClient) -> str | None:
    """IDLE: None once the server said "+ idling", else how the connection ended. A host
    shutting down as the command arrives answers it with its BYE, or closes at once."""
    try:
        c.idle()
    except (OSError, IMAPClientAbortError):
        return "the server closed the connection while idle"
    except IMAPClientError:  # imapclient: "Unexpected IDLE response"
        bye = c._imap.untagged_responses.pop("BYE", None)
        if not bye:
            raise
        return ended_with_bye([(b"BYE", bye[-1])])
    return None


def ended_with_bye(news: list[object]) -> str | None:
    """How the connection ended if NEWS (idle_check's untagged responses) has a BYE."""
    for r in news:
        if isinstance(r, tuple) and r and r[0] == b"BYE":
            said = " ".join(
                w.decode("utf-8", "replace") if isinstance(w, bytes) else str(w) for w in r[1:]
            )
            return f"the server ended the connection while idle (BYE {printable(said)[:200]})"
    return None


def read_with_idling(c: IMAPClient) -> list[object]:
    """What the server sent with its "+ idling", already read. A message that landed just
    before IDLE is told at once, often in the same packet (and a host's BYE as it shuts down);
    imaplib then reads it into its buffer with the continuation line, where idle_check (which
    polls the socket) never sees it, and it would wait for the server's next word. Reads
    whole buffered lines without blocking; a part of a line still counts as news."""
    buffered = getattr(c._imap, "file", None)
    sock = c.socket()
    if buffered is None or not hasattr(buffered, "peek"):
        return []
    timeout = sock.gettimeout()
    news: list[object] = []
    try:
        sock.setblocking(False)
        while ahead := buffered.peek(1):
            if b"\n" not in ahead:
                return [*news, True]
            news.append(_parse_untagged_response(c._imap._get_line()))
    except OSError:  # nothing more there (TLS says "want read")
        pass
    except Exception:  # a line imapclient cannot parse: news all the same
        news.append(True)
    finally:
        try:
            sock.settimeout(timeout)
        except OSError:
            pass
    return news


def still_there(c: IMAPClient) -> str | None:
    """After a wait between polls: None if the server answers a NOOP at once, else how the
    connection ended (a forgotten one would hold the next SELECT for a minute, then be a
    warning)."""
    try:
        with answer_within(c, ANSWER_WAIT):
            c.noop()
    except TimeoutError:
        return "the connection went silent while waiting for the next poll"
    except (OSError, IMAPClientAbortError):
        return "the server closed the connection while waiting for the next poll"
    return None


@contextmanager
def answer_within(c: IMAPClient, seconds: float) -> Iterator[None]:
    """The server has SECONDS to answer what the block asks, then the connection's own timeout
    is back (a socket already closed keeps none)."""
    sock = c.socket()
    wait = sock.gettimeout()
    sock.settimeout(seconds)
    try:
        yield
    finally:
        try:
            sock.settimeout(wait)
        except OSError:
            pass
