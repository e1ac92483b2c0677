"""The CLI as an operator runs it: `python -m mailref` as a process, and which modules a command
loads."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from pathlib import Path

G = "nomes@ref.example"


def run(cwd: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mailref", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        input=stdin,
        timeout=60,
        env={k: v for k, v in os.environ.items() if k != "MAILREF_CONFIG"},
    )


def run_here(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    """`run(CWD, *ARGS)` by the CLI's own main in this process, on CWD's mailref.toml: set-up
    where a test is not about the CLI process (a process costs a second of CPU, most of it
    importing mailref, which this process has done once)."""
    from mailref.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["--config", str(cwd / "mailref.toml"), *args])
    return subprocess.CompletedProcess(["mailref", *args], code, out.getvalue(), err.getvalue())


MODULES_AFTER = """
import sys
from mailref.cli import main
code = main(sys.argv[1:])
print("MODULES", " ".join(sorted(sys.modules)))
raise SystemExit(code)
"""


def modules_of(cwd: Path, *args: str) -> tuple[subprocess.CompletedProcess, set[str]]:
    done = subprocess.run(
        [sys.executable, "-c", MODULES_AFTER, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        env={k: v for k, v in os.environ.items() if k != "MAILREF_CONFIG"},
    )
    line = next((ln for ln in done.stdout.splitlines() if ln.startswith("MODULES ")), "MODULES")
    return done, set(line.split()[1:])
