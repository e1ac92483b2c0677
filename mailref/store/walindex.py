"""Real disk blocks behind SQLite's WAL index, so that a full disk is an error and not a crash.

SQLite keeps the index of the write-ahead log in the `-shm` file and maps it into memory.
When the log outgrows the index's last 32 KiB region, SQLite extends the file by writing one
byte to each 4 KiB page and then fills the new region through the map. On a filesystem with
1 KiB blocks (mkfs.ext4 gives them to filesystems under 512 MB) that byte allocates a quarter
of the page: on a full disk, filling the rest through the map finds no block, and the kernel
kills the process with SIGBUS. No exception, no log line: the daemon and its listener were
simply gone (a flaky test showed it: exit code -7). Copy-on-write filesystems can do the same.

So each new connection asks the filesystem for all the blocks of the first SHM_RESERVE bytes
of the index while there is room (fallocate(2): content untouched, holes filled). A full disk
then meets SQLite's ordinary writes, which fail with SQLITE_FULL and are answered 451.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import logging
import os

log = logging.getLogger("mailref.store")

# 32 regions of the index: a log of about 130,000 pages (500 MB) before SQLite extends it itself.
SHM_RESERVE = 32 * 32 * 1024

_libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
_libc.fallocate.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int64, ctypes.c_int64]


def _fallocate(fd: int, length: int) -> None:
    """fallocate(2) with mode 0, not posix_fallocate(3): where the filesystem cannot, glibc's
    fallback writes a zero byte into every block that reads zero, which could race with another
    process writing the index. Here such a filesystem is simply left as it is."""
    if _libc.fallocate(fd, 0, 0, length) != 0:
        code = ctypes.get_errno()
        raise OSError(code, os.strerror(code))


def reserve_wal_index(dbapi_conn) -> None:
    """Give the open database's `-shm` file real blocks up to SHM_RESERVE (see the module)."""
    row = dbapi_conn.execute("PRAGMA database_list").fetchone()
    path = row[2] if row else ""
    if not path:  # an in-memory database has no index file
        return
    dbapi_conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()  # a new database's index exists after a read
    try:
        fd = os.open(path + "-shm", os.O_RDWR)
    except OSError:  # no WAL index yet, or a read-only one: nothing SQLite would write through a map
        return
    try:
        st = os.fstat(fd)
        if st.st_size >= SHM_RESERVE and st.st_blocks * 512 >= SHM_RESERVE:
            return  # done already, by this process or another
        _fallocate(fd, SHM_RESERVE)
    except OSError as e:
        # Full already, or a filesystem without fallocate: SQLite's own guard is what remains.
        level = logging.DEBUG if e.errno in (errno.EOPNOTSUPP, errno.ENOSYS) else logging.INFO
        log.log(level, "could not reserve disk blocks for %s-shm: %s", path, e.strerror)
    finally:
        os.close(fd)
