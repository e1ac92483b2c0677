"""Atomic replacement: a game's pages are written into a temporary directory beside the
published one and swapped in with one rename, so a reader sees the old site or the new
one, never half of either."""

from __future__ import annotations

import ctypes
import errno
import os
import shutil
import tempfile
from pathlib import Path

_AT_FDCWD = -100
_RENAME_EXCHANGE = 2


def _libc_renameat2():
    try:
        fn = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):
        return None
    fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    return fn


_renameat2 = _libc_renameat2()


def exchange(a: Path, b: Path) -> bool:
    """Swap two directories in one step (Linux renameat2 RENAME_EXCHANGE); False where the
    system or file system cannot."""
    if _renameat2 is None:
        return False
    if _renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False
    raise OSError(err, os.strerror(err), str(b))


def replace_dir(root: Path, name: str, files: dict[str, bytes]) -> Path:
    """Publish FILES (relative names) as ROOT/NAME. A page whose bytes did not change is the
    published file itself, linked into the new folder: a long game's full older pages are not
    written again (nor fetched again by a mirror that goes by modification time)."""
    tmp = Path(tempfile.mkdtemp(prefix=f".{name}.new-", dir=root))
    target = root / name
    try:
        tmp.chmod(0o755)  # mkdtemp makes it private; a web server must read it
        for rel, data in files.items():
            path = tmp / rel
            if not path.parent.exists():
                path.parent.mkdir(parents=True)
                path.parent.chmod(0o755)  # readable by the web server whatever the umask
            if not _same(target / rel, data, path):
                path.write_bytes(data)
                path.chmod(0o644)
        if not target.exists():
            os.rename(tmp, target)
            return target
        if not exchange(tmp, target):
            # No atomic swap here: the old site steps aside for an instant (a reader may see
            # nothing for that instant, never a mixture).
            aside = Path(tempfile.mkdtemp(prefix=f".{name}.old-", dir=root))
            os.rename(target, aside / name)
            os.rename(tmp, target)
            shutil.rmtree(aside, ignore_errors=True)
        return target
    finally:
        shutil.rmtree(tmp, ignore_errors=True)  # after an exchange it holds the old pages


def _same(published: Path, data: bytes, path: Path) -> bool:
    """Link PUBLISHED as PATH when it already holds DATA; whether it did."""
    try:
        if published.stat().st_size != len(data) or published.read_bytes() != data:
            return False
        os.link(published, path)
    except OSError:  # not there, or a file system without hard links: written afresh
        return False
    return True


def replace_file(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
