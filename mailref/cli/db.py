"""The database at the command line: bring its schema to the newest, copy it while the
daemon runs."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from mailref import config as config_mod

if TYPE_CHECKING:
    from mailref.cli.opening import StoreOnly
    from mailref.referee import Referee


def cmd_db_upgrade(referee: Referee, args: argparse.Namespace, who: str) -> int:
    print("database is at the newest schema")
    return 0


def cmd_db_backup(referee: StoreOnly, args: argparse.Namespace, who: str) -> int:
    from pathlib import Path

    from mailref.backup import backup_sqlite

    print(backup_sqlite(config_mod.load(args.config).database, Path(args.file)))
    return 0
