"""When the site's folder cannot be written (owned by another user, read-only, full, a
typo'd path under /): one line naming `[site] dir` and the fix, said at start and once while
it lasts, and once more when pages are written again. Mail and deadlines go on: the pages
are a view of the games, not worth a traceback per mail or a daemon that will not start."""

from __future__ import annotations

import errno
import logging
import os
import tempfile
import threading
from pathlib import Path

log = logging.getLogger("mailref.site")

_lock = threading.Lock()
_said: dict[str, str] = {}  # site dir -> the fault line last said


def why(e: OSError, folder: Path | None = None) -> str:
    """What is wrong and what to do, in one clause (the file named when it is not FOLDER)."""
    words = (e.strerror or str(e)).lower()
    named = e.filename and (folder is None or Path(e.filename) != folder)
    where = f" ({e.filename})" if named else ""
    if e.errno in (errno.EACCES, errno.EPERM):
        fix = "let the daemon's user write there (chown/chmod), or point [site] dir elsewhere"
    elif e.errno == errno.EROFS:
        fix = "it is on a read-only file system (under systemd, add it to ReadWritePaths=), or point [site] dir elsewhere"
    elif e.errno in (errno.ENOTDIR, errno.EEXIST):
        fix = "a part of that path is a file, not a folder: point [site] dir at a folder"
    elif e.errno == errno.ETIMEDOUT:
        fix = "the pages are tried again in a few seconds; if this lasts, find that process (fuser -v on the lock file)"
    elif e.errno in (errno.ENOSPC, errno.EDQUOT):
        fix = "free some space there"
    else:
        fix = "fix that, or point [site] dir elsewhere"
    return f"{words}{where}: {fix}"


def probe(folder: Path) -> OSError | None:
    """Whether FOLDER can hold the pages: it is made if missing, and a file is written in it
    and removed (os.access says yes to root on a folder root cannot write either)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(prefix=".mailref-probe-", dir=folder)
        os.close(fd)
        os.unlink(name)
    except OSError as e:
        return e
    return None


def failed(folder: Path, e: OSError) -> None:
    line = (
        f"site: cannot write the pages in {folder} ([site] dir): {why(e, folder)}; "
        "they catch up with the next change once it is fixed (or `mailref site build`)"
    )
    with _lock:
        if _said.get(str(folder)) == line:
            return
        _said[str(folder)] = line
    log.error("%s", line)


def cleared(folder: Path) -> bool:
    """Pages were written: True if a fault had been said (the caller then catches up)."""
    with _lock:
        if _said.pop(str(folder), None) is None:
            return False
    log.info("site: writing the pages in %s again", folder)
    return True


def check_at_start(folder: Path) -> None:
    e = probe(folder)
    if e is not None:
        failed(folder, e)
