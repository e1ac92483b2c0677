"""Real disk blocks behind SQLite's WAL index, so that a full disk is an error and not a crash.

SQLite keeps the index of the write-ahead log in the `-shm` file and maps it into memory.
When the log outgrows the index's last 32 KiB region, SQLite extends the file by writing one
byte to each 4 KiB page and then fills the new region through the map. On a filesystem with
1 KiB blocks (mkfs.ext4 gives them to filesystems under 512 MB) that byte allocates a quarter
of the page: on a full disk, filling the rest through the map finds no block, and the kernel
kills the process with SIGBUS. No exception, no log line: the daemon and its listener were
simply gone (a flaky test showed it: exit code -7). Copy-on-write filesystems can do the same.

So a new connection has the filesystem allocate all the blocks of the index's first
SHM_RESERVE bytes while there is room (fallocate(2): content untouched, holes filled). A full
disk then meets SQLite's ordinary writes, which fail with SQLITE_FULL and are answered 451.

The allocation runs in a child process (util-linux's `fallocate`), never on a descriptor of
ours: closing any descriptor of a file drops every POSIX lock this process holds on it, and
SQLite's locks on the index are exactly those. Dropping its "someone has this open" lock let
the next process to open the database think itself the first and truncate the index under
the daemon's map: SIGBUS again (tests/test_outbox_claims.py found it).
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import sqlite3

log = logging.getLogger("mailref.store")

# 32 regions of the index: a log of about 130,000 pages (500 MB) before SQLite extends it itself.
SHM_RESERVE = 32 * 32 * 1024
_FALLOCATE = shutil.which("fallocate") or ""


def reserve_wal_index(dbapi_conn: sqlite3.Connection) -> None:
    """Give the open database's `-shm` file real blocks up to SHM_RESERVE (see the module)."""
    row = dbapi_conn.execute("PRAGMA database_list").fetchone()
    path = row[2] if row else ""
    if not path or not _FALLOCATE:  # an in-memory database has no index file
        return
    dbapi_conn.execute(
        "SELECT 1 FROM sqlite_master LIMIT 1"
    ).fetchall()  # a new database's index exists after a read
    shm = path + "-shm"
    try:
        st = os.stat(shm)  # by name: no descriptor of ours (see the module)
    except OSError:
        return
    if (
        st.st_size >= SHM_RESERVE
        and st.st_blocks * 512 >= SHM_RESERVE
        or not os.access(shm, os.W_OK)
    ):
        return  # done already (by this process or another), or an index SQLite only reads
    # fallocate(2), not its -x (posix_fallocate(3)): where a filesystem cannot, glibc's fallback
    # writes a zero byte into each block that reads zero, which could race with a writer of the
    # index. There the reservation is simply skipped and SQLite's own guard remains.
    r = subprocess.run([_FALLOCATE, "-l", str(SHM_RESERVE), shm], capture_output=True, text=True)
    if r.returncode:
        log.info(
            "could not reserve disk blocks for %s: %s",
            shm,
            r.stderr.strip().splitlines()[-1:] or r.returncode,
        )
