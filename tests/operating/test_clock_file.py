"""MAILREF_TEST_CLOCK: a bench's game time, read by every mailref process from one file."""

from __future__ import annotations

import os
import subprocess
import sys

SAY_NOW = "from mailref.timeutil import utcnow; print(utcnow().isoformat())"


def test_the_clock_file_is_every_processs_time(tmp_path):
    clock = tmp_path / "clock"
    clock.write_text("2031-05-04T03:02:01+00:00\n")
    env = {**os.environ, "MAILREF_TEST_CLOCK": str(clock)}

    def now() -> str:
        done = subprocess.run([sys.executable, "-c", SAY_NOW], env=env, capture_output=True)
        return done.stdout.decode().strip()

    assert now() == "2031-05-04T03:02:01+00:00"
    clock.write_text("2031-05-04T09:02:01+00:00")  # the bench's next turn, six hours on
    assert now() == "2031-05-04T09:02:01+00:00"
    del env["MAILREF_TEST_CLOCK"]
    assert now()[:4] != "2031"  # unset: the real time
