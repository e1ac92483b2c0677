"""The one-click endpoint (mailref/web) served on a loopback port for a test."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from mailref import web
from support.dovecot import free_port


@contextmanager
def serving(referee) -> Iterator[str]:
    """The one-click endpoint of REFEREE on a loopback port, in a loop of its own while the
    block runs; yields its http base (what the site's web server proxies /unsubscribe/ to)."""
    loop, port, ready = asyncio.new_event_loop(), free_port(), threading.Event()
    holder: list = []

    def run() -> None:
        asyncio.set_event_loop(loop)
        holder.append(loop.run_until_complete(web.start(referee, f"127.0.0.1:{port}")))
        ready.set()
        loop.run_forever()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert ready.wait(10)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        asyncio.run_coroutine_threadsafe(holder[0].cleanup(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()
