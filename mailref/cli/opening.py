"""Which database and which referee a command gets: a command that only reads never creates
a database, and one that needs only the database is not handed the referee (its start-up
would load mail, templates and the site)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from mailref import config as config_mod
from mailref.engine.context import Refused

if TYPE_CHECKING:
    from mailref.config import Config
    from mailref.referee import Referee
    from mailref.store import Store


# Commands that only read: they never create a database (SPEC 1.4).
READ_ONLY = {
    ("game", "list"),
    ("game", "show"),
    ("game", "export"),
    ("mail", "list"),
    ("mail", "show"),
    ("outbox", "list"),
    ("replay", None),
    ("site", "build"),
    ("db", "backup"),
    ("dice", "verify"),
    ("journal", None),
}
# Commands that may create the database (serve and check are not routed here).
CREATES = {("game", "create"), ("game", "import"), ("db", "upgrade")}
# Commands that need the database and nothing of the referee (mail, templates, the site):
# their start-up counts (SPEC §8: replay, start-up included, ≥ 5,000 journal entries/s).
STORE_ONLY = {("replay", None), ("db", "backup")}


class StoreOnly:
    """What a command that reads only the database is handed instead of the referee: the
    database's URL, and `store`, opened on first use (replay on SQLite does not use it)."""

    def __init__(self, url: str):
        self.url = url
        self._store: Store | None = None

    @property
    def store(self) -> Store:
        if self._store is None:
            from mailref.store import open_store

            self._store = open_store(self.url)
        return self._store

    def close(self) -> None:
        if self._store is not None:
            self._store.dispose()


def open_referee(cfg: Config, key: tuple[str, str | None]) -> Referee | StoreOnly:
    """The referee on the configured database. A command that only reads refuses when there is
    none (a wrong directory or --config would otherwise show an empty, new one); a changing
    command that creates one says so."""
    from mailref.config import sqlite_path

    path = sqlite_path(cfg.database)
    if path is not None and not path.exists():
        where = (
            f" (configuration {cfg.path})" if cfg.path else f" ({config_mod.defaults_note(cfg)})"
        )
        if key in READ_ONLY:
            raise Refused("no_database", path=path, where=where)
        if key not in CREATES:
            # Every other command acts on a game or a row that an empty database cannot hold: run
            # in the wrong folder, it would make a stray database only to say "there is no game".
            raise Refused("no_database_yet", path=path, where=where)
    if key in STORE_ONLY:
        return StoreOnly(cfg.database)
    from mailref.referee import Referee

    if path is not None and not path.exists():
        referee = Referee.from_config(cfg)
        print(
            f"mailref: created a new database at {path}"
            + (f" ({config_mod.defaults_note(cfg)})" if cfg.path is None else ""),
            file=sys.stderr,
        )
        return referee
    return Referee.from_config(cfg)
