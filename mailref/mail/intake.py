"""The SMTP and LMTP listeners in a process of its own, started by `mailref serve`.

Why a process: intake only commits the raw bytes (the 250 waits for nothing else), but in
the daemon's process it shared one interpreter lock with processing, composing and
delivery, so a burst of mail was accepted only as fast as it was answered (about 60 mails
a second instead of the several hundred a bare SMTP session takes), and a slow mail slowed every
sender. Here intake has its own interpreter: mail is accepted at the rate of the store,
and processing catches up behind it (docs/decisions/listener.md).

The two processes talk over two one-way pipes:
- child -> parent: first b"ok" (listening) or b"error:<why>" (cannot listen), then notes
  (coalesced): b"s" while a mail is being committed, b"k" once it is stored; a note wakes
  the daemon's processing, which waits while mail is coming in (daemon.intake_first);
- parent -> child: b"stop" (or the pipe's end, when the daemon died): stop accepting,
  finish, exit.
The child dies with the daemon (PR_SET_PDEATHSIG), so a SIGKILLed daemon never leaves a
listener holding the port."""

from __future__ import annotations

import ctypes
import faulthandler
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from multiprocessing import resource_tracker
from multiprocessing.connection import Connection

from mailref.config import Config
from mailref.mail.application import Application

log = logging.getLogger("mailref.smtp")
NOTE_EVERY = 0.02  # seconds: at most one wake-up of the daemon per this, however fast mail comes
STOP_SIGNALS = {
    signal.SIGINT,
    signal.SIGTERM,
    signal.SIGHUP,
}  # the daemon's to act on, never the listener's
START_WITHIN = (
    120.0  # seconds for the child to import, open the store and listen (a loaded CI machine)
)


class IntakeError(Exception):
    """The listener could not start; the text says why, for the operator."""


class Intake:
    """The parent's handle on the listener process."""

    def __init__(
        self,
        cfg: Config,
        log_level: str,
        log_format: str,
        open_application: Callable[[Config], Application],
    ):
        """OPEN_APPLICATION builds, in the child, what the listener keeps mail with (the daemon
        passes Referee.from_config); it is pickled by name (a module's function, or a method of a
        module's class)."""
        ctx = multiprocessing.get_context("spawn")  # never fork a process that runs threads
        self.notes, notes_w = ctx.Pipe(duplex=False)
        stop_r, self.stop_w = ctx.Pipe(duplex=False)
        self.proc = ctx.Process(
            target=_child,
            args=(cfg, open_application, notes_w, stop_r, log_level, log_format),
            name="mailref-smtp",
            daemon=True,
        )
        self._ends = (notes_w, stop_r)

    def start(self) -> None:
        """Start the listener; returns once it listens, raises IntakeError if it cannot."""
        # The child is born with the stop signals blocked (a signal mask survives fork and exec)
        # and unblocks them once it ignores them: systemd signals every process of the unit, and
        # a SIGTERM in the child's first second (a restart right after a start) killed it, so the
        # daemon ended "cannot listen ... exit code -15" instead of stopping cleanly.
        # (multiprocessing's resource tracker, started with the first child, does the same and then
        # unblocks the signals outright: started first here, it leaves our block in place.)
        resource_tracker.ensure_running()
        held = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
        try:
            self.proc.start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
        for end in self._ends:  # the child's ends: closed here, so its death reads as EOF
            end.close()
        if not self.notes.poll(START_WITHIN):
            self.proc.kill()
            raise IntakeError(f"did not start within {START_WITHIN:.0f} s")
        try:
            first = self.notes.recv_bytes()
        except EOFError:
            self.proc.join(5)
            raise IntakeError(
                f"its process ended at start (exit code {self.proc.exitcode})"
            ) from None
        if first.startswith(b"error:"):
            self.proc.join(10)
            raise IntakeError(first[6:].decode())

    def fileno(self) -> int:
        return self.notes.fileno()

    def drain(self) -> bytes | None:
        """Read the notes waiting; the last one (b"" if none), None once the child is gone."""
        last = b""
        try:
            while self.notes.poll():
                last = self.notes.recv_bytes()
        except (EOFError, OSError):
            return None
        return last

    def stop(self, timeout: float = 30) -> None:
        """Stop accepting mail: the sessions in hand finish their DATA, then the child exits."""
        try:
            self.stop_w.send_bytes(b"stop")
        except OSError:
            pass
        self.proc.join(timeout)
        if self.proc.is_alive():
            log.error("SMTP listener process did not stop within %.0f s; killed", timeout)
            self.proc.kill()
            self.proc.join(5)
        self.notes.close()
        self.stop_w.close()


def port_hint(port: int, why: str) -> str:
    """What to do when the listener may not bind its port: under the unit (no capabilities at
    all) `[smtp_in] port = 25` is refused, and a port below 1024 needs a capability."""
    if port < 1024 and "permission denied" in why:
        return (
            "; a port below 1024 needs CAP_NET_BIND_SERVICE: `systemctl edit mailref` and add "
            "AmbientCapabilities=CAP_NET_BIND_SERVICE and "
            "CapabilityBoundingSet=CAP_NET_BIND_SERVICE, "
            "or keep port 2525 and have your MX deliver the game addresses there"
        )
    return ""


def _why(e: BaseException) -> str:
    """Why the listener cannot start, in an operator's words ("address already in use")."""
    if isinstance(e, OSError) and e.errno:
        return os.strerror(e.errno).lower()
    cause = e.__cause__ or e.__context__
    return _why(cause) if cause is not None and cause is not e else f"{type(e).__name__}: {e}"


def _die_with_parent() -> None:
    """Linux: SIGKILL this process when the daemon dies, however it dies."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass  # elsewhere the stop pipe's end still stops it


def _child(
    cfg: Config,
    open_application: Callable[[Config], Application],
    notes: Connection,
    stop: Connection,
    log_level: str,
    log_format: str,
) -> None:
    _die_with_parent()
    faulthandler.enable()  # as the daemon: a fault is written to the log before the process dies
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C in a terminal: the daemon stops us
    signal.signal(
        signal.SIGTERM, signal.SIG_IGN
    )  # systemd signals the whole group: the daemon stops us, in order
    signal.signal(
        signal.SIGHUP, signal.SIG_IGN
    )  # `systemctl kill -s HUP` too; the daemon says what a SIGHUP does
    signal.pthread_sigmask(
        signal.SIG_UNBLOCK, STOP_SIGNALS
    )  # blocked since birth: see Intake.start
    logging.basicConfig(level=log_level, format=log_format)
    logging.getLogger("mail.log").setLevel(logging.WARNING)
    from mailref.mail.smtp import Listener

    busy = _Busy()
    try:
        referee = open_application(cfg)
        smtp, lmtp = cfg.smtp_in, cfg.lmtp_in
        listener = Listener(
            referee,
            smtp.host if smtp else "",
            smtp.port if smtp else None,
            smtp.max_message_size if smtp else 0,
            on_storing=busy.storing,
            lmtp=(lmtp.host, lmtp.port) if lmtp else None,
            lmtp_max_size=lmtp.max_message_size if lmtp else None,
        )
        listener.start()
    except Exception as e:
        notes.send_bytes(b"error:" + _why(e).encode())
        return
    notes.send_bytes(b"ok")
    threading.Thread(target=_tell, args=(busy, notes), name="notes", daemon=True).start()
    try:
        stop.recv_bytes()
    except (EOFError, OSError):
        pass  # the daemon is gone
    listener.stop()
    referee.store.dispose()


class _Busy:
    """How many mails are being committed right now (a commit waiting for the store's lock
    counts: the listener is not quiet, it is held up)."""

    def __init__(self) -> None:
        self.lock, self.changed, self.count = threading.Lock(), threading.Event(), 0

    def storing(self, start: bool) -> None:
        with self.lock:
            self.count += 1 if start else -1
        self.changed.set()


def _tell(busy: _Busy, notes: Connection) -> None:
    """One note per change, at most every NOTE_EVERY: b"s" while a mail is being stored,
    b"k" once none is (the daemon reads the store, not the notes)."""
    while True:
        busy.changed.wait()
        busy.changed.clear()
        try:
            notes.send_bytes(b"s" if busy.count else b"k")
        except OSError:
            return
        time.sleep(NOTE_EVERY)
