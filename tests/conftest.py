from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from dovecot import Dovecot, dovecot_binary  # noqa: E402
from helpers import Clock, Outbox, make_referee  # noqa: E402

GAME = "nomes@ref.example"


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def referee(tmp_path, clock):
    r = make_referee(tmp_path, clock)
    yield r
    r.store.dispose()


@pytest.fixture
def outbox(referee) -> Outbox:
    return Outbox(referee)


@pytest.fixture(scope="session")
def dovecot(tmp_path_factory):
    if dovecot_binary() is None:
        if os.environ.get("CI"):
            pytest.fail("dovecot is not installed: scripts/test installs dovecot-imapd")
        pytest.skip("dovecot is not installed (scripts/test installs it)")
    if os.geteuid() != 0:
        pytest.skip("the private Dovecot instance needs root to switch to its mail user")
    # Not under pytest's tmp folder: that is 0700, and Dovecot's auth runs as the mail user.
    root = Path(tempfile.mkdtemp(prefix="mailref-dovecot-"))
    d = Dovecot(root).start()
    yield d
    d.stop()
    shutil.rmtree(root, ignore_errors=True)
