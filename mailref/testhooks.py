"""Test hooks that cost nothing in production: MAILREF_TEST_CRASH=NAME kills the process once
at the point NAME, as SIGKILL would (no cleanup, no flush), so the tests can prove that no
boundary of a batch loses or doubles a mail. MAILREF_TEST_CRASH_MARKER names the file that
says it happened (so the restarted process runs on)."""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path


def crash_point(name: str) -> None:
    if os.environ.get("MAILREF_TEST_CRASH") != name:
        return
    marker = Path(os.environ.get("MAILREF_TEST_CRASH_MARKER", "/tmp/mailref-crash-marker"))
    if not marker.exists():
        marker.write_text(name)
        os._exit(137)


def as_stored(state: dict) -> None:
    """MAILREF_TEST_STATE_CHECK: a state the referee holds for its next batch must equal what
    the store gives back for it (no tuple where JSON has a list, no time where it has text),
    or a process that held it would act otherwise than one that read it."""
    if not os.environ.get("MAILREF_TEST_STATE_CHECK"):
        return
    import json

    stored = json.loads(json.dumps(state))
    if stored != state:
        differs = sorted(k for k in state if stored.get(k) != state[k])
        raise AssertionError(f"the state held differs from the state stored in {differs}")


# MAILREF_TEST_CLOCK=FILE: mailref's time is the ISO time FILE holds (timeutil.utcnow), so
# that a bench can play a long game through the daemon at a turn every six hours of the
# game's time, its ended matters archived as in a game of months. Read once, at start.
CLOCK_FILE = os.environ.get("MAILREF_TEST_CLOCK")


def clock_file_time() -> datetime:
    return datetime.fromisoformat(Path(CLOCK_FILE or "").read_text().strip())
