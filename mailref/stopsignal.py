"""SIGTERM and SIGINT for `mailref serve`, caught from the first moment of the command.

Python leaves SIGTERM at the system's default (the process dies, exit -15) until someone
catches it. An event loop's handler (`loop.add_signal_handler`) would come a second or more
after the start, once importing, opening and upgrading the database are done, and the loop
puts the default back as it closes; a SIGTERM in either gap (a restart right after a start,
one arriving while the daemon finishes its last work) would kill the process instead of
stopping it cleanly. Here the signal is caught once, for the whole life of the process, and
only sets a flag and calls whoever listens (the daemon's loop, once it runs). This module
imports nothing heavy: it is installed before the daemon's imports (docs/decisions/README.md)."""

from __future__ import annotations

import signal
from collections.abc import Callable
from pathlib import PurePath

_requested = False
_listener: Callable[[], None] | None = None


def _caught(signum: int, frame) -> None:
    global _requested
    _requested = True
    if _listener is not None:
        _listener()


def catch() -> None:
    """From now on a SIGTERM or SIGINT asks the daemon to stop; it never kills the process."""
    signal.signal(signal.SIGTERM, _caught)
    signal.signal(signal.SIGINT, _caught)


def requested() -> bool:
    return _requested


def on_stop(listener: Callable[[], None] | None) -> None:
    """Call LISTENER at each stop signal from now on (at once if one came already); None: nobody
    listens any more, the signal is only remembered. LISTENER runs in the main thread, between
    two bytecodes of whatever it was doing: it must only set something, never raise."""
    global _listener
    _listener = listener
    if listener is not None and _requested:
        listener()


def command_word(argv: list[str]) -> str | None:
    """The command named in ARGV (arguments only), before argparse has read it."""
    args = iter(argv)
    for a in args:
        if a in ("--config", "--reason", "--as"):
            next(args, None)
        elif not a.startswith("-"):
            return a
    return None


def serving(argv: list[str]) -> bool:
    """ARGV is a process started as `mailref serve` (the console script or `python -m mailref`),
    not another program that imports mailref."""
    prog = PurePath(argv[0]) if argv else PurePath()
    ours = prog.name == "mailref" or (prog.name == "__main__.py" and prog.parent.name == "mailref")
    return ours and command_word(argv[1:]) == "serve"
