"""`init` elsewhere and the embedded defaults say which file the commands read."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from support.daemon_processes import G

pytestmark = pytest.mark.spec("1.2")


def test_init_elsewhere_and_embedded_defaults_say_which_file_commands_read(tmp_path):
    """README step 1 writes /etc/mailref/mailref.toml, then `mailref check` and step 2's
    `mailref game create`: in a shell without MAILREF_CONFIG both read the embedded defaults,
    and the game was made in ./var of whatever folder the operator stood in, where the service
    never looks; `check` said only "configuration: embedded defaults"."""
    here = tmp_path / "cwd"
    here.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("MAILREF_CONFIG", "NOTIFY_SOCKET")}
    run = lambda *a: subprocess.run(  # noqa: E731
        [sys.executable, "-m", "mailref", *a],
        cwd=here,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    r = run("init", str(tmp_path / "conf"))
    assert r.returncode == 0, r.stderr
    path = tmp_path / "conf" / "mailref.toml"
    assert f"--config {path}" in r.stdout and f"MAILREF_CONFIG={path}" in r.stdout, r.stdout
    r = run("check")
    assert "no --config, no $MAILREF_CONFIG, no ./mailref.toml" in r.stdout, r.stdout
    r = run("game", "create", "nomes", "--variant", "sidekick", "--address", G)
    assert r.returncode == 0 and "no --config, no $MAILREF_CONFIG" in r.stderr, r.stderr
    r = run("init")  # in the folder itself: commands find ./mailref.toml, nothing more to say
    assert r.returncode == 0 and r.stdout.strip() == "wrote mailref.toml", r.stdout
