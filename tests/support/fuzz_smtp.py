"""A fuzz target for the SMTP dialogue (mailref.mail.smtp_server, aiosmtpd's session): any bytes from a client,
cut into writes anywhere, must get well-formed replies only, never an exception out of the
protocol, and leave the sessions' mail-data accounting at zero once the connection is gone
(a leak there would, in time, refuse every sender's mail with 452).

    # atheris (libFuzzer):
    .venv/bin/python tests/support/fuzz_smtp.py CORPUS_DIR -max_total_time=60

tests/abuse/test_fuzz.py runs it on random input with hypothesis, and on
tests/abuse/fuzz_smtp_corpus/."""

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
    """A listener's handler (aiosmtpd's hooks) that accepts every game address at once or a
    moment later, and keeps every mail (or, every third, refuses it), answering on the loop
    as the real one does."""

    domain, max_size = "ref.example", 2000

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop, self.kept, self.n = loop, 0, 0

    async def handle_RCPT(self, server, session, envelope, address: str, options: list[str]) -> str:
        self.n += 1
        if self.n % 2:
            answer = "250 2.1.5 OK" if "game" in address else "550 5.1.1 no game"
        else:
            later: asyncio.Future[str] = self.loop.create_future()
            self.loop.call_soon(later.set_result, "250 2.1.5 OK")
            answer = await later
        if answer.startswith("250"):
            envelope.rcpt_tos.append(address)
        return answer

    async def handle_DATA(self, server, session, envelope) -> str:
        self.n += 1
        self.kept += 1
        later: asyncio.Future[str] = self.loop.create_future()
        self.loop.call_soon(
            later.set_result, "250 2.0.0 stored" if self.n % 3 else "451 4.3.0 try again later"
        )
        return await later


_loop = asyncio.new_event_loop()


def dialogue(data: bytes) -> None:
    """DATA as one client's writes: its first byte says where to cut it."""
    from mailref.mail.smtp_server import Room, Server

    step = 1 + (data[0] if data else 0) % 97
    body = data[1:]

    async def run() -> None:
        desk, transport, room = Desk(asyncio.get_running_loop()), Transport(), Room()
        s = Server(desk, room, desk.domain, desk.max_size)
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
        await asyncio.sleep(0)  # the session's task sees its cancellation
        assert (
            room.buffered == 0
        ), f"{room.buffered} octets of mail data still counted after the session ended"
        assert not room.sessions
        lines = bytes(transport.out).split(b"\r\n")
        assert lines[-1] == b"", "every reply ends in CRLF"
        for line in lines[:-1]:
            assert REPLY.match(line), line[:200]

    _loop.run_until_complete(run())


def main() -> None:
    import atheris

    with atheris.instrument_imports(include=["mailref"]):
        import mailref.mail.smtp_server  # noqa: F401
    atheris.Setup(sys.argv, dialogue)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
