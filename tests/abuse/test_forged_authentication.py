"""Forged Authentication-Results and forged From addresses: read in bounded time, and one joined
from a forged address learns how to stop the game's mail."""

from __future__ import annotations

import time

import pytest

from mailref.read.auth import verify

pytestmark = pytest.mark.spec("2.7")


def test_a_flood_of_forged_authentication_results_is_read_in_bounded_time():
    """A 10 MB mail holds 200,000 forged Authentication-Results headers; each took ~0.1 ms to
    parse, so with require_auth one such mail held the referee for 20 s or more (the suite's
    generous budget, as in test_bounded.py). Only the topmost 50 are read: the receiving
    server's own is on top."""
    forged = ["evil.test; dkim=pass header.d=example.org"] * 200_000
    t = time.process_time()
    verdict = verify(forged, "alice@example.org", ("mx.ref.example",))
    assert time.process_time() - t < 5.0
    assert not verdict.verified
    # The server's own header still decides, above any number of forged ones.
    assert verify(
        ["mx.ref.example; dkim=pass header.d=example.org"] + forged,
        "alice@example.org",
        ("mx.ref.example",),
    ).verified
