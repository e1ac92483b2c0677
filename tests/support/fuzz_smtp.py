"""A fuzz target for the SMTP dialogue (mailref.mail.smtp_session): any bytes from a client,
cut into writes anywhere, must get well-formed replies only, never an exception out of the
protocol, and leave the sessions' mail-data accounting at zero once the connection is gone
(a leak there would, in time, refuse every sender's mail with 452).

    .venv/bin/python tests/support/fuzz_smtp.py CORPUS_DIR -max_total_time=60   # atheris (libFuzzer)

tests/abuse/test_fuzz.py runs it on random input with hypothesis, and on tests/abuse/fuzz_smtp_corpus/."""

from __future__ import annotations

import asyncio
import re
import sys

REPLY = re.compile(rb"\A[2-5]\d\d[ -][^\r\n]*\Z")


class Transport(asyncio.Transport):
    def __init__(self) -> None:
        super().__init__()
        self.out, self.closing, self.paused = bytearray(), False, False

    def write(self, data: bytes) -> None:
        assert not self.closing, "nothing is written after close"
        self.out += data

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True

    def pause_reading(self) -> None:
        self.paused = True

    def resume_reading(self) -> None:
        self.paused = False


class Desk:
    """A listener's desk that accepts every game address at once or a moment later, and keeps
    every mail (or, every third, refuses it), answering on the loop as the real one does."""

    domain, max_size = "ref.example", 2000

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop, self.buffered, self.kept, self.n = loop, 0, 0, 0

    def recipient(self, address: str) -> str | asyncio.Future[str]:
        self.n += 1
        if self.n % 2:
            return "250 2.1.5 OK" if "game" in address else "550 5.1.1 no game"
        later: asyncio.Future[str] = self.loop.create_future()
        self.loop.call_soon(later.set_result, "250 2.1.5 OK")
        return later

    def deliver(self, raw: bytes, mail_from: str, rcpt_to: list[str], answer) -> None:
        self.n += 1
        self.kept += 1
        self.loop.call_soon(
            answer, "250 2.0.0 stored" if self.n % 3 else "451 4.3.0 try again later"
        )


_loop = asyncio.new_event_loop()


def dialogue(data: bytes) -> None:
    """DATA as one client's writes: its first byte says where to cut it."""
    from mailref.mail.smtp_session import Session

    step = 1 + (data[0] if data else 0) % 97
    body = data[1:]

    async def run() -> None:
        desk, transport, sessions = Desk(asyncio.get_running_loop()), Transport(), set()
        s = Session(desk, sessions)
        s.connection_made(transport)
        for i in range(0, len(body), step):
            if transport.closing:
                break
            while transport.paused:  # the loop does not read while the session waits for an answer
                await asyncio.sleep(0)
            s.data_received(body[i : i + step])
            await asyncio.sleep(0)
        for _ in range(5):
            await asyncio.sleep(0)
        s.connection_lost(None)
        assert (
            desk.buffered == 0
        ), f"{desk.buffered} octets of mail data still counted after the session ended"
        assert not sessions
        lines = bytes(transport.out).split(b"\r\n")
        assert lines[-1] == b"", "every reply ends in CRLF"
        for line in lines[:-1]:
            assert REPLY.match(line), line[:200]

    _loop.run_until_complete(run())


def main() -> None:
    import atheris

    with atheris.instrument_imports(include=["mailref"]):
        import mailref.mail.smtp_session  # noqa: F401
    atheris.Setup(sys.argv, dialogue)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
