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
import time
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
        fix = (
            "it is on a read-only file system (under systemd, add it to ReadWritePaths=), or "
            "point [site] dir elsewhere"
        )
    elif e.errno in (errno.ENOTDIR, errno.EEXIST):
        fix = "a part of that path is a file, not a folder: point [site] dir at a folder"
    elif e.errno == errno.ETIMEDOUT:
        fix = (
            "the pages are tried again in a few seconds; if this lasts, find that process (fuser "
            "-v on the lock file)"
        )
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


# A game whose pages cannot be made (a fault in rendering, not in the folder): said once while
# it lasts, and tried again after a wait that doubles each time, or at once after the game's
# next change. The daemon looks for stale pages every few seconds; a page that fails the
# same way each time must not be a traceback every few seconds.
BACKOFF_FIRST = 5.0  # seconds
BACKOFF_MOST = 3600.0
_pages: dict[
    tuple[str, str], tuple[int, float, float, str]
] = {}  # (site dir, slug) -> version, wait, next try, line


def page_failed(
    where: str, slug: str, version: int, e: Exception, now: float | None = None
) -> None:
    """SLUG's pages (in the site dir WHERE) could not be made at VERSION: say so once."""
    now = time.monotonic() if now is None else now
    line = (
        f"site: the pages of {slug} cannot be made ({type(e).__name__}: {str(e)[:200]}); the "
        "other games' "
        "pages go on, and these are tried again later (`mailref site build` shows the fault)"
    )
    with _lock:
        old = _pages.get((where, slug))
        wait = min(old[1] * 2, BACKOFF_MOST) if old else BACKOFF_FIRST
        _pages[(where, slug)] = (version, wait, now + wait, line)
        if old is not None and old[3] == line:
            return
    log.error("%s", line, exc_info=e if old is None else None)


def page_due(where: str, slug: str, version: int, now: float | None = None) -> bool:
    """Whether SLUG's pages may be tried now: they have not failed, the game changed since
    they did, or the wait is over."""
    with _lock:
        failed_ = _pages.get((where, slug))
    if failed_ is None or failed_[0] != version:
        return True
    return (time.monotonic() if now is None else now) >= failed_[2]


def page_made(where: str, slug: str) -> None:
    with _lock:
        if _pages.pop((where, slug), None) is None:
            return
    log.info("site: the pages of %s are made again", slug)
