"""The CLI echoes every address and says a new turn length starts next turn."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.play_four import G

pytestmark = pytest.mark.spec("1.4")


def test_the_cli_echoes_every_address_and_says_a_new_turn_length_starts_next_turn(tmp_path):
    """A GM runs `mailref player add nomes Alice A --email B` and read back only A; then
    `game set nomes turn_timeout=3d` while a turn was running, and was not told that the
    running deadline stands (the new length counts from the next turn)."""
    import os
    import subprocess
    import sys

    import mailref

    # This checkout's mailref, whichever one the interpreter's environment would find from tmp_path.
    env = {k: v for k, v in os.environ.items() if k != "MAILREF_CONFIG"}
    env["PYTHONPATH"] = os.pathsep.join(
        [str(Path(mailref.__file__).parents[1]), env.get("PYTHONPATH", "")]
    )

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "mailref", *args],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=60,
            env=env,
        )

    assert run("init").returncode == 0
    assert run("game", "create", "nomes", "--variant", "sidekick", "--address", G).returncode == 0
    r = run("player", "add", "nomes", "Alice", "alice@x.org", "--email", "alice@work.example")
    assert r.returncode == 0, r.stderr
    assert "Alice joined Nomic Sidekick Nomic (alice@x.org, alice@work.example)." in r.stdout
    assert run("player", "add", "nomes", "Bob", "bob@x.org").returncode == 0
    r = run("game", "set", "nomes", "turn_timeout=3d")
    assert r.returncode == 0, r.stderr
    assert "turn_timeout = 3d" in r.stdout
    assert "turn_timeout applies from the next deadline set; the one running now, " in r.stdout
    assert "stands. To move it: `mailref deadline nomes extend DURATION` or `set WHEN`." in r.stdout
