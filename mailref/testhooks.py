"""Test hooks that cost nothing in production: MAILREF_TEST_CRASH=NAME kills the process once
at the point NAME, as SIGKILL would (no cleanup, no flush), so the tests can prove that no
boundary of a batch loses or doubles a mail. MAILREF_TEST_CRASH_MARKER names the file that
says it happened (so the restarted process runs on)."""

from __future__ import annotations

import os
from pathlib import Path


def crash_point(name: str) -> None:
    if os.environ.get("MAILREF_TEST_CRASH") != name:
        return
    marker = Path(os.environ.get("MAILREF_TEST_CRASH_MARKER", "/tmp/mailref-crash-marker"))
    if not marker.exists():
        marker.write_text(name)
        os._exit(137)
