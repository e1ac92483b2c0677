"""`mailref db backup FILE`: a consistent copy of the SQLite database while the daemon runs
(docs/operating.md, "Backup and restore"). SQLite's online backup reads one snapshot; in WAL mode
the daemon goes on writing meanwhile. Copying the file with cp is not a backup: the newest
transactions sit in the -wal file beside it, and a copy taken mid-write may be torn. PostgreSQL has
pg_dump for this."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from mailref.config import sqlite_path
from mailref.engine.context import Refused


def backup_sqlite(url: str, target: Path) -> str:
    """Copy the database at URL to TARGET (a new file); returns the line to print."""
    source = sqlite_path(url)
    if source is None:
        raise Refused("backup_not_sqlite")
    target = target.absolute()
    if target.exists():
        raise Refused("backup_target_exists", target=target)
    if target.resolve() == source.resolve():
        raise Refused("backup_target_is_database", target=target)
    if not target.parent.is_dir():
        raise Refused("no_folder", folder=target.parent)
    partial = target.with_name(f".{target.name}.partial")
    # Players' addresses: readable by the owner only, whatever the umask of the shell it ran in.
    os.close(os.open(partial, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o600))
    os.chmod(partial, 0o600)
    src = sqlite3.connect(source, timeout=30)
    try:
        dst = sqlite3.connect(partial)
        try:
            src.backup(dst)  # one snapshot, whatever the daemon commits meanwhile
            games, mails, schema = (
                dst.execute(q).fetchone()[0]
                for q in (
                    "SELECT count(*) FROM games",
                    "SELECT count(*) FROM inbox",
                    "SELECT version_num FROM alembic_version",
                )
            )
        finally:
            dst.close()
    except sqlite3.Error as e:
        partial.unlink(missing_ok=True)
        raise Refused("backup_failed", source=source, why=e) from None
    finally:
        src.close()
    os.replace(partial, target)
    return (
        f"backed up {source} to {target}: {games} game(s), {mails} stored mail(s), schema {schema}"
    )
