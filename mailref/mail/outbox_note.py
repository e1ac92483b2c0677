"""The note of rows a process delivered but could not mark sent (the store refused: a disk
turned read-only). It is kept outside the database, in the runtime folder (systemd's
$RUNTIME_DIRECTORY, else the temporary folder), so that the next start on this host marks
them sent instead of sending them again (docs/decisions/outbox.md)."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
from pathlib import Path

log = logging.getLogger("mailref.outbox")


def folder() -> Path:
    """Where notes are kept: a folder that outlives the process but not the host's uptime."""
    runtime = os.environ.get("RUNTIME_DIRECTORY", "").split(":")[0]
    return Path(runtime or tempfile.gettempdir())


def _stem(database: str) -> str:
    return "mailref-unmarked-" + hashlib.sha256(database.encode()).hexdigest()[:16]


def path(database: str, claimant: str) -> Path:
    """The note of CLAIMANT ("host:pid") for DATABASE (its URL)."""
    return folder() / f"{_stem(database)}-{claimant.rpartition(':')[2]}.json"


def write(database: str, claimant: str, rows: list[int]) -> Path | None:
    """Note ROWS as delivered by CLAIMANT; the note's path, None when it could not be written."""
    where = path(database, claimant)
    try:
        part = where.with_suffix(".part")
        part.unlink(missing_ok=True)
        fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(json.dumps({"claimant": claimant, "rows": sorted(rows)}))
        part.replace(where)
    except OSError as e:
        log.error("outbox: cannot note the delivered rows in %s: %s", where, e.strerror or e)
        return None
    return where


def remove(database: str, claimant: str) -> None:
    """The rows are recorded in the store after all: the note is void."""
    path(database, claimant).unlink(missing_ok=True)


def read_all(database: str) -> dict[str, list[int]]:
    """Every note for DATABASE: per claimant, the rows it delivered without marking them."""
    notes: dict[str, list[int]] = {}
    for p in sorted(folder().glob(_stem(database) + "-*.json")):
        try:
            if p.stat().st_uid != os.geteuid():  # the temporary folder is everyone's
                continue
            note = json.loads(p.read_text())
            notes[str(note["claimant"])] = [int(i) for i in note["rows"]]
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return notes


def remove_dead(database: str, dead: list[str]) -> None:
    """The notes of processes whose rows were just taken back."""
    for who in dead:
        remove(database, who)
